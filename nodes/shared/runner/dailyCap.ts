/**
 * Maximum Total per Day: the payouts one credential sends in one day (in the chosen time zone) never
 * add up to more than the maximum, across executions, restarts and queue-mode workers. n8n gives a
 * community node no atomic counter, so the ledger (an n8n Data Table, transport/ledger.ts) is used
 * the one way that stays safe with many writers: reserve, then read, then keep, per wave of a run's
 * payouts (waves.ts): their references looked up, their rows written in one insert (n8n's
 * `createdAt` decides each row's day), the day read once and decided in sheet order, the rows over
 * the maximum removed, the kept ones marked sending (only while still reserved) before any payout
 * goes out, then marked paid, removed when nothing was paid, or kept sending when the outcome is
 * unknown. Rows left reserved by a worker that stopped are removed by a later run once stale. Every
 * failure to reach or read the ledger refuses: a set maximum is never "no maximum". Why two runs
 * never pass the maximum, and what a crash leaves: docs/agent.md, "A total per day".
 *
 * Payout > Prepare reads the rows of the day n8n's clock is in, reserving nothing, for the figures
 * its summary states (`dayBeforeApproval`); scope, sum, figures and refusals are this file's, for both.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { credentialsFor } from '../transport/transport';
import {
	createdAtOf,
	deleteRows,
	insertStampedRows,
	LEDGER_TIMEOUT_MS,
	LedgerProblem,
	ledgerOf,
	ledgerTime,
	rowsOfReferences,
	rowsWhere,
	updateRows,
	type Ledger,
} from '../transport/ledger';
import { outcomeOf } from '../transport/outcome';
import {
	dayIn,
	DEFAULT_TIME_ZONE,
	notAfterDayStarts,
	readTimeZone,
	type CountedDay,
	type DailyCap,
	type DailyTotal,
} from '../validation/days';
import { formatPesos, readUrl, toCentavos } from '../validation/validation';
import type { MoneyIntent } from './operation';
import { readOption, readSafetyLimit } from './options';
import type { RunContext } from './runContext';
import { quoted, stopRun } from './runStop';
import { Waves } from './waves';

export const RESERVED = 'reserved';
/** Marked before the payout goes out: from then on it may have been sent. */
export const SENDING = 'sending';
export const PAID = 'paid';

/** Maximum Total per Day and Day Time Zone, read once before anything is sent; undefined when not set. */
export function readDailyCap(run: RunContext): DailyCap | undefined {
	const maximum = readSafetyLimit(run, 0, 'maxTotalPerDay', 'Maximum Total per Day');
	if (maximum === undefined) return undefined;
	const maximumCentavos = Math.floor(maximum * 100 + 1e-6);
	const node = run.ctx.getNode();
	if (!Number.isSafeInteger(maximumCentavos))
		throw stopRun(
			new NodeOperationError(node, 'Maximum Total per Day is too large to count: nothing was sent'),
		);
	const given = readOption(run, 'dayTimeZone', 0, DEFAULT_TIME_ZONE);
	const timeZone = readTimeZone(given);
	if (!timeZone)
		throw stopRun(
			new NodeOperationError(
				node,
				`Day Time Zone is ${quoted(given)}, not a time zone: nothing was sent`,
				{ description: 'Write an IANA time zone such as Asia/Manila or UTC.' },
			),
		);
	return { maximumCentavos, timeZone };
}

/** Marks an error after which this item has certainly paid nothing: its reservation is removed. */
const NOTHING_PAID = Symbol('nothingPaid');
/** Marks a definite refusal: the service holds no payout under the reference at all. */
const REFUSED_OUTRIGHT = Symbol('refusedOutright');

type Marked = Error & { [NOTHING_PAID]?: true; [REFUSED_OUTRIGHT]?: true };

export function nothingPaid<E extends Error>(error: E): E {
	(error as Marked)[NOTHING_PAID] = true;
	return error;
}

/**
 * Marks the service's definite refusal of the payout (a 4xx naming the problem, with nothing
 * unclear sent before it): nothing was paid, and nothing is held under its reference, so a
 * reservation an earlier run kept for that reference is removed as well.
 */
export function refusedOutright<E extends Error>(error: E): E {
	(error as Marked)[REFUSED_OUTRIGHT] = true;
	return nothingPaid(error);
}

