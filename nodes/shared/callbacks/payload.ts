/**
 * Reads a callback out of the request's JSON object (jsonBody.ts). Accepts
 * `{data: {...}}` (docs/endpoints.md, Callbacks) and a flat object. Everything a later check relies on is
 * validated here, so a bad body is a 400.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ApiInterface } from '../transport/endpoints';
import { scrubDeep } from '../transport/secrets';
import { firstStated, type RecordKind } from '../validation/records';
import { isStatus, STATUSES, type Status } from '../validation/schemas';
import { readAmount } from '../validation/validation';
import { isObject, readJsonObject, type RequestBody } from './jsonBody';
import { loggable } from './loggable';
import { rawValueAt } from './rawJson';

export type { ApiInterface };

export interface Callback {
	referenceNo: string;
	status: Status;
	/** The amount as a number, for the output. */
	amount: number;
	/** The amount texts the signature may be computed over, most faithful first. */
	signedAmounts: string[];
	signature?: string;
	totalAmount: number | null;
	/** The transaction or payout copy inside the callback, when present. */
	transaction?: IDataObject;
	/** Which interface the body's shape points to, when it says. */
	shapeHint?: ApiInterface;
	/** The callback object itself (`data`, or the whole body when flat). */
	payload: IDataObject;
	/** The whole body as received, for the output's `raw`. */
	raw: IDataObject;
}

export type ReadOutcome = { ok: true; callback: Callback } | { ok: false; reason: string };

export interface IncomingRequest extends RequestBody {
	headers: Record<string, string | string[] | undefined>;
	ip?: string;
	socket?: { remoteAddress?: string };
}

/**
 * `hidden`: the credentials' secret values, replaced in the body before anything reads it, as a
 * broken service may echo one (hiddenValues.ts). A genuine signed field never holds one.
 */
export function readCallback(
	request: IncomingRequest,
	hidden: readonly string[] = [],
): ReadOutcome {
	const bad = (reason: string): ReadOutcome => ({ ok: false, reason });
	const read = readJsonObject(request);
	if (!read.ok) return read;
	const { text } = read;
	const body = scrubDeep(read.body, hidden);

	const nested = isObject(body.data);
	const payload = (nested ? body.data : body) as IDataObject;
	const referenceNo = payload.reference_no;
	if (typeof referenceNo !== 'string' || referenceNo.trim() === '') {
		return bad('reference_no is missing');
	}
	const amount = readAmount(payload.amount);
	if (amount === undefined) return bad('amount is missing or not a number');
	// Exactly as documented: "COMPLETED" or " completed" is no status, never a final one.
	const status = payload.status;
	if (!isStatus(status)) {
		return bad(`status "${loggable(status ?? '')}" is not one of ${STATUSES.join(', ')}`);
	}
	const signature = typeof payload.signature === 'string' ? payload.signature.trim() : undefined;
	const transaction = isObject(payload.transaction)
		? (payload.transaction as IDataObject)
		: undefined;

	return {
		ok: true,
		callback: {
			referenceNo,
			status,
			amount,
			signedAmounts: signedAmountTexts(payload.amount, amount, text, nested),
			signature: signature === '' ? undefined : signature,
			// Stated beside the copy or in it (signedCopy.ts refuses the two disagreeing).
			totalAmount: readAmount(firstStated(payload.total_amount, transaction?.total_amount)) ?? null,
			transaction,
			shapeHint: shapeOf(payload, transaction),
			payload,
			raw: body as IDataObject,
		},
	};
}

/**
 * The amount text as written in the JSON first (what the service signed), then the usual
 * renderings of the same number. Each candidate is the same amount, so trying them cannot
 * let a changed amount through.
 */
function signedAmountTexts(
	value: unknown,
	amount: number,
	text: string,
	nested: boolean,
): string[] {
	if (typeof value === 'string') return [value.trim()];
	const texts: string[] = [];
	const raw = rawValueAt(text, nested ? ['data', 'amount'] : ['amount']);
	// The raw text must be the very number that was parsed, or it is not the amount we emit.
	if (raw !== undefined && Number(raw) === amount) texts.push(raw);
	texts.push(String(amount));
	// "100.00" for 100, but never a rounding: 100.005 must not verify as "100.01".
	if (Number(amount.toFixed(2)) === amount) texts.push(amount.toFixed(2));
	return [...new Set(texts)];
}

/**
 * The record an interface keeps: Payment Collection's transaction, Disbursement's payout. A shape
 * that says neither is read as a transaction, which states its amount as subtotal_amount first.
 */
export function recordKindOf(api: ApiInterface | undefined): RecordKind {
	return api === 'disbursement' ? 'payout' : 'transaction';
}

/** A collection transaction has a `channel` object; a payout a `channel` string and `fields`. */
function shapeOf(
	payload: IDataObject,
	transaction: IDataObject | undefined,
): ApiInterface | undefined {
	for (const source of [transaction, payload]) {
		if (!source) continue;
		if (isObject(source.channel) || 'web_payment_url' in source || 'subtotal_amount' in source) {
			return 'collection';
		}
		if (typeof source.channel === 'string' || isObject(source.fields)) return 'disbursement';
	}
	return undefined;
}
