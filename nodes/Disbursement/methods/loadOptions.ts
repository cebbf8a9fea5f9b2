/** Dropdown contents loaded from the service while the user edits the node. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS, type ServiceRequest } from '../../shared/transport/endpoints';
import { ServiceError } from '../../shared/transport/errors';
import { channelsOfType, type ChannelType } from '../../shared/validation/channels';
import { banksIn } from '../../shared/validation/schemas';
import { callService, serviceRun } from '../../shared/transport/transport';
import { CHANNEL_TYPE_LABEL, fetchPayoutChannels } from '../actions/payout/channels';

export async function getBanks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { data } = await callService(serviceRun(this), { endpoint: 'getBanks' });
	const banks = banksIn(data);
	if (!banks) {
		throw new NodeOperationError(
			this.getNode(),
			'The bank list answer holds no "banks" list: type the bank code, or map it with an expression',
		);
	}
	// An empty dropdown would not say why: no bank at all, or entries without a text code.
	if (banks.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'The bank list answer holds no bank with a code: type the bank code, or map it with an expression',
		);
	}
	return banks
		.map((bank) => ({
			name: bank.name ?? bank.code,
			value: bank.code,
			description: bank.name
				? `Bank code ${bank.code}`
				: `Bank code ${bank.code} (the service does not name it)`,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** True when the service has no payout channel list at this path (it is an assumed one). */
function isListMissing(error: unknown): boolean {
	return (
		error instanceof ServiceError && (error.failure.status === 404 || error.failure.status === 405)
	);
}

/**
 * The account's payout channels, named with their channel type. Version 2 lists only those of
 * the Channel Type chosen in the form (and any whose type the service does not say). Version 1
 * lists all, those of the chosen type first, as it always has: n8n 2.8's editor did not always
 * reload a dropdown when the parameter it depends on changed (measured: no reload after switching
 * Channel Type), and a list stuck on the other type would leave nothing to pick.
 */
export async function getPayoutChannels(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const channelType = (this.getCurrentNodeParameter('channelType') ??
		'bankTransfer') as ChannelType;
	const service = serviceRun(this);
	const call = async (request: ServiceRequest) => await callService(service, request);
	const channels = await fetchPayoutChannels(this.getNode(), call).catch((error: unknown) => {
		throw isListMissing(error)
			? new NodeOperationError(
					this.getNode(),
					`The service offers no payout channel list at ${ENDPOINTS.getPayoutChannels.path}: enter the channel code with an expression, e.g. INSTAPAY`,
				)
			: error;
	});
	if (channels.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'The payout channel list answer holds no channel with a code: enter the code with an expression',
		);
	}
	const ofChosenType = new Set(channelsOfType(channels, channelType));
	const listed = this.getNode().typeVersion >= 2 ? [...ofChosenType] : channels;
	if (listed.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`The service lists no ${CHANNEL_TYPE_LABEL[channelType] ?? channelType} payout channel for this account: choose the other Channel Type, or enter the code with an expression`,
		);
	}
	return listed
		.map((channel) => {
			const type = channel.channelType ? CHANNEL_TYPE_LABEL[channel.channelType] : undefined;
			return {
				first: ofChosenType.has(channel),
				option: {
					name: type ? `${channel.name} (${type})` : channel.name,
					value: channel.code,
					description: type
						? `${type} channel ${channel.code}`
						: `Channel ${channel.code} (the service does not say its type)`,
				},
			};
		})
		.sort((a, b) => Number(b.first) - Number(a.first) || a.option.name.localeCompare(b.option.name))
		.map(({ option }) => option);
}