const marked = (error: unknown, mark: symbol): boolean =>
	!!error && typeof error === 'object' && mark in error;

const pesos = (centavos: number) => formatPesos(centavos / 100);

/** The ledger's scope of one credential: its host and username (never its password). */
async function scopeOf(run: RunContext): Promise<string> {
	const credential = await credentialsFor(run, 'disbursement');
	const baseUrl = String(credential.baseUrl ?? '');
	const base = readUrl(baseUrl);
	// The payout itself refuses a Base URL that is not a URL; the scope only needs to be stable.
	const host = base instanceof URL ? base.host : baseUrl;
	return `${String(credential.username ?? '')}@${host}`;
}

/** The centavos of one row, or why it cannot be counted (then nothing is sent). */
function centavosOf(row: IDataObject): number {
	const centavos = row.centavos;
	if (typeof centavos !== 'number' || !Number.isSafeInteger(centavos) || centavos < 0)
		throw new LedgerProblem(
			`the payout ledger holds a row whose centavos (${quoted(centavos)}) is not a whole, non-negative number`,
		);
	return centavos;
}

const emptyCount = (): CountedDay => ({ upToId: 0, total: 0, byReference: new Map(), own: [] });

/** The centavos of `counted` and the rows beyond it, or why they cannot be counted. */
function countWith(counted: CountedDay, rows: IDataObject[]): number {
	let total = counted.total;
	const beyond = new Map<string, number>();
	for (const row of rows) {
		if (Number(row.id) <= counted.upToId) continue;
		const centavos = centavosOf(row);
		const reference = typeof row.reference === 'string' ? row.reference : '';
		if (reference === '') total += centavos;
		else beyond.set(reference, Math.max(beyond.get(reference) ?? 0, centavos));
	}
	for (const [reference, centavos] of beyond)
		total += Math.max(0, centavos - (counted.byReference.get(reference) ?? 0));
	if (!Number.isSafeInteger(total))
		throw new LedgerProblem('the payout ledger holds more than can be counted');
	return total;
}

/** The centavos the rows hold (a reference once, at its largest row). */
const sumOf = (rows: IDataObject[]): number => countWith(emptyCount(), rows);

/** What a refusal says was not done: Create and Confirm send nothing, Prepare prepares nothing. */
type NothingDone = 'sent' | 'prepared';

function refusal(
	run: RunContext,
	itemIndex: number,
	why: string,
	description: string,
	nothing: NothingDone,
) {
	return new NodeOperationError(run.ctx.getNode(), `Refused: ${why}, so nothing was ${nothing}`, {
		itemIndex,
		description,
	});
}

const LEDGER_FIX =
	'Select a Payout Ledger credential (an n8n API URL, an API key with the dataTableRow scopes, and the ID of a Data Table with the columns day, scope, reference, centavos and state; n8n 2.7 or later), check that n8n answers at that URL, or remove Maximum Total per Day. docs/agent.md, "A total per day", says how.';

/** A ledger that cannot be used refuses the payout, saying what to configure; other errors pass. */
function ledgerRefusal(run: RunContext, itemIndex: number, failure: unknown, nothing: NothingDone) {
	if (!(failure instanceof LedgerProblem)) return failure;
	return refusal(
		run,
		itemIndex,
		`Maximum Total per Day is set, and ${failure.message}`,
		LEDGER_FIX,
		nothing,
	);
}

/** What the day has left below the maximum, as a person says it. */
function leftToday(centavos: number): string {
	return centavos > 0 ? `${pesos(centavos)} is left for today` : 'nothing is left for today';
}

/**
 * The refusal of a payout of `centavos` that would bring the day to `total` centavos (this payout
 * included), above the maximum; `note` adds what happened to its reservation, when anything did.
 */
function overTheCap(
	run: RunContext,
	itemIndex: number,
	cap: DailyCap,
	day: string,
	centavos: number,
	total: number,
	nothing: NothingDone,
	note = '',
) {
	return refusal(
		run,
		itemIndex,
		`this payout of ${pesos(centavos)} would bring the total of ${day} (${cap.timeZone}) to ${pesos(total)}, above the Maximum Total per Day of ${pesos(cap.maximumCentavos)}`,
		`Today's payouts so far, reserved or paid, add up to ${pesos(total - centavos)}, so ${leftToday(cap.maximumCentavos - total + centavos)}. Pay a smaller amount, wait for the next day, or ask the owner of this workflow to raise the maximum.${note}`,
		nothing,
	);
}

