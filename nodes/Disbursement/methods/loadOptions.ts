/** Dropdown contents loaded from the service while the user edits the node. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS } from '../../shared/endpoints';
import { bankSchema, pickList } from '../../shared/schemas';
import { callService } from '../../shared/transport';
import type { ChannelType } from '../actions/payout/fields/mapping';
import { CHANNEL_TYPE_LABEL, channelsOfType, fetchPayoutChannels, isListMissing } from '../helpers/payoutChannels';

export async function getBanks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { data } = await callService(this, { endpoint: 'getBanks' });
	const list = pickList(data, 'banks');
	if (!list) {
		throw new NodeOperationError(
			this.getNode(),
			'The bank list answer holds no "banks" list: type the bank code, or map it with an expression',
		);
	}
	return list
		.map((entry) => bankSchema.safeParse(entry))
		.filter((parsed) => parsed.success)
		.map(({ data: bank }) => ({ name: bank!.name, value: bank!.code, description: `Bank code ${bank!.code}` }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** The payout channels of the Channel Type chosen in the form. */
export async function getPayoutChannels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const channelType = (this.getCurrentNodeParameter('channelType') ?? 'bankTransfer') as ChannelType;
	const label = CHANNEL_TYPE_LABEL[channelType] ?? String(channelType);
	const channels = await fetchPayoutChannels(this).catch((error: unknown) => {
		throw isListMissing(error)
			? new NodeOperationError(
					this.getNode(),
					`The service offers no payout channel list at ${ENDPOINTS.getPayoutChannels.path}: enter the channel code with an expression, e.g. INSTAPAY`,
				)
			: error;
	});
	const usable = channelsOfType(channels, channelType);
	if (usable.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`The service lists no ${label} channel for this account: check Channel Type, or enter the code with an expression`,
		);
	}
	return usable
		.map(({ code, name, channelType: type }) => ({
			name,
			value: code,
			description: type ? `${CHANNEL_TYPE_LABEL[type]} channel ${code}` : `Channel ${code} (the service does not say its type)`,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}
