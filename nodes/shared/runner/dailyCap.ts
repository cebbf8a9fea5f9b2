/**
 * Maximum Total per Day: the payouts one credential sends in one day (in the chosen time zone) never
 * add up to more than the maximum, across executions, restarts and queue-mode workers. n8n gives a
 * community node no atomic counter, so the ledger (an n8n Data Table, transport/ledger.ts) is used
 * the one way that stays safe with many writers: reserve, then read, then keep.
 *
 * 1. One reference, one row: a reference that already has a row (any day) reserves nothing; the
 *    service answers the re-run, and the row is marked paid or, refused outright, removed.
 * 2. The payout's amount is written to the ledger as a reservation (a row of its own); n8n stamps
 *    it (`createdAt`), and that instant, by n8n's clock, decides its day in the node's time zone.
 * 3. The rows n8n created within that day are read, this reservation among them, and summed in
 *    centavos; a run reads only the rows after those it has settled (`settle`).
 * 4. Within the maximum: the payout is sent. Over it: the reservation is removed and the payout
 *    refused, with nothing sent.
 *
 * Two payouts near the maximum may both count each other's reservation; they are never both paid,
 * because whichever reads second sees both rows. Over the maximum only because of reservations
 * still being decided, a payout removes its row and tries again after a random pause (at most six
 * times), so a burst of payouts is not all refused while the day has room. A reservation is removed
 * when this item certainly paid nothing (`nothingPaid`: a definite refusal before anything unclear
 * was sent, or the record found is another or an earlier payout), marked paid when the payout is
 * made, and kept when the outcome is unknown: it counts against its day until a later run of the
 * reference or a person settles it (docs/agent.md). Every failure to reach or read the ledger
 * refuses the payout: a set maximum is never "no maximum".
 *
 * Payout > Prepare reads the rows of the day n8n's clock is in, reserving nothing, for the figures
 * its summary states (`dayBeforeApproval`); scope, sum, figures and refusals are this file's, for both.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { credentialsFor } from '../transport/transport';
import {
	createdAtOf,
	deleteRow,
	insertStampedRow,
	LEDGER_TIMEOUT_MS,
	LedgerProblem,
	ledgerOf,
	ledgerTime,
	rowsWhere,
	updateRow,
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

export const RESERVED = 'reserved';
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
	const rows = await rowsWhere(ledger, { scope, reference });
	const amounts = rows.map(centavosOf);
	const paid = rows.find((row) => row.state === PAID);
	if (paid) return paid;
	const largest = Math.max(...amounts);
	return rows.find((_row, index) => amounts[index] === largest);
}

/** Removes a reservation while it is one; one that cannot be removed stays, counting against the day. */
async function release(ledger: Ledger, id: number): Promise<boolean> {
	return 'answer' in (await outcomeOf(deleteRow(ledger, id, { state: RESERVED })));
}

/** Reservations tried when the day is over only because of other payouts still being decided. */
const RESERVE_ATTEMPTS = 6;
const RETRY_PAUSE_MS = 150;

interface Reservation {
	ledger: Ledger;
	id: number;
	/** The day n8n's clock put the reservation in, in the node's time zone: the day it counts in. */
	day: string;
	/** The day's centavos, reserved or paid, this reservation included. */
	total: number;
	/** The same without the other payouts still reserved: what the day holds for certain. */
	settled: number;
}

/**
 * Steps 1 and 2: the payout's row written, then the rows of its day read and added up. The day is
 * the one n8n's clock gives the row (`createdAt`), never this process's clock.
 */
