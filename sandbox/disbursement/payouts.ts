/** A payout (Process Disbursement; the response shape is this fake's own, see the README). */
import { roundCents } from '../server/money';
import { manilaIso } from '../server/time';
import { PAYOUT_ANSWERS, type PayoutAnswers } from '../types';
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

/** What the interface document names for every record, plus the time made unless left out too. */
const DOCUMENTED_FIELDS: Record<Exclude<PayoutAnswers, 'full'>, string[]> = {
	documented: ['reference_no', 'amount', 'channel', 'status', 'created_at'],
	'documented-untimed': ['reference_no', 'amount', 'channel', 'status'],
};

/** A payout as an answer states it: the whole view, or only the documented fields. */
export function answeredPayout(
	view: Record<string, unknown>,
	answers: PayoutAnswers,
): Record<string, unknown> {
	if (answers === 'full') return view;
	return Object.fromEntries(DOCUMENTED_FIELDS[answers].map((field) => [field, view[field]]));
}

/** A `--answers` / SANDBOX_ANSWERS value: undefined when not set, an error naming the choices when unknown. */
export function readPayoutAnswers(
	raw: string | undefined,
	name: string,
): PayoutAnswers | undefined {
	if (raw === undefined || raw === '') return undefined;
	if (!PAYOUT_ANSWERS.includes(raw as PayoutAnswers))
		throw new Error(`${name} needs one of ${PAYOUT_ANSWERS.join(', ')}, got "${raw}"`);
	return raw as PayoutAnswers;
}
