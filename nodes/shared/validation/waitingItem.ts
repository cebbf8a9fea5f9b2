/**
 * The item of Send and Wait for Final Status that n8n passes on when the time limit ends the wait
 * (docs/waiting.md): the record as the service answered it, still pending, saying so, with `sent`,
 * the facts this execution sent (reference, amount, channel, a payout's recipient). The runner
 * makes it the waiting node's input before the execution waits (runner/sendAndWait.ts); the resume
 * webhook reads from it what the execution waits for and compares every callback and record with
 * `sent` (callbacks/resume.ts), so the expectation lives in the execution n8n stored.
 */
import type { IDataObject } from 'n8n-workflow';

import { readAmount } from './validation';
import {
	compareRecord,
	type ExpectedRecord,
	type RecordComparison,
	type RecordKind,
	type RecipientFacts,
} from './records';
import { RECORD_RECIPIENT_FIELDS, type RecipientFact } from './recipient';

export const FINAL_STATUSES: readonly string[] = ['completed', 'cancelled'];

/**
 * How the wait ended, in the output's `waitEnded`: a callback; the time limit; a record final
 * before waiting (a replay); the final status looked up (a replay still pending, whose callback goes
 * to the execution that first sent it); or a final status that differs from what was sent.
 */
export type WaitEnded = 'callback' | 'timeLimit' | 'finalBeforeWaiting' | 'lookedUp' | 'differs';

const ADDED = ['finalStatus', 'waitEnded', 'waitedUntil', 'sent'];

/** What this execution sent, as the waiting item keeps it (`sent`). */
export interface SentFacts extends ExpectedRecord {
	kind: RecordKind;
	amount: number;
	channel: string;
}

export function timeLimitItem(record: IDataObject, waitTill: Date, sent: SentFacts): IDataObject {
	return {
		...record,
		finalStatus: false,
		waitEnded: 'timeLimit' satisfies WaitEnded,
		waitedUntil: waitTill.toISOString(),
		sent: sentItem(sent),
	};
}

/** `sent` as the item shows it: the names the service's records use. */
function sentItem({ kind, referenceNo, amount, channel, recipient }: SentFacts): IDataObject {
	return {
		kind,
		reference_no: referenceNo,
		amount,
		channel,
		...(recipient && Object.keys(recipient).length > 0 ? { recipient: { ...recipient } } : {}),
	};
}

export interface WaitingFor {
	referenceNo: string;
	/** The record as the service answered the send, without the wait's fields. */
	record: IDataObject;
	sent: SentFacts;
	/** When the time limit ends this wait: with the reference, it tells one wait from any other. */
	waitedUntil: string;
}

/** What the execution waits for, from a time-limit item; undefined from anything else. */
export function readTimeLimitItem(item: unknown): WaitingFor | undefined {
	if (!isObject(item)) return undefined;
	const { reference_no: referenceNo, waitEnded, finalStatus, waitedUntil } = item;
	if (typeof referenceNo !== 'string' || waitEnded !== 'timeLimit' || finalStatus !== false) {
		return undefined;
	}
	if (typeof waitedUntil !== 'string') return undefined;
	const sent = readSent(item.sent);
	// A waiting item without what was sent cannot be compared with anything: it waits for nothing.
	if (!sent || sent.referenceNo !== referenceNo) return undefined;
	const record = { ...item };
	for (const added of ADDED) delete record[added];
	return { referenceNo, record, sent, waitedUntil };
}

function readSent(value: unknown): SentFacts | undefined {
	if (!isObject(value)) return undefined;
	const { kind, reference_no: referenceNo, channel } = value;
	const amount = readAmount(value.amount);
	if (kind !== 'transaction' && kind !== 'payout') return undefined;
	if (typeof referenceNo !== 'string' || typeof channel !== 'string' || amount === undefined)
		return undefined;
	const recipient: RecipientFacts = {};
	if (isObject(value.recipient)) {
		for (const [fact] of RECORD_RECIPIENT_FIELDS) {
			const stated = value.recipient[fact];
			if (typeof stated === 'string') recipient[fact as RecipientFact] = stated;
		}
	}
	return { kind, referenceNo, amount, channel, recipient };
}

/** What a record (or a callback read as one) states against what was sent: the one check of records.ts. */
export function compareWithSent(sent: SentFacts, record: IDataObject): RecordComparison {
	return compareRecord(sent.kind, sent, record);
}

/** A difference from what was sent, as the item lists it. */
export interface Difference extends IDataObject {
	fact: string;
	sent: string;
	stated: string;
	/** Who stated it: the callback, or the service's record looked up. */
	by: 'callback' | 'service';
}

export function differencesOf({ differs }: RecordComparison, by: Difference['by']): Difference[] {
	return differs.map(({ fact, expected, recorded }) => ({
		fact,
		sent: expected,
		stated: recorded,
		by,
	}));
}

/**
 * The item a wait ends with once a final status is known: `finalStatus: true` only when nothing
 * that states a fact differs from what was sent; otherwise `waitEnded: "differs"` and each
 * difference, so a branch on `finalStatus` never takes it as paid. Facts of what was sent that
 * nothing stated are listed in `unconfirmed`, as elsewhere.
 */
export function finalItem(
	record: IDataObject,
	ended: Exclude<WaitEnded, 'timeLimit' | 'differs'>,
	differences: Difference[],
	unconfirmed: string[],
): IDataObject {
	const differs = differences.length > 0;
	const earlier = Array.isArray(record.unconfirmed) ? (record.unconfirmed as string[]) : [];
	const notStated = [...new Set([...earlier, ...unconfirmed])];
	return {
		...record,
		finalStatus: !differs,
		waitEnded: differs ? ('differs' satisfies WaitEnded) : ended,
		...(differs ? { differences, message: differsMessage(record, differences) } : {}),
		...(notStated.length > 0 ? { unconfirmed: notStated } : {}),
	};
}

/** What a person reads on an item whose final status is not for what was sent. */
function differsMessage(record: IDataObject, differences: Difference[]): string {
	const facts = differences
		.map(({ fact, sent, stated, by }) => `${fact} ${stated} (${by}), sent ${sent}`)
		.join('; ');
	const status = typeof record.status === 'string' ? record.status : 'final';
	return `The ${status} status is not for what this execution sent: ${facts}. Do not treat it as paid; check the reference with the service before anything else.`;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
