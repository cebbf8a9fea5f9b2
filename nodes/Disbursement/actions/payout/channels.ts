/**
 * The payout channels of the account, for the Channel dropdown and for explaining a payout the
 * service refused over its channel (the list itself is read in shared/validation/channels.ts).
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Explanation, Refusal } from '../../../shared/runner/operation';
import type { CallService } from '../../../shared/transport/endpoints';
import {
	channelsOfType,
	payoutChannelsIn,
	type ChannelType,
	type PayoutChannel,
} from '../../../shared/validation/channels';
import type { RunContext } from '../../../shared/runner/runContext';
import { sameCode } from '../../../shared/validation/codes';
import { shownText } from '../../../shared/validation/shownText';

/** As the Channel Type dropdown names them. */
export const CHANNEL_TYPE_LABEL: Record<ChannelType, string> = {
	bankTransfer: 'Bank Transfer',
	eWallet: 'E-Wallet',
};

/** `call` sends through the transport of the node asking (a run, or the editor's dropdown). */
export async function fetchPayoutChannels(
	node: INode,
	call: CallService,
	timeoutMs?: number,
): Promise<PayoutChannel[]> {
	const { data } = await call({ endpoint: 'getPayoutChannels', timeoutMs });
	const channels = payoutChannelsIn(data);
	if (!channels) {
		throw new NodeOperationError(
			node,
			'The service answered the payout channel list without a list of channels',
		);
	}
	return channels;
}

/** One list per run (kept in the run's context), fetched on the first refusal and shared by the items after it. */
function channelsForRun(run: RunContext, call: CallService): Promise<PayoutChannel[] | undefined> {
	// Without a readable list the service's own refusal stands as it is.
	run.payoutChannels ??= fetchPayoutChannels(run.ctx.getNode(), call).catch(() => undefined);
	return run.payoutChannels;
}

/** Why `code` cannot be used for `channelType`, naming the codes that can; undefined when it can. */
export function unusableChannelReason(
	channels: PayoutChannel[],
	channelType: ChannelType,
	code: string,
): string | undefined {
	const usable = channelsOfType(channels, channelType);
	const listed = (channel: PayoutChannel) => sameCode(channel.code, code);
	const label = CHANNEL_TYPE_LABEL[channelType] ?? String(channelType);
	const valid = `${label} channels: ${usable.map((channel) => channel.code).join(', ') || 'none'}`;
	const spelled = usable.find(listed)?.code;
	if (spelled === code) return undefined;
	if (spelled !== undefined)
		return `Channel "${shownText(code, 40)}" is listed as "${shownText(spelled, 40)}": codes are case-sensitive; ${valid}`;
	const otherType = channels.find(listed)?.channelType;
	return otherType
		? `Channel "${shownText(code, 40)}" is for ${CHANNEL_TYPE_LABEL[otherType]} payouts, but Channel Type is ${label}; ${valid}`
		: `Channel "${shownText(code, 40)}" is not ${/^[AEIOU]/.test(label) ? 'an' : 'a'} ${label} channel of this account; ${valid}`;
}

/**
 * The `explain` of a payout plan: after the service refuses a payout (422), checks the item's
 * channel against the account's list; when the channel is the reason, the error says so and lists
 * the codes of the item's Channel Type. Otherwise (and without a list naming any channel) the
 * service's own refusal stands.
 */
export function explainChannelRefusal(
	run: RunContext,
	code: string,
	channelType: ChannelType,
): (refusal: Refusal, call: CallService) => Promise<Explanation | undefined> {
	return async (refusal, call) => {
		if (refusal.status !== 422) return undefined;
		const channels = await channelsForRun(run, call);
		// A list without a single channel with a code tells nothing about this one: the refusal stands.
		const reason = channels?.length
			? unusableChannelReason(channels, channelType, code)
			: undefined;
		if (!reason) return undefined;
		return {
			message: reason,
			description: `Nothing was sent: the service refused the payout (${refusal.message}). Pick the channel from the Channel list (codes are case-sensitive), or change Channel Type.`,
		};
	};
}