async function reserve(
	run: RunContext,
	cap: DailyCap,
	reference: string,
	centavos: number,
): Promise<Reservation> {
	const ledger = await runLedger(run);
	const scope = await scopeOf(run);
	const { id, createdAt } = await insertStampedRow(ledger, {
		// A label for a person reading the table until the row is settled with n8n's day; never counted.
		day: dayIn(cap.timeZone, new Date()),
		scope,
		reference,
		centavos,
		state: RESERVED,
	});
	const day = dayIn(cap.timeZone, new Date(createdAt));
	const known = countedDayOf(run, scope, cap.timeZone, day);
	known.own.push({ id, createdAt });
	const counted = await outcomeOf(
		dayRows(ledger, scope, cap.timeZone, day, known.upToId).then((rows) => {
			// The reservation must be among the rows read: a read that misses it cannot be trusted.
			if (!rows.some((row) => row.id === id))
				throw new LedgerProblem('reading the payout ledger did not give back the row just written');
			const total = countWith(known, rows);
			const settled = countWith(
				known,
				rows.filter((row) => row.state !== RESERVED || row.id === id),
			);
			settle(known, rows, createdAt);
			return { total, settled };
		}),
	);
	if ('failure' in counted) {
		const removed = await release(ledger, id);
		throw new LedgerProblem(
			`${(counted.failure as Error).message}${removed ? '' : ' (its reservation could not be removed and counts against the day until a person removes it)'}`,
		);
	}
	return { ledger, id, day, ...counted.answer };
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
	const counted = await outcomeOf(
		dayRows(ledger, await scopeOf(run), cap.timeZone, day).then(sumOf),
	);
	if ('failure' in counted) throw ledgerRefusal(run, itemIndex, counted.failure, 'sent');
	const paid = await outcomeOf(pay());
	if ('failure' in paid) {
		if (row.state === RESERVED && marked(paid.failure, REFUSED_OUTRIGHT)) await release(ledger, id);
		throw paid.failure;
	}
	if (row.state === RESERVED)
		await outcomeOf(updateRow(ledger, id, { state: PAID, day }, { state: RESERVED }));
	return { ...paid.answer, dailyTotal: dailyTotalOf(cap, day, counted.answer, counted.answer) };
}

/**
 * Sends the payout (`pay`) only when its amount fits in the day's maximum, reserved in the ledger
 * first; the output carries the day's figures (`dailyTotal`).
 */
export async function withinDailyCap(
	run: RunContext,
	itemIndex: number,
	cap: DailyCap,
	intent: MoneyIntent,
	pay: () => Promise<IDataObject>,
): Promise<IDataObject> {
	const centavos = toCentavos(intent.amount);
	const earlier = await outcomeOf(
		runLedger(run).then(async (ledger) =>
			rowOfReference(ledger, await scopeOf(run), intent.referenceNo),
		),
	);
	if ('failure' in earlier) throw ledgerRefusal(run, itemIndex, earlier.failure, 'sent');
	if (earlier.answer) return await payUnderRow(run, itemIndex, cap, intent, earlier.answer, pay);
	let reserved: Reservation | undefined;
	let removed = true;
	for (let attempt = 1; attempt <= RESERVE_ATTEMPTS; attempt++) {
		const tried = await outcomeOf(reserve(run, cap, intent.referenceNo, centavos));
		if ('failure' in tried) throw ledgerRefusal(run, itemIndex, tried.failure, 'sent');
		reserved = tried.answer;
		if (reserved.total <= cap.maximumCentavos) break;
		removed = await release(reserved.ledger, reserved.id);
		// Over only because of payouts still being decided: each may give its amount back, so try
		// again after a random pause (two that counted each other then rarely meet again).
		if (!removed || reserved.settled > cap.maximumCentavos || attempt === RESERVE_ATTEMPTS) break;
		await sleep(RETRY_PAUSE_MS * attempt * (0.5 + Math.random()));
	}
	const { ledger, id, day, total } = reserved!;
	/** The day's figures on the output, with `counted` the centavos the day holds after this item. */
	const dailyTotal = (counted: number) => dailyTotalOf(cap, day, total - centavos, counted);
	if (total > cap.maximumCentavos) {
		throw overTheCap(
			run,
			itemIndex,
			cap,
			day,
			centavos,
			total,
			'sent',
			removed
				? ''
				: ' The reservation of this payout could not be removed from the ledger and counts against the day until a person removes it.',
		);
	}
	const paid = await outcomeOf(pay());
	if ('failure' in paid) {
		// Nothing paid: the day gets the amount back. Otherwise the outcome is unknown: the row stays
		// reserved, in its day, until a later run of the reference settles it or a person who checked
		// the payout (Payout > Get or Reconcile, which touch no ledger) removes or marks it.
		if (marked(paid.failure, NOTHING_PAID)) await release(ledger, id);
		else await outcomeOf(updateRow(ledger, id, { day }, { state: RESERVED }));
		throw paid.failure;
	}
	const output = paid.answer;
	if (output.replayed === true) {
		// A payout made before this item, with no row of its own: this item added nothing to the day.
		await release(ledger, id);
		return { ...output, dailyTotal: dailyTotal(total - centavos) };
	}
	// Marking it paid tells a person reading the ledger, and a later run of the reference.
	await outcomeOf(updateRow(ledger, id, { state: PAID, day }, { state: RESERVED }));
	return { ...output, dailyTotal: dailyTotal(total) };
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