/** The day's figures, with `before` the centavos the day holds without this item and `counted` with it. */
function dailyTotalOf(cap: DailyCap, day: string, before: number, counted: number): DailyTotal {
	return {
		day,
		timeZone: cap.timeZone,
		maximum: cap.maximumCentavos / 100,
		totalBefore: before / 100,
		total: counted / 100,
		remaining: (cap.maximumCentavos - counted) / 100,
	};
}

/** The ledger of the node's Payout Ledger credential, found once per run. */
async function runLedger(run: RunContext): Promise<Ledger> {
	run.ledger ??= ledgerOf(run.ctx);
	return await run.ledger;
}

const DAY_MS = 86_400_000;

/**
 * How long after n8n made a reservation of this run the rows of lower ids are settled: a row
 * another writer's insert had not committed by then took longer than a ledger request may
 * (LEDGER_TIMEOUT_MS), so its payout was refused and never sent. Twice that, and some more.
 */
const SETTLED_AFTER_MS = 2 * LEDGER_TIMEOUT_MS + 5_000;

/** What the run has counted of a day, made empty on its first reservation there. */
function countedDayOf(run: RunContext, scope: string, timeZone: string, day: string): CountedDay {
	const days = (run.countedDays ??= new Map<string, CountedDay>());
	const key = JSON.stringify([scope, timeZone, day]);
	const counted = days.get(key) ?? emptyCount();
	days.set(key, counted);
	return counted;
}

/**
 * Folds into `counted` the rows of a read made after a reservation n8n created at `createdAt`, up
 * to the newest of this run's reservations n8n made SETTLED_AFTER_MS before it. Safe because n8n
 * gives ids in the order inserts start: a row of a lower id that this read did not see started
 * before that reservation was answered and had not committed when this read began, longer than
 * a ledger request may take, so its writer refused its payout (docs/agent.md, "What a day costs").
 */
function settle(counted: CountedDay, rows: IDataObject[], createdAt: number): void {
	const settledIds = counted.own
		.filter((reservation) => reservation.createdAt <= createdAt - SETTLED_AFTER_MS)
		.map((reservation) => reservation.id);
	const upTo = Math.max(counted.upToId, ...settledIds);
	if (upTo === counted.upToId) return;
	const folded = rows.filter((row) => Number(row.id) <= upTo);
	counted.total = countWith(counted, folded);
	for (const row of folded) {
		const reference = typeof row.reference === 'string' ? row.reference : '';
		if (Number(row.id) <= counted.upToId || reference === '') continue;
		const centavos = centavosOf(row);
		counted.byReference.set(reference, Math.max(counted.byReference.get(reference) ?? 0, centavos));
	}
	counted.upToId = upTo;
	counted.own = counted.own.filter((reservation) => reservation.id > upTo);
}

/**
 * The `createdAt` bound of a day's read, a day or more before the day starts: only a bound that
 * leaves no row of the day out, whatever the database. n8n on SQLite keeps `createdAt` as
 * `YYYY-MM-DD HH:MM:SS.SSS` text and compares the filter's ISO text (`...T...Z`) with it as text, so
 * the bound is the last millisecond of an earlier UTC date; n8n on Postgres keeps it without a
 * zone, in the server's local time (up to 14 hours from UTC), hence a day earlier still. Which
 * rows belong to the day is decided here, from each row's `createdAt` as n8n answers it.
 */
function readFrom(timeZone: string, day: string): string {
	const early = notAfterDayStarts(timeZone, day) - DAY_MS;
	return new Date(Math.floor(early / DAY_MS) * DAY_MS - 1).toISOString();
}

/** The day, in the node's time zone, n8n's clock put a row in (its `createdAt`). */
function dayOfRow(timeZone: string, row: IDataObject): string {
	const createdAt = createdAtOf(row);
	if (createdAt === undefined)
		throw new LedgerProblem(
			`the payout ledger holds a row whose createdAt (${quoted(row.createdAt)}) is not a time`,
		);
	return dayIn(timeZone, new Date(createdAt));
}

/** The rows of this scope n8n created within `day` in `timeZone`: the day's payouts. */
async function dayRows(
	ledger: Ledger,
	scope: string,
	timeZone: string,
	day: string,
	afterId = 0,
): Promise<IDataObject[]> {
	const rows = await rowsWhere(ledger, { scope }, readFrom(timeZone, day), afterId);
	return rows.filter((row) => dayOfRow(timeZone, row) === day);
}

