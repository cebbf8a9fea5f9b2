import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { callService, serviceRun } from '../../shared/transport/transport';
import {
	categoryOf,
	channelName,
	isDisabled,
	paymentChannelsIn,
} from '../../shared/validation/channels';
import { NO_CHANNEL_LIST } from '../actions/channel/getMany.operation';

const NO_USABLE_CHANNEL =
	'The channel list answer holds no channel with a code: enter the channel code with an expression';

async function fetchChannels(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const channels = paymentChannelsIn(
		(await callService(serviceRun(ctx), { endpoint: 'getChannels' })).data,
	);
	if (!channels) throw new NodeOperationError(ctx.getNode(), NO_CHANNEL_LIST);
	return channels;
}

/** The channel dropdown: usable channels first, disabled ones last and marked as such. */
export async function getChannels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const channels = await fetchChannels(this);
	// An empty dropdown would not say why: no channel at all, or entries without a text code.
	if (channels.length === 0) throw new NodeOperationError(this.getNode(), NO_USABLE_CHANNEL);
	const options = channels.map((channel) => {
		const disabled = isDisabled(channel);
		const category = categoryOf(channel).name;
		return {
			disabled,
			option: {
				name: disabled ? `${channelName(channel)} (Disabled)` : channelName(channel),
				value: String(channel.code),
				description: [
					String(channel.code),
					category,
					disabled ? 'currently disabled by the service' : undefined,
				]
					.filter(Boolean)
					.join(' · '),
			},
		};
	});
	options.sort(
		(a, b) => Number(a.disabled) - Number(b.disabled) || a.option.name.localeCompare(b.option.name),
	);
	return options.map(({ option }) => option);
}

/** The categories present in the merchant's channel list, by slug. */
export async function getChannelCategories(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const bySlug = new Map<string, string>();
	for (const channel of await fetchChannels(this)) {
		const { name, slug } = categoryOf(channel);
		const value = slug ?? name;
		if (value && !bySlug.has(value)) bySlug.set(value, name ?? value);
	}
	return [...bySlug.entries()]
		.map(([value, name]) => ({ name, value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
