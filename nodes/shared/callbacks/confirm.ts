/**
 * "Confirm with the service": the signature covers amount and reference only, never the status,
 * so a replayed signed callback could carry a forged status. This looks the reference up with
 * the credential and accepts the callback only when the service's one record for it agrees with
 * it on status, total_amount and, through the same check the action nodes use (records.ts),
 * amount, channel and a payout's recipient; what the trigger then emits comes from the record.
 * A fact the callback states and the record does not (the document shows no payout's shape) is
 * taken from neither: the event lists it in `unconfirmed`. Two records for the reference are a
 * 503, so the service retries: never a final status.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { INTERFACE_LABEL } from '../transport/endpoints';
import { ServiceError } from '../transport/errors';
import type { ServiceRun } from '../transport/runState';
import { AMBIGUOUS_LOOKUP, findByReference, UNREADABLE_LOOKUP } from '../transport/lookups';
import {
	compareRecord,
	firstStated,
	recordAmount,
	recordChannel,
	recordRecipient,
	recordStatus,
	sameAmount,
	unstatedValue,
	type ExpectedRecord,
	type RecordFact,
} from '../validation/records';
import { RECORD_RECIPIENT_FIELDS } from '../validation/recipient';
import { isStatus, STATUSES } from '../validation/schemas';
import { readAmount } from '../validation/validation';
import { loggable } from './loggable';
import { recordKindOf, type ApiInterface, type Callback } from './payload';

export const CONFIRM_TIMEOUT_MS = 10_000;

/** The facts of a callback as the service's own record states them. */
export interface Confirmed {
	api: ApiInterface;
	record: IDataObject;
	status: string;
	amount: number;
	totalAmount: number | null;
	channel: string | null;
	/** Facts the callback states that the record does not: not confirmed, and not emitted. */
	unconfirmed: CallbackFact[];
}

/** A fact a callback may state that the service's record is asked to confirm. */
export type CallbackFact = RecordFact | 'total_amount';

export type ConfirmOutcome =
	| ({ ok: true } & Confirmed)
	/** 401: the service contradicts the callback. 503: the service could not be asked. */
	| { ok: false; code: 401 | 503; reason: string };

/**
 * Looks the reference up in each candidate interface, in the order given, and stops at the
 * first record that agrees. Any look-up failure with no agreeing record is a 503, so the sender
 * retries rather than giving up on a callback the service might still confirm.
 */
export async function confirmWithService(
	service: ServiceRun<IWebhookFunctions>,
	candidates: ApiInterface[],
	callback: Callback,
): Promise<ConfirmOutcome> {
	const disagreements: string[] = [];
	const failures: string[] = [];
	for (const api of candidates) {
		let record: IDataObject | undefined;
		try {
			record = await findByReference(
				service,
				recordKindOf(api),
				callback.referenceNo,
				CONFIRM_TIMEOUT_MS,
			);
		} catch (error) {
			failures.push(lookupFailure(api, error));
			continue;
		}
		if (!record) continue;
		const read = readRecord(api, record);
		if (typeof read === 'string') {
			disagreements.push(read);
			continue;
		}
		const checked = disagreement(read, callback);
		if (typeof checked !== 'string') return { ok: true, ...read, unconfirmed: checked.unstated };
		disagreements.push(checked);
	}
	if (failures.length > 0) {
		return {
			ok: false,
			code: 503,
			reason: `the service could not be asked: ${failures.join('; ')}`,
		};
	}
	if (disagreements.length > 0) return { ok: false, code: 401, reason: disagreements.join('; ') };
	return { ok: false, code: 401, reason: 'the service does not know this reference_no' };
}

/** The record's facts, or why they cannot be read (then nothing can be confirmed). */
function readRecord(
	api: ApiInterface,
	record: IDataObject,
): Omit<Confirmed, 'unconfirmed'> | string {
	const status = recordStatus(record);
	const amount = readAmount(recordAmount(recordKindOf(api), record));
	if (status === undefined) return 'the service record has no status';
	if (!isStatus(status))
		return `the service record states status "${loggable(status)}", which is none of ${STATUSES.join(', ')}`;
	if (amount === undefined) return 'the service record has no readable amount';
	return {
		api,
		record,
		status,
		amount,
		totalAmount: readAmount(record.total_amount) ?? null,
		channel: recordChannel(record) ?? null,
	};
}