/**
 * The row this scope's ledger holds for a reference, on any day: a paid one first, else the
 * largest; undefined when there is none.
 */
async function rowOfReference(
	ledger: Ledger,
	scope: string,
	reference: string,
): Promise<IDataObject | undefined> {
	return rowStandingFor(await rowsWhere(ledger, { scope, reference }));
}

/** Of the rows of one reference, the one that stands for it: a paid one first, else the largest. */
function rowStandingFor(rows: IDataObject[]): IDataObject | undefined {
	const amounts = rows.map(centavosOf);
	const paid = rows.find((row) => row.state === PAID);
	if (paid) return paid;
	const largest = Math.max(...amounts);
	return rows.find((_row, index) => amounts[index] === largest);
}

/** Reservations tried when the day is over only because of other payouts still being decided. */
const RESERVE_ATTEMPTS = 6;
const RETRY_PAUSE_MS = 150;

/** Payouts of a run reserved, counted and marked together: one insert, one read, one mark each. */
export const WAVE_SIZE = 250;

/**
 * How long after n8n wrote a reservation never marked sending another run may remove it: far
 * longer than a live run takes from writing a wave to marking it (a few ledger requests), so
 * what it removes was left by a worker that stopped. Safety does not rest on it: the removal
 * and the sending mark are each conditional on the row still being reserved, so only one holds.
 */
export const STALE_RESERVATION_MS = 120_000;

const STALE_MINUTES = STALE_RESERVATION_MS / 60_000;

/** One reservation kept for a payout: its row, marked sending before the payout goes out. */
interface Reservation {
	wave: DayWave;
	id: number;
	/** The day n8n's clock put the reservation in, in the node's time zone: the day it counts in. */
	day: string;
	/** The day's centavos before this payout, and with it. */
	before: number;
	total: number;
}

/** What a payout of a wave is to do: pay under an earlier row, pay under its reservation, or not pay. */
type Decision = { earlier: IDataObject } | { reservation: Reservation } | { refused: Error };

interface Entry {
	itemIndex: number;
	reference: string;
	centavos: number;
}

/** What happens to a kept reservation once its payout is done. */
type Settled = 'paid' | 'nothing paid' | 'unknown';

/** A wave of a run's payouts: their decisions, then their outcomes, written back together. */
class DayWave {
	readonly decisions = new Map<number, Decision>();
	/** Kept reservations, by id, and what became of each (undefined: not yet known). */
	readonly kept = new Map<number, Settled | undefined>();
	private flushed?: Promise<void>;

	constructor(
		/** Undefined when the ledger could not be used: every payout of the wave is refused. */
		readonly ledger: Ledger | undefined,
		readonly scope: string,
	) {}

	/** The payout of reservation `id` is done: once all of the wave's are, their rows are marked. */
	async settle(id: number, how: Settled): Promise<void> {
		this.kept.set(id, how);
		if ([...this.kept.values()].every((value) => value !== undefined)) await this.flush();
	}

	/**
	 * Marks paid rows paid and removes rows whose payout paid nothing, each only while still
	 * sending; a row whose payout never went (the run stopped first) is removed too. A mark that
	 * fails leaves the row sending: it keeps counting, as an unknown outcome does.
	 */
	async flush(): Promise<void> {
		this.flushed ??= (async () => {
			const { ledger } = this;
			if (!ledger) return;
			const ids = (how: Settled | undefined) =>
				[...this.kept].filter(([, value]) => value === how).map(([id]) => id);
			const when = { scope: this.scope, state: SENDING };
			await outcomeOf(updateRows(ledger, ids('paid'), { state: PAID }, when));
			await outcomeOf(deleteRows(ledger, [...ids('nothing paid'), ...ids(undefined)], when));
		})();
		await this.flushed;
	}
}

/** What the ledger's rows add to the day for each new reference, counted as `countWith` does. */
function adding(known: CountedDay, others: IDataObject[]) {
	const beyond = new Map<string, number>();
	for (const row of others) {
		if (Number(row.id) <= known.upToId || typeof row.reference !== 'string') continue;
		beyond.set(row.reference, Math.max(beyond.get(row.reference) ?? 0, centavosOf(row)));
	}
	return (reference: string, centavos: number) => {
		const seen = beyond.get(reference) ?? 0;
		const counted = known.byReference.get(reference) ?? 0;
		return Math.max(0, Math.max(seen, centavos) - counted) - Math.max(0, seen - counted);
	};
}

