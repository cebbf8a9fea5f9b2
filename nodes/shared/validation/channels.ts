/**
 * The service's channel catalogues, read in one place: the payment channels of Payment Collection
 * (Generate's channel_code) and the payout channels of Disbursement. Neither the payout list's path
 * nor its shape is documented (docs/endpoints.md): a payout channel needs a `code`; its type is read
 * from `type`, `channel_type` or `category`.
 */
import type { IDataObject } from 'n8n-workflow';

import { foldCode } from './codes';
import { pickList } from './schemas';

/** How a payout reaches its recipient; the Channel Type parameter's values. */
export type ChannelType = 'bankTransfer' | 'eWallet';

export interface PayoutChannel {
	code: string;
	name: string;
	/** Undefined when the service does not say: such a channel is offered for both types. */
	channelType?: ChannelType;
}

/**
 * The payment channels of a channel list answer: `data` as an array (public integrations) or
 * `data.channels` (the interface document). Entries without a code cannot be used: left out.
 * Undefined when the answer holds no list.
 */
export function paymentChannelsIn(data: unknown): IDataObject[] | undefined {
	return pickList(data, 'channels')?.filter(
		(entry): entry is IDataObject =>
			!!entry &&
			typeof entry === 'object' &&
			typeof (entry as IDataObject).code === 'string' &&
			((entry as IDataObject).code as string).trim() !== '',
	);
}

/** The payout channels of a payout channel list answer; undefined when it holds no list. */
export function payoutChannelsIn(data: unknown): PayoutChannel[] | undefined {
	return paymentChannelsIn(data)?.map((entry) => ({
		code: entry.code as string,
		name:
			typeof entry.name === 'string' && entry.name.trim() !== ''
				? entry.name
				: (entry.code as string),
		channelType: channelTypeOf(entry),
	}));
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

/** A category chosen in the editor (its slug) or typed (its slug or name), ASCII case folded (codes.ts). */
export function inCategory(channel: IDataObject, wanted: string): boolean {
	const target = foldCode(wanted.trim());
	if (target === '') return true;
	const { name, slug } = categoryOf(channel);
	return (
		(slug !== undefined && foldCode(slug) === target) ||
		(name !== undefined && foldCode(name) === target)
	);
}

export function channelName(channel: IDataObject): string {
	return typeof channel.name === 'string' && channel.name.trim() !== ''
		? channel.name
		: String(channel.code);
}

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (value && typeof value === 'object') {
		const { slug, name } = value as IDataObject;
		if (typeof slug === 'string') return slug;
		if (typeof name === 'string') return name;
	}
	return undefined;
}

/** `bankTransfer`, `bank_transfer`, `BANK`, `e-wallet`, `EWALLET`, `{slug: 'e-wallet'}` ... */
export function channelTypeOf(entry: IDataObject): ChannelType | undefined {
	for (const key of ['type', 'channel_type', 'category']) {
		const typed = textOf(entry[key]);
		// ASCII letters only: toLowerCase would make the Kelvin sign a k, and "BAN\u212a" a bank.
		const text = typed === undefined ? '' : foldCode(typed).replace(/[^A-Z]/g, '');
		if (text.includes('BANK')) return 'bankTransfer';
		if (text.includes('WALLET')) return 'eWallet';
	}
	return undefined;
}

export function channelsOfType(
	channels: PayoutChannel[],
	channelType: ChannelType,
): PayoutChannel[] {
	return channels.filter(
		(channel) => channel.channelType === undefined || channel.channelType === channelType,
	);
}