/**
 * Where the callback contradicts the record, or the facts it states that the record does not.
 * Beyond the status and total_amount, the one check of records.ts compares what the callback
 * states: amount, channel and a payout's recipient. A fact the callback states beside its copy and
 * in it was found the same in both (signedCopy.ts), so either place stands for the callback.
 */
function disagreement(
	confirmed: Omit<Confirmed, 'unconfirmed'>,
	callback: Callback,
): string | { unstated: CallbackFact[] } {
	const said = (field: string, received: unknown, recorded: unknown) =>
		`the callback says ${field}"${loggable(received)}" but the service says "${loggable(recorded)}"`;
	if (confirmed.status !== callback.status) return said('', callback.status, confirmed.status);
	const { payload, transaction } = callback;
	const { differs, unstated } = compareRecord(
		recordKindOf(confirmed.api),
		statedBy(callback),
		confirmed.record,
	);
	const [first] = differs;
	if (first) return said(`${first.fact} `, first.expected, first.recorded);
	// Compared when both state it, to the centavo as amounts are: one that cannot be read disagrees.
	const received = firstStated(payload.total_amount, transaction?.total_amount);
	const recorded = confirmed.record.total_amount;
	if (received === undefined) return { unstated };
	if (unstatedValue(recorded)) return { unstated: [...unstated, 'total_amount'] };
	if (!sameAmount(received, recorded)) return said('total_amount ', received, recorded);
	return { unstated };
}

/**
 * What a callback states of the payment: its reference, amount, channel and a payout's recipient.
 * A fact stated beside the copy and in it was found the same in both (signedCopy.ts).
 */
function statedBy(callback: Callback): ExpectedRecord {
	const { payload, transaction } = callback;
	return {
		referenceNo: callback.referenceNo,
		amount: callback.amount,
		channel: recordChannel(transaction) ?? recordChannel(payload),
		recipient: { ...recordRecipient(payload), ...recordRecipient(transaction) },
	};
}

/** What a callback states, written as a record states it, so it is compared as records are. */
export function callbackRecord(callback: Callback): IDataObject {
	const { referenceNo, amount, channel, recipient = {} } = statedBy(callback);
	const fields: IDataObject = {};
	for (const [fact, path] of RECORD_RECIPIENT_FIELDS) {
		const value = recipient[fact];
		if (value === undefined) continue;
		const keys = path.split('.');
		const last = keys.pop()!;
		let at = fields;
		for (const key of keys) at = (at[key] ??= {}) as IDataObject;
		at[last] = value;
	}
	return { reference_no: referenceNo, amount, channel: channel ?? null, fields };
}

/**
 * Why a look-up failed, from the status or network code only: the service's own text is left
 * out, as a broken service may echo the token or the password it was sent.
 */
function lookupFailure(api: ApiInterface, error: unknown): string {
	const service = INTERFACE_LABEL[api];
	const failure = error instanceof ServiceError ? error.failure : undefined;
	if (failure?.tokenFailure !== undefined) return `the ${service} credential could not get a token`;
	if (failure?.status !== undefined)
		return `the ${service} service answered HTTP ${failure.status}`;
	if (failure?.networkCode === AMBIGUOUS_LOOKUP) {
		return `the ${service} service holds more than one record for this reference_no (${AMBIGUOUS_LOOKUP})`;
	}
	if (failure?.networkCode === UNREADABLE_LOOKUP || failure?.networkCode === 'MALFORMED_RESPONSE') {
		return `the ${service} service's answer proves nothing about this reference_no (${failure.networkCode})`;
	}
	if (failure?.networkCode !== undefined) {
		return `the ${service} service did not answer (${loggable(failure.networkCode, 32)})`;
	}
	return `the ${service} look-up failed`;
}
