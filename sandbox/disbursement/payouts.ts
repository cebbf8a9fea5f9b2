/** A payout (Process Disbursement; the response shape is this fake's own, see the README). */
import { roundCents } from '../server/money';
import { manilaIso } from '../server/time';
import type { PayoutInput } from './validation';

export interface PayoutRecord {
	kind: 'payout';
	view: Record<string, unknown> & {
		reference_no: string;
		status: string;
		amount: number;
		total_amount: number;
	};
	createdAt: number;
	callbackUrl?: string;
}

export function buildPayout(input: PayoutInput, now: number): PayoutRecord {
	const view = {
		reference_no: input.referenceNo,
		channel: input.channel.code,
		amount: roundCents(input.amount),
		status: 'pending',
		fields: structuredClone(input.fields),
		callback_webhook_url: input.callbackUrl ?? null,
		fee: input.channel.fee,
		total_amount: roundCents(input.amount + input.channel.fee),
		created_at: manilaIso(now),
	};
	return { kind: 'payout', view, createdAt: now, callbackUrl: input.callbackUrl };
}
