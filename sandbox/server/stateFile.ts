/**
 * The records of a gateway started with `stateFile`, kept on disk so that a restarted gateway
 * (the demo's) knows every reference it was given. Written whole after each change, atomically
 * (a temporary file renamed over the old one), so a stop at any moment leaves the last complete
 * state. A file that cannot be read is an error, never a silent fresh start: starting empty
 * would let the same references be paid again.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CollectionRecord } from '../collection/transactions';
import type { PayoutRecord } from '../disbursement/payouts';
import type { CallbackRecord, FinalStatus } from '../types';

const VERSION = 1;

/** A collection transaction as stored: its record without the expiry timer. */
export type StoredTransaction = Omit<CollectionRecord, 'cancelExpiry'>;

export interface StateSnapshot {
	version: typeof VERSION;
	transactions: StoredTransaction[];
	payouts: PayoutRecord[];
	/** Copies look-ups show beside a record (`duplicateRecord`), per reference. */
	duplicates: { transactions: DuplicateViews; payouts: DuplicateViews };
	/** Scripted outcomes, per reference. */
	scripts: Array<[string, { status: FinalStatus; afterMs: number }]>;
	/** Every callback delivery attempt, oldest first. */
	callbacks: CallbackRecord[];
}

export type DuplicateViews = Array<[string, Array<Record<string, unknown>>]>;

/** The snapshot in `file`, or undefined when there is no file yet. */
export function readStateFile(file: string): StateSnapshot | undefined {
	let text: string;
	try {
		text = fs.readFileSync(file, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw unreadable(file, (error as Error).message);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw unreadable(file, `it is not valid JSON (${(error as Error).message})`);
	}
	if (!isSnapshot(parsed))
		throw unreadable(file, `it is not a sandbox state file of version ${VERSION}`);
	return parsed;
}

/** Replaces `file` with the snapshot in one step: a reader sees the old state or the new one. */
export function writeStateFile(file: string, snapshot: Omit<StateSnapshot, 'version'>): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const temporary = `${file}.${process.pid}.tmp`;
	fs.writeFileSync(temporary, JSON.stringify({ version: VERSION, ...snapshot }));
	fs.renameSync(temporary, file);
}

function unreadable(file: string, reason: string): Error {
	return new Error(
		`The sandbox state file ${file} cannot be read: ${reason}. Delete it to start the sandbox ` +
			'empty (its transactions, payouts and callbacks are then forgotten).',
	);
}

function isSnapshot(value: unknown): value is StateSnapshot {
	const v = value as Partial<StateSnapshot> | null;
	const isRecord = (r: { view?: { reference_no?: unknown }; createdAt?: unknown }) =>
		typeof r?.view?.reference_no === 'string' && typeof r.createdAt === 'number';
	return (
		typeof v === 'object' &&
		v !== null &&
		v.version === VERSION &&
		Array.isArray(v.transactions) &&
		v.transactions.every(isRecord) &&
		Array.isArray(v.payouts) &&
		v.payouts.every(isRecord) &&
		Array.isArray(v.duplicates?.transactions) &&
		Array.isArray(v.duplicates?.payouts) &&
		Array.isArray(v.scripts) &&
		Array.isArray(v.callbacks)
	);
}