/** What one attempt at a wave's reservations left: each entry decided, or to be tried again. */
interface Attempt {
	decisions: Map<number, Decision>;
	again: Entry[];
}

/** The refusal of a payout whose reservation could not be made or read. */
const ledgerFailure = (run: RunContext, itemIndex: number, failure: unknown): Decision => ({
	refused: ledgerRefusal(run, itemIndex, failure, 'sent') as Error,
});

/**
 * One attempt at reserving `entries` (in sheet order) together: their rows written in one
 * request, their day read once, and in sheet order each kept while the day has room for it. The
 * rows of payouts over the maximum are removed in one request; those over it only because of
 * other payouts still reserved are removed and tried again (`again`), with every entry after the
 * first of them, so the sheet's order stays the order rows get the day's room.
 */
async function reserveTogether(
	run: RunContext,
	cap: DailyCap,
	wave: DayWave,
	ledger: Ledger,
	entries: Entry[],
	lastAttempt: boolean,
): Promise<Attempt> {
	const { scope } = wave;
	const decisions = new Map<number, Decision>();
	const refuseAll = (group: Entry[], failure: unknown) => {
		for (const entry of group)
			decisions.set(entry.itemIndex, ledgerFailure(run, entry.itemIndex, failure));
	};
	const written = await outcomeOf(
		insertStampedRows(
			ledger,
			entries.map((entry) => ({
				// A label for a person reading the table until the row is marked with n8n's day; never counted.
				day: dayIn(cap.timeZone, new Date()),
				scope,
				reference: entry.reference,
				centavos: entry.centavos,
				state: RESERVED,
			})),
		),
	);
	if ('failure' in written) {
		// Rows it may have written without saying so stay reserved: a later run removes them as stale.
		refuseAll(entries, written.failure);
		return { decisions, again: [] };
	}
	const added = written.answer;
	const byDay = new Map<string, Array<{ entry: Entry; id: number; createdAt: number }>>();
	entries.forEach((entry, index) => {
		const day = dayIn(cap.timeZone, new Date(added[index].createdAt));
		byDay.set(day, [...(byDay.get(day) ?? []), { entry, ...added[index] }]);
	});
	const again: Entry[] = [];
	for (const [day, group] of byDay) {
		const ids = new Set(group.map(({ id }) => id));
		const known = countedDayOf(run, scope, cap.timeZone, day);
		for (const { id, createdAt } of group) known.own.push({ id, createdAt });
		const newest = Math.max(...group.map(({ createdAt }) => createdAt));
		const read = await outcomeOf(
			(async () => {
				const rows = await dayRows(ledger, scope, cap.timeZone, day, known.upToId);
				// The reservations must be among the rows read: a read that misses one cannot be trusted.
				const seen = new Set(rows.map((row) => row.id));
				if (![...ids].every((id) => seen.has(id)))
					throw new LedgerProblem(
						'reading the payout ledger did not give back the rows just written',
					);
				// Reservations a stopped worker left, never marked sending: they paid nothing.
				const stale = rows.filter(
					(row) =>
						row.state === RESERVED &&
						!ids.has(Number(row.id)) &&
						newest - (createdAtOf(row) ?? newest) > STALE_RESERVATION_MS,
				);
				const removed = new Set(
					stale.length === 0
						? []
						: await deleteRows(
								ledger,
								stale.map((row) => Number(row.id)),
								{ scope, state: RESERVED },
							),
				);
				const kept = rows.filter((row) => !removed.has(Number(row.id)));
				const others = kept.filter((row) => !ids.has(Number(row.id)));
				const counted = {
					total: countWith(known, others),
					settled: countWith(
						known,
						others.filter((row) => row.state !== RESERVED),
					),
					adds: adding(known, others),
				};
				settle(known, kept, newest);
				return counted;
			})(),
		);
		if ('failure' in read) {
			await outcomeOf(deleteRows(ledger, [...ids], { scope, state: RESERVED }));
			refuseAll(
				group.map(({ entry }) => entry),
				read.failure,
			);
			continue;
		}
		const { total, settled, adds } = read.answer;
		type Written = (typeof group)[number] & { withIt: number };
		const keep: Array<Written & { before: number }> = [];
		const over: Written[] = [];
		const retry: Written[] = [];
		let taken = 0;
		for (const written of group) {
			const more = adds(written.entry.reference, written.entry.centavos);
			const withIt = total + taken + more;
			if (retry.length > 0) retry.push({ ...written, withIt });
			else if (withIt <= cap.maximumCentavos) {
				keep.push({ ...written, withIt, before: total + taken });
				taken += more;
			} else if (!lastAttempt && settled + taken + more <= cap.maximumCentavos)
				// Over only because of payouts still being decided: each may give its amount back. It
				// and every row after it are tried again, so the sheet's order keeps the day's room.
				retry.push({ ...written, withIt });
			else over.push({ ...written, withIt });
		}
		const removing = [...over, ...retry].map(({ id }) => id);
		const removal = await outcomeOf(deleteRows(ledger, removing, { scope, state: RESERVED }));
		const removed = new Set('answer' in removal ? removal.answer : []);
		for (const written of retry) {
			if (removed.has(written.id)) again.push(written.entry);
			else over.push(written);
		}
		for (const { entry, id, withIt } of over) {
			const note = removed.has(id)
				? ''
				: ` The reservation of this payout could not be removed from the ledger; a later run removes it ${STALE_MINUTES} minutes on.`;
			decisions.set(entry.itemIndex, {
				refused: overTheCap(run, entry.itemIndex, cap, day, entry.centavos, withIt, 'sent', note),
			});
		}
		for (const { entry, id, before, withIt } of keep)
			decisions.set(entry.itemIndex, { reservation: { wave, id, day, before, total: withIt } });
	}
	return { decisions, again };
}

