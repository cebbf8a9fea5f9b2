/**
 * A callback carries a copy of its transaction or payout, which the signature does not cover, and
 * states some facts both there and beside it (status, total_amount, channel, a payout's recipient).
 * A workflow may read either place, and Confirm With Service compares what the callback states
 * with the service's record, so every fact is compared wherever the callback states it: a copy that
 * contradicts the signed reference_no or amount, or the callback's own statement of a fact (a
 * genuine callback with a doctored copy, or a doctored field beside it), is refused, not passed on.
 */
import type { IDataObject } from 'n8n-workflow';

import { RECORD_RECIPIENT_FIELDS, recordRecipientValue } from '../validation/recipient';
import {
	recordAmount,
	recordChannel,
	recordStatus,
	sameAmount,
	unstatedValue,
} from '../validation/records';
import { loggable } from './loggable';
import { recordKindOf, type Callback } from './payload';

/** One fact as one place of the callback states it: raw, and read (undefined when unreadable). */
interface Statement {
	raw: unknown;
	read: string | undefined;
}

/** The facts stated both beside the copy and in it, each read the way records are read. */
function unsignedStatements(place: IDataObject, status?: string): Array<[string, Statement]> {
	const facts: Array<[string, Statement]> = [
		['status', { raw: place.status, read: status ?? recordStatus(place) }],
		['channel', { raw: place.channel ?? place.channel_code, read: recordChannel(place) }],
	];
	for (const [fact, path, comparable] of RECORD_RECIPIENT_FIELDS) {
		const raw = recordRecipientValue(place, path);
		facts.push([fact, { raw, read: comparable(raw) }]);
	}
	return facts;
}

/** Why the callback contradicts itself or its signed fields; undefined when it does not. */
export function copyContradiction(callback: Callback): string | undefined {
	const copy = callback.transaction;
	if (!copy) return undefined;
	const said = (field: string, copied: unknown, signed: unknown) =>
		`the transaction copy says ${field} "${loggable(copied)}" but the signed ${field} is "${loggable(signed)}"`;
	const saidTwice = (field: string, copied: unknown, beside: unknown) =>
		`the transaction copy says ${field} "${loggable(copied)}" but the callback says "${loggable(beside)}"`;
	const reference = copy.reference_no;
	if (reference !== undefined && reference !== null && reference !== callback.referenceNo) {
		return said('reference_no', reference, callback.referenceNo);
	}
	// Read and compared as every record's amount is (records.ts): an amount it cannot read contradicts.
	const copied = recordAmount(recordKindOf(callback.shapeHint), copy);
	if (copied !== undefined && !sameAmount(copied, callback.amount)) {
		return said('amount', copied, callback.amount);
	}
	const { payload } = callback;
	const totals = [payload.total_amount, copy.total_amount];
	if (!totals.some(unstatedValue) && !sameAmount(totals[0], totals[1])) {
		return saidTwice('total_amount', totals[1], totals[0]);
	}
	// Stated in both places, each must be read and agree: one that cannot be read contradicts.
	const beside = new Map(unsignedStatements(payload, callback.status));
	for (const [fact, inCopy] of unsignedStatements(copy)) {
		const outside = beside.get(fact)!;
		if (unstatedValue(inCopy.raw) || unstatedValue(outside.raw)) continue;
		if (inCopy.read === undefined || inCopy.read !== outside.read) {
			return saidTwice(fact, inCopy.read ?? inCopy.raw, outside.read ?? outside.raw);
		}
	}
	return undefined;
}
