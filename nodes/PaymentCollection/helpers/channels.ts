/** The merchant's channel catalogue, shared by Channel > Get Many and the channel dropdown. */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { pickList } from '../../shared/transport/endpoints';
import { callService, type ServiceContext } from '../../shared/transport/transport';

export async function fetchChannels(ctx: ServiceContext, timeoutMs?: number): Promise<IDataObject[]> {
	const { data } = await callService(ctx, { endpoint: 'getChannels', timeoutMs });
	// Public integrations see `data` as the array; the interface document says `data.channels`.
	const list = pickList(data, 'channels');
	if (!list) {
		throw new NodeOperationError(ctx.getNode(), 'The service answered the channel list without a list of channels');
	}
	// An entry without a code cannot be used in Generate Transaction: leave it out.
	return list.filter(
		(entry): entry is IDataObject =>
			!!entry &&
			typeof entry === 'object' &&
			typeof (entry as IDataObject).code === 'string' &&
			(entry as IDataObject).code !== '',
	);
}

export function isDisabled(channel: IDataObject): boolean {
	return channel.is_disabled === true;
}

export function categoryOf(channel: IDataObject): { name?: string; slug?: string } {
	const category = channel.category;
	if (!category || typeof category !== 'object') return {};
	const { name, slug } = category as IDataObject;
	return {
		name: typeof name === 'string' ? name : undefined,
		slug: typeof slug === 'string' ? slug : undefined,
	};
}

/** A category chosen in the editor (its slug) or typed (its slug or name), case-insensitive. */
export function inCategory(channel: IDataObject, wanted: string): boolean {
	const target = wanted.trim().toLowerCase();
	if (target === '') return true;
	const { name, slug } = categoryOf(channel);
	return slug?.toLowerCase() === target || name?.toLowerCase() === target;
}

export function channelName(channel: IDataObject): string {
	return typeof channel.name === 'string' && channel.name.trim() !== ''
		? channel.name
		: String(channel.code);
}