/**
 * Decides a wave of payouts (one, for an item not planned with the run): the references that
 * already have a row found in one read per some dozens; the others reserved together, tried
 * again after a random pause while they are over only because of payouts still being decided.
 */
async function decideWave(run: RunContext, cap: DailyCap, entries: Entry[]): Promise<DayWave> {
	const found = await outcomeOf(
		(async () => {
			const ledger = await runLedger(run);
			const scope = await scopeOf(run);
			const rows = await rowsOfReferences(
				ledger,
				entries.map((entry) => entry.reference),
			);
			// Every row answered must be countable and one of those asked for: else nothing is trusted.
			const asked = new Set(entries.map((entry) => entry.reference));
			for (const row of rows) centavosOf(row);
			if (rows.some((row) => !asked.has(String(row.reference))))
				throw new LedgerProblem('reading the payout ledger gave rows of references not asked for');
			return { ledger, scope, rows: rows.filter((row) => row.scope === scope) };
		})(),
	);
	if ('failure' in found) {
		const failed = new DayWave(undefined, '');
		for (const entry of entries)
			failed.decisions.set(entry.itemIndex, ledgerFailure(run, entry.itemIndex, found.failure));
		return failed;
	}
	const { ledger, scope, rows } = found.answer;
	const wave = new DayWave(ledger, scope);
	let fresh: Entry[] = [];
	for (const entry of entries) {
		const earlier = rowStandingFor(rows.filter((row) => row.reference === entry.reference));
		if (earlier) wave.decisions.set(entry.itemIndex, { earlier });
		else fresh.push(entry);
	}
	for (let attempt = 1; fresh.length > 0; attempt++) {
		const last = attempt === RESERVE_ATTEMPTS;
		const tried = await reserveTogether(run, cap, wave, ledger, fresh, last);
		for (const [itemIndex, decision] of tried.decisions) wave.decisions.set(itemIndex, decision);
		fresh = tried.again;
		// Two runs that counted each other then rarely meet again.
		if (fresh.length > 0) await sleep(RETRY_PAUSE_MS * attempt * (0.5 + Math.random()));
	}
	return wave;
}

/**
 * Marks the wave's kept reservations sending, before any of its payouts goes out, only while
 * each is still reserved: one another run removed as stale is not marked, and its payout is
 * refused with nothing sent.
 */
