/**
 * Reading the facts of the service's records in one place each, and the one check of "this record
 * is what was asked for", used by the money-safe path (a 2xx's confirmation, a replay, a conflict),
 * by Reconcile and by the trigger's Confirm With Service.
 */
import type { IDataObject } from 'n8n-workflow';

import { sameCode } from './codes';
import { RECORD_RECIPIENT_FIELDS, recordRecipientValue, type RecipientFact } from './recipient';
import { shownText } from './shownText';
import { readAmount, toCentavos } from './validation';

/** The recipient facts a row or a record gives, each in comparable form. */
export type RecipientFacts = Partial<Record<RecipientFact, string>>;

/** Which record a reference_no names: a payment link of Collection, or a payout. */
export type RecordKind = 'transaction' | 'payout';

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

/**
 * The status a record states, exactly as it states it; undefined when it states none: absent,
 * null, blank or not a text. Only `pending`, `completed` and `cancelled` are statuses (isStatus):
 * "COMPLETED" or " completed" is a status the document does not list, never read as completed.
 */
export function recordStatus(record: IDataObject): string | undefined {
	const status = record.status;
	return typeof status === 'string' && status.trim() !== '' ? status : undefined;
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

export type RecordFact = 'reference_no' | 'amount' | 'channel' | RecipientFact;

/** The recipient facts a payout record's copy (or a callback's) states under `fields`, in comparable form. */
export function recordRecipient(record: IDataObject | undefined): RecipientFacts {
	const facts: RecipientFacts = {};
	for (const [fact, path, comparable] of RECORD_RECIPIENT_FIELDS) {
		const value = comparable(recordRecipientValue(record, path));
		if (value !== undefined) facts[fact] = value;
	}
	return facts;
}

/** What a record is checked against: a row's intent, or what a callback states. */
export interface ExpectedRecord {
	referenceNo: string;
	/** Not compared when undefined (a reconciled row without an amount). */
	amount?: number;
	channel?: string;
	/** Who is paid, in comparable form (recipient.ts): only the facts given are compared. */
	recipient?: RecipientFacts;
}

/** A fact the record states and that differs from what was asked: `recorded` is what it states, shown. */
export interface Mismatch {
	fact: RecordFact;
	expected: string;
	recorded: string;
}

/**
 * A record against what was asked, each fact with one of three answers: agrees, differs (in
 * `differs`), or not stated (in `unstated`). Only a difference contradicts the record: the service's
 * document shows no payout's shape, so a record that leaves a fact out says nothing about it.
 */
export interface RecordComparison {
	differs: Mismatch[];
	unstated: RecordFact[];
}

/** What a record states, quoted, when it cannot be read: as shownText shows text. */
const shown = (value: unknown) => `"${shownText(value, 32)}"`;
/** Absent, null or blank: a blank text says nothing about a fact either. */
export const unstatedValue = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The first of these values that states something; undefined when none does. */
export function firstStated(...values: unknown[]): unknown {
	return values.find((value) => !unstatedValue(value));
}

/**
 * The one check of "this record is what was asked for": reference_no, amount (to the centavo),
 * channel, and a payout's recipient (its mobile number; or its bank code and account number). Only
 * the facts expected are compared. One the record states in a form that cannot be read differs,
 * never agrees; one it does not state is `unstated`, never a difference.
 */
export function compareRecord(
	kind: RecordKind,
	expected: ExpectedRecord,
	record: IDataObject,
): RecordComparison {
	const comparison: RecordComparison = { differs: [], unstated: [] };
	// Both sides are shown to a person (Reconcile's rows, the refusals): text as shownText shows it.
	const text = (value: string) => shownText(value, 64);
	const judge = (
		fact: RecordFact,
		wanted: string | undefined,
		stated: unknown,
		agrees: () => boolean,
		recorded: () => string,
	) => {
		if (wanted === undefined) return;
		if (unstatedValue(stated)) comparison.unstated.push(fact);
		else if (!agrees())
			comparison.differs.push({ fact, expected: text(wanted), recorded: recorded() });
	};
	const reference = record.reference_no;
	judge(
		'reference_no',
		expected.referenceNo,
		reference,
		() => reference === expected.referenceNo,
		() => text(String(reference)),
	);
	const amount = recordAmount(kind, record);
	judge(
		'amount',
		expected.amount === undefined ? undefined : String(expected.amount),
		amount,
		() => sameAmount(amount, expected.amount),
		() => {
			const read = readAmount(amount);
			return read !== undefined ? String(read) : shown(amount);
		},
	);
	const channel = recordChannel(record);
	const statedChannel = record.channel ?? record.channel_code;
	judge(
		'channel',
		expected.channel,
		statedChannel,
		() => channel !== undefined && sameCode(channel, expected.channel!),
		() => (channel !== undefined ? text(channel) : shown(statedChannel)),
	);
	if (kind !== 'payout') return comparison;
	for (const [fact, path, comparable] of RECORD_RECIPIENT_FIELDS) {
		const wanted = expected.recipient?.[fact];
		const value = recordRecipientValue(record, path);
		const read = comparable(value);
		judge(
			fact,
			wanted,
			value,
			// Both sides in comparable form: a code is compared with its ASCII letters folded (codes.ts).
			() => read !== undefined && read === comparable(wanted),
			() => (read !== undefined ? text(read) : shown(value)),
		);
	}
	return comparison;
}
