/**
 * Maximum Total per Day: the payouts one credential sends in one day (in the chosen time zone) never
 * add up to more than the maximum, across executions, restarts and queue-mode workers. n8n gives a
 * community node no atomic counter, so the ledger (an n8n Data Table, transport/ledger.ts) is used
 * the one way that stays safe with many writers: reserve, then read, then keep.
 *
 * 1. The payout's amount is written to the ledger as a reservation (a row of its own).
 * 2. The day's rows are read, this reservation among them, and summed in centavos.
 * 3. Within the maximum: the payout is sent. Over it: the reservation is removed and the payout
 *    refused, with nothing sent.
 *
 * Two payouts near the maximum may both count each other's reservation; they are never both paid,
 * because whichever reads second sees both rows. Over the maximum only because of reservations
 * still being decided, a payout removes its row and tries again after a random pause (at most six
 * times), so a burst of payouts is not all refused while the day has room. A reservation is removed when
 * nothing was paid (the service refused, or the record found is an earlier payout), marked paid
 * when the payout is made, and kept when the outcome is unknown: it then counts against the day
 * until a person removes it (docs/agent.md). Every failure to reach or read the ledger refuses the
 * payout: a set maximum is never "no maximum".
 *
 * Payout > Prepare reads the same rows, reserving nothing, for the figures its summary states
 * (`dayBeforeApproval`); scope, sum, figures and refusals are this file's, for both.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { credentialsFor } from '../transport/transport';
import {
	deleteRow,
	insertRow,
	LedgerProblem,
	ledgerOf,
	rowsWhere,
	updateRow,
	type Ledger,
} from '../transport/ledger';
import { outcomeOf } from '../transport/outcome';
import { dayIn, DEFAULT_TIME_ZONE, readTimeZone, type DailyTotal } from '../validation/days';
import { formatPesos, readUrl, toCentavos } from '../validation/validation';
import { readOption, readSafetyLimit, type MoneyIntent } from './operation';
import type { RunContext } from './runContext';
import { quoted, stopRun } from './runStop';

export const RESERVED = 'reserved';
export const PAID = 'paid';

/** The maximum a day may hold, and the time zone its day turns in. */
export interface DailyCap {
	maximumCentavos: number;
	timeZone: string;
}

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

export function nothingPaid<E extends Error>(error: E): E {
	(error as E & { [NOTHING_PAID]?: true })[NOTHING_PAID] = true;
	return error;
}

function paidNothing(error: unknown): boolean {
	return !!error && typeof error === 'object' && NOTHING_PAID in error;
}

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

/** The centavos the day's rows hold, or why they cannot be counted (then nothing is sent). */
function sumOf(rows: IDataObject[]): number {
	let total = 0;
	for (const row of rows) {
		const centavos = row.centavos;
		if (typeof centavos !== 'number' || !Number.isSafeInteger(centavos) || centavos < 0)
			throw new LedgerProblem(
				`the payout ledger holds a row whose centavos (${quoted(centavos)}) is not a whole, non-negative number`,
			);
		total += centavos;
	}
	if (!Number.isSafeInteger(total))
		throw new LedgerProblem('the payout ledger holds more than can be counted');
	return total;
}

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

/** The day's rows of this credential's scope. */
async function dayRows(run: RunContext, day: string): Promise<IDataObject[]> {
	return await rowsWhere(await runLedger(run), { day, scope: await scopeOf(run) });
}

/** Removes a reservation; one that cannot be removed stays, counting against the day. */
async function release(ledger: Ledger, id: number): Promise<boolean> {
	return 'answer' in (await outcomeOf(deleteRow(ledger, id)));
}

/** Reservations tried when the day is over only because of other payouts still being decided. */
const RESERVE_ATTEMPTS = 6;
const RETRY_PAUSE_MS = 150;

interface Reservation {
	ledger: Ledger;
	id: number;
	/** The day's centavos, reserved or paid, this reservation included. */
	total: number;
	/** The same without the other payouts still reserved: what the day holds for certain. */
	settled: number;
}

/** Steps 1 and 2: the payout's row written, then the day's rows read and added up. */
async function reserve(
	run: RunContext,
	day: string,
	reference: string,
	centavos: number,
): Promise<Reservation> {
	const ledger = await runLedger(run);
	const scope = await scopeOf(run);
	const id = await insertRow(ledger, { day, scope, reference, centavos, state: RESERVED });
	const counted = await outcomeOf(
		dayRows(run, day).then((rows) => ({
			total: sumOf(rows),
			settled: sumOf(rows.filter((row) => row.state !== RESERVED || row.id === id)),
		})),
	);
	if ('failure' in counted) {
		const removed = await release(ledger, id);
		throw new LedgerProblem(
			`${(counted.failure as Error).message}${removed ? '' : ' (its reservation could not be removed and counts against the day until a person removes it)'}`,
		);
	}
	return { ledger, id, ...counted.answer };
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
	const day = dayIn(cap.timeZone, new Date());
	const centavos = toCentavos(intent.amount);
	let reserved: Reservation | undefined;
	let removed = true;
	for (let attempt = 1; attempt <= RESERVE_ATTEMPTS; attempt++) {
		const tried = await outcomeOf(reserve(run, day, intent.referenceNo, centavos));
		if ('failure' in tried) throw ledgerRefusal(run, itemIndex, tried.failure, 'sent');
		reserved = tried.answer;
		if (reserved.total <= cap.maximumCentavos) break;
		removed = await release(reserved.ledger, reserved.id);
		// Over only because of payouts still being decided: each may give its amount back, so try
		// again after a random pause (two that counted each other then rarely meet again).
		if (!removed || reserved.settled > cap.maximumCentavos || attempt === RESERVE_ATTEMPTS) break;
		await sleep(RETRY_PAUSE_MS * attempt * (0.5 + Math.random()));
	}
	const { ledger, id, total } = reserved!;
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
		// Nothing paid: the day gets the amount back. Otherwise the outcome is unknown: it stays.
		if (paidNothing(paid.failure)) await release(ledger, id);
		throw paid.failure;
	}
	const output = paid.answer;
	if (output.replayed === true) {
		// An earlier payout: this item added nothing to the day.
		await release(ledger, id);
		return { ...output, dailyTotal: dailyTotal(total - centavos) };
	}
	// Marking it paid only tells a person reading the ledger; a reservation counts the same.
	await outcomeOf(updateRow(ledger, id, { state: PAID }));
	return { ...output, dailyTotal: dailyTotal(total) };
}

/**
 * Payout > Prepare's figures for the day of a payout a person is to approve: the day's rows are read
 * and added up, nothing is reserved (Prepare sends nothing). They are advisory: Confirm reserves
 * and counts again when it sends. A payout that alone would bring the day above the maximum, and a
 * ledger that cannot be read, are refused with nothing prepared, in Confirm's words.
 */
export async function dayBeforeApproval(
	run: RunContext,
	itemIndex: number,
	cap: DailyCap,
	intent: MoneyIntent,
): Promise<DailyTotal> {
	const day = dayIn(cap.timeZone, new Date());
	const centavos = toCentavos(intent.amount);
	const counted = await outcomeOf(dayRows(run, day).then(sumOf));
	if ('failure' in counted) throw ledgerRefusal(run, itemIndex, counted.failure, 'prepared');
	const total = counted.answer + centavos;
	if (total > cap.maximumCentavos)
		throw overTheCap(run, itemIndex, cap, day, centavos, total, 'prepared');
	return dailyTotalOf(cap, day, counted.answer, total);
}