async function openWave(run: RunContext, wave: DayWave): Promise<void> {
	const { ledger } = wave;
	const reservations = [...wave.decisions.values()].flatMap((decision) =>
		'reservation' in decision ? [decision.reservation] : [],
	);
	if (!ledger || reservations.length === 0) return;
	const marked = new Set<number>();
	let failure: unknown;
	for (const day of new Set(reservations.map((reservation) => reservation.day))) {
		const ids = reservations.filter((r) => r.day === day).map((r) => r.id);
		const tried = await outcomeOf(
			updateRows(ledger, ids, { state: SENDING, day }, { scope: wave.scope, state: RESERVED }),
		);
		if ('failure' in tried) failure = tried.failure;
		else for (const id of tried.answer) marked.add(id);
	}
	for (const [itemIndex, decision] of wave.decisions) {
		if (!('reservation' in decision)) continue;
		const { id } = decision.reservation;
		if (marked.has(id)) {
			wave.kept.set(id, undefined);
			continue;
		}
		// Unmarked: removed meanwhile, or the mark's answer was lost (then it counts until settled).
		const why =
			failure ??
			new LedgerProblem(
				`its reservation was removed from the payout ledger before it was marked sending (held up over ${STALE_MINUTES} minutes)`,
			);
		wave.decisions.set(itemIndex, ledgerFailure(run, itemIndex, why));
	}
}

/** At the end of a run: reservations whose payouts never went are removed, the rest marked. */
async function closeWave(wave: DayWave, opened: boolean): Promise<void> {
	if (opened) return await wave.flush();
	if (!wave.ledger) return;
	const ids = [...wave.decisions.values()].flatMap((decision) =>
		'reservation' in decision ? [decision.reservation.id] : [],
	);
	if (ids.length > 0)
		await outcomeOf(deleteRows(wave.ledger, ids, { scope: wave.scope, state: RESERVED }));
}

const entryOf = (itemIndex: number, intent: MoneyIntent): Entry => ({
	itemIndex,
	reference: intent.referenceNo,
	centavos: toCentavos(intent.amount),
});

/**
 * Plans the run's payouts under Maximum Total per Day, in sheet order: they are reserved in
 * waves of WAVE_SIZE when the first of each asks (`withinDailyCap`). `finishDay` ends the plan.
 */
export function planDay(
	run: RunContext,
	cap: DailyCap,
	payouts: Array<{ itemIndex: number; intent: MoneyIntent }>,
): void {
	run.dayWaves = new Waves<Entry, DayWave>(
		payouts.map(({ itemIndex, intent }) => ({ key: itemIndex, entry: entryOf(itemIndex, intent) })),
		WAVE_SIZE,
		{
			decide: async (entries) => await decideWave(run, cap, entries),
			open: async (wave) => await openWave(run, wave),
			close: closeWave,
		},
	);
}

/** The run is done: each wave's rows are marked, and reservations never used are removed. */
export async function finishDay(run: RunContext): Promise<void> {
	await run.dayWaves?.finish();
}

/** The decision for one payout: from its planned wave, or from a wave of its own. */
async function decisionFor(
	run: RunContext,
	cap: DailyCap,
	itemIndex: number,
	intent: MoneyIntent,
): Promise<Decision> {
	const waves = run.dayWaves;
	if (waves?.has(itemIndex))
		return ((await waves.waveOf(itemIndex)) as DayWave).decisions.get(itemIndex)!;
	const wave = await decideWave(run, cap, [entryOf(itemIndex, intent)]);
	await openWave(run, wave);
	return wave.decisions.get(itemIndex)!;
}

/**
 * A payout whose reference already has a row (this run's earlier attempt, an earlier run, an
 * earlier day): one reference, one row. Nothing new is reserved: the row already counts, in the
 * day it was reserved in. The service answers as for any re-run (the existing payout, `replayed`);
 * the row is marked paid when a payout is found or made, and removed only when the service refuses
 * the reference outright. A larger amount than the row holds is refused: the row reserves no more.
 */
