/**
 * Reading the facts of the service's records in one place each, and the one check of "this record
 * is what was asked for", used by the money-safe path (a 2xx's confirmation, a replay, a conflict)
 * and by the trigger's Confirm With Service.
 */
import type { IDataObject } from 'n8n-workflow';

import { readAmount, readPhilippineMobile, toCentavos } from './validation';

/** Which record a reference_no names: a payment link of Collection, or a payout. */
export type RecordKind = 'transaction' | 'payout';

/** Who a payout pays, as its body's `fields` names them (docs/endpoints.md, Answers): an e-wallet's mobile number, a bank and account. */
export interface PayoutRecipient {
	mobileNumber?: string;
	bankCode?: string;
	accountNumber?: string;
}

/** Where each kind of record states its amount: a transaction's subtotal is what was asked for (docs/endpoints.md, Answers). */
const AMOUNT_FIELDS: Record<RecordKind, string[]> = {
	transaction: ['subtotal_amount', 'amount'],
	payout: ['amount'],
};

/** Where each kind of record states when it was made: a transaction's `date` (docs/endpoints.md, Answers), a payout's `created_at` (assumed). */
const CREATED_AT_FIELD: Record<RecordKind, string> = { transaction: 'date', payout: 'created_at' };

/** An ISO 8601 time with its offset (2026-09-01T10:00:06+08:00 or ...Z): without one the instant is unknown. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The amount a record states, read as amounts are read everywhere; undefined when it states none. */
export function recordAmount(kind: RecordKind, record: IDataObject): unknown {
	for (const field of AMOUNT_FIELDS[kind]) {
		if (record[field] !== undefined && record[field] !== null) return record[field];
	}
	return undefined;
}

/** The channel code of a record: channel.code (documented), or a flat channel_code / channel. */
export function recordChannel(record: IDataObject | undefined): string | undefined {
	const channel = record?.channel;
	if (channel && typeof channel === 'object' && typeof (channel as IDataObject).code === 'string') {
		return (channel as IDataObject).code as string;
	}
	if (typeof record?.channel_code === 'string') return record.channel_code;
	if (typeof channel === 'string') return channel;
	return undefined;
}

/** When the record says it was made, in epoch milliseconds; undefined when it says nothing readable. */
export function recordCreatedAt(kind: RecordKind, record: IDataObject): number | undefined {
	const value = record[CREATED_AT_FIELD[kind]];
	if (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value.trim())) return undefined;
	const time = Date.parse(value.trim());
	return Number.isFinite(time) ? time : undefined;
}

/** Whether two amounts are the same to the centavo; an amount that cannot be read matches nothing. */
export function sameAmount(a: unknown, b: unknown): boolean {
	const x = readAmount(a);
	const y = readAmount(b);
	return x !== undefined && y !== undefined && toCentavos(x) === toCentavos(y);
}

/** Letters and digits of an account number (spaces and dashes left out); a number only when it is exact. */
function comparableAccount(value: unknown): string | undefined {
	const text =
		typeof value === 'string'
			? value
			: typeof value === 'number' && Number.isSafeInteger(value)
				? String(value)
				: '';
	const compact = text.replace(/[\s-]/g, '');
	return /^[A-Za-z0-9]+$/.test(compact) ? compact : undefined;
}

const comparableCode = (value: unknown) =>
	typeof value === 'string' && value.trim() !== '' ? value.trim().toUpperCase() : undefined;

export type RecordFact =
	| 'reference_no'
	| 'amount'
	| 'channel'
	| 'mobile number'
	| 'bank code'
	| 'account number';

/** The recipient facts a payout record states under `fields`, as the request sent them, each in its comparable form. */
const RECIPIENT_FACTS: Array<
	[keyof PayoutRecipient, RecordFact, string[], (value: unknown) => string | undefined]
> = [
	[
		'mobileNumber',
		'mobile number',
		['mobile_number'],
		(value) => readPhilippineMobile(value)?.replace(/^\+63/, '0'),
	],
	['bankCode', 'bank code', ['bank_code'], comparableCode],
	['accountNumber', 'account number', ['receiver', 'account_number'], comparableAccount],
];

/** The recipient a payout record (or a callback's copy of one) states under `fields`, as text. */
export function recordRecipient(record: IDataObject | undefined): PayoutRecipient {
	const recipient: PayoutRecipient = {};
	for (const [key, , path] of RECIPIENT_FACTS) {
		const value = valueAt(record?.fields, path);
		if (typeof value === 'string' || typeof value === 'number') recipient[key] = String(value);
	}
	return recipient;
}

/** What a record is checked against: a row's intent, or what a callback states. */
export interface ExpectedRecord {
	referenceNo: string;
	/** Not compared when undefined (a reconciled row without an amount). */
	amount?: number;
	channel?: string;
	recipient?: PayoutRecipient;
}

/** A fact the record does not agree on: `recorded` is what it states (shown), undefined when it states none. */
export interface Mismatch {
	fact: RecordFact;
	expected: string;
	recorded?: string;
}

const shown = (value: unknown) => `"${String(value).slice(0, 32)}"`;

function valueAt(holder: unknown, path: string[]): unknown {
	return path.reduce<unknown>(
		(at, key) => (at && typeof at === 'object' ? (at as IDataObject)[key] : undefined),
		holder,
	);
}

/**
 * The one check of "this record is what was asked for": reference_no, amount (to the centavo),
 * channel, and a payout's recipient (mobile number; bank code and account number). A fact the
 * record does not state is not compared, except the amount when `amountRequired`; a fact it
 * states in a form that cannot be read is a mismatch, never an agreement.
 */
export function recordMismatches(
	kind: RecordKind,
	expected: ExpectedRecord,
	record: IDataObject,
	amountRequired: boolean,
): Mismatch[] {
	const mismatches: Mismatch[] = [];
	if (record.reference_no !== expected.referenceNo) {
		const recorded =
			record.reference_no === undefined || record.reference_no === null
				? undefined
				: String(record.reference_no).slice(0, 64);
		mismatches.push({ fact: 'reference_no', expected: expected.referenceNo, recorded });
	}
	const amount = recordAmount(kind, record);
	const amountDiffers =
		amount === undefined ? amountRequired : !sameAmount(amount, expected.amount);
	if (expected.amount !== undefined && amountDiffers) {
		const recorded = amount === undefined ? undefined : String(readAmount(amount) ?? shown(amount));
		mismatches.push({ fact: 'amount', expected: String(expected.amount), recorded });
	}
	const channel = recordChannel(record);
	const statesChannel = (record.channel ?? record.channel_code ?? null) !== null;
	if (expected.channel !== undefined && statesChannel && channel !== expected.channel) {
		mismatches.push({
			fact: 'channel',
			expected: expected.channel,
			recorded: channel ?? shown(record.channel ?? record.channel_code),
		});
	}
	for (const [key, fact, path, comparable] of RECIPIENT_FACTS) {
		const wanted = expected.recipient?.[key];
		const stated = valueAt(record.fields, path);
		if (kind !== 'payout' || wanted === undefined || stated === undefined || stated === null)
			continue;
		const recorded = comparable(stated);
		if (recorded === undefined || recorded !== comparable(wanted)) {
			mismatches.push({
				fact,
				expected: comparable(wanted) ?? wanted,
				recorded: recorded ?? shown(stated),
			});
		}
	}
	return mismatches;
}