async function payUnderRow(
	run: RunContext,
	itemIndex: number,
	cap: DailyCap,
	intent: MoneyIntent,
	row: IDataObject,
	pay: () => Promise<IDataObject>,
): Promise<IDataObject> {
	const ledger = await runLedger(run);
	const scope = await scopeOf(run);
	const id = Number(row.id);
	const reserved = centavosOf(row);
	const centavos = toCentavos(intent.amount);
	const day = dayOfRow(cap.timeZone, row);
	if (centavos > reserved)
		throw refusal(
			run,
			itemIndex,
			`reference_no ${quoted(intent.referenceNo)} already has a row in the payout ledger for ${pesos(reserved)} (${String(row.state)}, ${day}), less than this payout of ${pesos(centavos)}`,
			`A reference_no is one payout. Run it again with its amount of ${pesos(reserved)} to get that payout back, or use a new reference_no for a new payout.`,
			'sent',
		);
	const counted = await outcomeOf(dayRows(ledger, scope, cap.timeZone, day).then(sumOf));
	if ('failure' in counted) throw ledgerRefusal(run, itemIndex, counted.failure, 'sent');
	// Changed only while in the state read: a row another run settled meanwhile is left as it is.
	const when = { scope, state: String(row.state) };
	const paid = await outcomeOf(pay());
	if ('failure' in paid) {
		if (row.state !== PAID && marked(paid.failure, REFUSED_OUTRIGHT))
			await outcomeOf(deleteRows(ledger, [id], when));
		throw paid.failure;
	}
	if (row.state !== PAID) await outcomeOf(updateRows(ledger, [id], { state: PAID, day }, when));
	return { ...paid.answer, dailyTotal: dailyTotalOf(cap, day, counted.answer, counted.answer) };
}

/**
 * Sends the payout (`pay`) only when its amount fits in the day's maximum, reserved in the ledger
 * first and marked sending; the output carries the day's figures (`dailyTotal`).
 */
export async function withinDailyCap(
	run: RunContext,
	itemIndex: number,
	cap: DailyCap,
	intent: MoneyIntent,
	pay: () => Promise<IDataObject>,
): Promise<IDataObject> {
	const decision = await decisionFor(run, cap, itemIndex, intent);
	if ('refused' in decision) throw decision.refused;
	if ('earlier' in decision)
		return await payUnderRow(run, itemIndex, cap, intent, decision.earlier, pay);
	const { wave, id, day, before, total } = decision.reservation;
	const dailyTotal = (counted: number) => dailyTotalOf(cap, day, before, counted);
	const paid = await outcomeOf(pay());
	if ('failure' in paid) {
		// Nothing paid: the day gets the amount back. Otherwise the outcome is unknown: the row stays
		// sending, in its day, until a later run of the reference settles it or a person who checked
		// the payout (Payout > Get or Reconcile, which touch no ledger) removes or marks it.
		await wave.settle(id, marked(paid.failure, NOTHING_PAID) ? 'nothing paid' : 'unknown');
		throw paid.failure;
	}
	const output = paid.answer;
	// A payout made before this item, with no row of its own: this item added nothing to the day.
	const replayed = output.replayed === true;
	await wave.settle(id, replayed ? 'nothing paid' : 'paid');
	return { ...output, dailyTotal: dailyTotal(replayed ? before : total) };
}

/**
 * Payout > Prepare's figures for the day of a payout a person is to approve: the rows of the day
 * n8n's clock is in are read and added up, nothing is reserved (Prepare sends nothing). They are
 * advisory: Confirm reserves and counts again when it sends. A reference that already has a row
 * adds nothing (Confirm would reuse it). A payout that alone would bring the day above the
 * maximum, and a ledger that cannot be read, are refused with nothing prepared, in Confirm's words.
 */
export async function dayBeforeApproval(
	run: RunContext,
	itemIndex: number,
	cap: DailyCap,
	intent: MoneyIntent,
): Promise<DailyTotal> {
	const centavos = toCentavos(intent.amount);
	const read = await outcomeOf(
		(async () => {
			const ledger = await runLedger(run);
			const scope = await scopeOf(run);
			const earlier = await rowOfReference(ledger, scope, intent.referenceNo);
			const day = earlier
				? dayOfRow(cap.timeZone, earlier)
				: dayIn(cap.timeZone, new Date(await ledgerTime(ledger, { scope })));
			const total = sumOf(await dayRows(ledger, scope, cap.timeZone, day));
			return { day, before: total, adds: earlier ? 0 : centavos };
		})(),
	);
	if ('failure' in read) throw ledgerRefusal(run, itemIndex, read.failure, 'prepared');
	const { day, before, adds } = read.answer;
	const total = before + adds;
	if (adds > 0 && total > cap.maximumCentavos)
		throw overTheCap(run, itemIndex, cap, day, centavos, total, 'prepared');
	return dailyTotalOf(cap, day, before, total);
}
