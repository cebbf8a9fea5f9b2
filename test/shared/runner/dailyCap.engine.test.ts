/**
 * Maximum Total per Day (nodes/shared/runner/dailyCap.ts), through n8n's engine against the sandbox
 * gateway, with the ledger in a local n8n Data Table API: reserve, then read, then keep. A payout
 * within the day's maximum is paid and its reservation marked paid; one over it is refused with
 * nothing sent and leaves no reservation; a definite refusal and a replay give the amount back; an
 * unknown outcome keeps it; a ledger that cannot be reached or read refuses every payout.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Disbursement } from '../../../nodes/Disbursement/Disbursement.node';
import { STALE_RESERVATION_MS } from '../../../nodes/shared/runner/dailyCap';
import { LEDGER_TIMEOUT_MS } from '../../../nodes/shared/transport/ledger';
import { dayIn } from '../../../nodes/shared/validation/days';
import { freshStart, gatewayPerSuite, jsonOf, run } from '../../harness/disbursementRuns';
import {
	cappedPayout,
	confirmWithLedger,
	ledgerRows,
	otherLedgerCredential,
	payWithLedger,
	prepareWithLedger,
	setUpWithLedger,
	today,
	updateLedgerRows,
	writeLedgerRows,
	type LedgerSetup,
} from '../../harness/ledgerRuns';
import { PAYOUT_PROCESS, PAYOUT_PROCESS_KEY } from '../../harness/servicePaths';
import { askTool } from '../../harness/toolRuns';

const s = gatewayPerSuite(setUpWithLedger, {
	beforeEach: (setup) => {
		freshStart(setup);
		(setup as LedgerSetup).ledger.clear();
	},
}) as LedgerSetup;
afterAll(async () => await s.ledger.close());

let counter = 0;
const ref = (label: string) => `DAY-${label}-${++counter}`;
const row = (reference: string, amount: number) => ({
	ref: reference,
	amount,
	mobile: '09171234567',
});
const sent = () => s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0;
const created = (reference: string) => s.gw.stats().creationsByReference[reference] ?? 0;
/** Payouts the service made (a request refused for an expired token is not one). */
const payoutsMade = () =>
	Object.values(s.gw.stats().creationsByReference).reduce((sum, count) => sum + count, 0);

/** This process's clock (a worker's) held at `instant`; timers keep running as they do. */
function holdDateAt(instant: number): void {
	jest.useFakeTimers({
		now: instant,
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
	jest.setSystemTime(instant);
}

/** One payout of `amount` under a daily `maximum`, failures as items: its output item. */
const payOne = async (
	maximum: string,
	reference: string,
	amount: number,
	options: IDataObject = {},
): Promise<IDataObject> =>
	jsonOf(
		await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: maximum, ...options }),
			[row(reference, amount)],
			{ onError: 'continueRegularOutput' },
		),
	)[0];

/** A payout of PHP 1,000 on a channel the service refuses outright (a 422 naming it). */
const payOnNope = async (reference: string): Promise<IDataObject> =>
	jsonOf(
		await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000' }),
			[{ ...row(reference, 1000), channel: 'NOPE' }],
			{ onError: 'continueRegularOutput' },
		),
	)[0];

/** Rows written before this run: an earlier execution's payouts of the day. */
const earlier = async (rows: Parameters<typeof writeLedgerRows>[1]) =>
	await writeLedgerRows(s, rows);

describe('within the maximum', () => {
	test('paid, its reservation marked paid, and the day stated on the item', async () => {
		const reference = ref('WITHIN');
		const result = await payWithLedger(s, cappedPayout({ maxTotalPerDay: '5000' }), [
			row(reference, 1000),
		]);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			reference_no: reference,
			replayed: false,
			dailyTotal: {
				day: today(),
				timeZone: 'Asia/Manila',
				maximum: 5000,
				totalBefore: 0,
				total: 1000,
				remaining: 4000,
			},
		});
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'paid' }]);
		expect(created(reference)).toBe(1);
	});

	test('the reference is looked for, then the reservation written and read back, before the payout is sent', async () => {
		const reference = ref('ORDER');
		await payWithLedger(s, cappedPayout({ maxTotalPerDay: '5000' }), [row(reference, 100)]);
		const calls = s.ledger.requests.map((request) => request.method);
		expect(calls.slice(0, 3)).toEqual(['GET', 'POST', 'GET']);
		expect(created(reference)).toBe(1);
	});
});

describe('over the maximum', () => {
	test('refused with nothing sent, naming the day, its total and the maximum; no reservation left', async () => {
		await earlier([{ centavos: 300000 }, { centavos: 150000, state: 'reserved' }]);
		const reference = ref('OVER');
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000' }),
			[row(reference, 1000)],
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(result)[0].error).toBe(
			`Refused: this payout of PHP 1,000.00 would bring the total of ${today()} (Asia/Manila) to PHP 5,500.00, above the Maximum Total per Day of PHP 5,000.00, so nothing was sent (row 1)`,
		);
		expect(String(jsonOf(result)[0].errorDetails)).toMatch(
			/so far, reserved or paid, add up to PHP 4,500.00, so PHP 500.00 is left for today\./,
		);
		expect(sent()).toBe(0);
		expect(ledgerRows(s).map((entry) => entry.reference)).toEqual(['EARLIER-0', 'EARLIER-1']);
	});

	test('exactly at the maximum is within it', async () => {
		await earlier([{ centavos: 400000 }]);
		const reference = ref('EXACT');
		const result = await payWithLedger(s, cappedPayout({ maxTotalPerDay: '5000' }), [
			row(reference, 1000),
		]);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].dailyTotal).toMatchObject({ total: 5000, remaining: 0 });
	});

	test('20 rows of PHP 1,000 at concurrency 8 against PHP 5,000: at most 5 paid, and the ledger holds what was paid', async () => {
		const rows = Array.from({ length: 20 }, () => row(ref('MANY'), 1000));
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000', concurrency: 8 }),
			rows,
			{ onError: 'continueRegularOutput' },
		);
		const items = jsonOf(result);
		const paid = items.filter((item) => item.error === undefined);
		const refused = items.filter((item) => /Maximum Total per Day/.test(String(item.error)));
		expect(paid.length + refused.length).toBe(20);
		expect(paid.length).toBeGreaterThanOrEqual(1);
		expect(paid.length).toBeLessThanOrEqual(5);
		const kept = ledgerRows(s);
		expect(kept.map((entry) => entry.reference).sort()).toEqual(
			paid.map((item) => item.reference_no).sort(),
		);
		expect(kept.every((entry) => entry.state === 'paid' && entry.centavos === 100000)).toBe(true);
		expect(sent()).toBe(paid.length);
	});
});

describe('a day of more than one page of rows', () => {
	test('every row counted, also when a row of the first page is removed before the next is read', async () => {
		// 300 earlier rows: the first 250 of PHP 1 each (one page), then PHP 1,000, then 49 of PHP 1.
		await earlier([
			...Array.from({ length: 250 }, () => ({ centavos: 100 })),
			{ centavos: 100000 },
			...Array.from({ length: 49 }, () => ({ centavos: 100 })),
		]);
		// Between the two pages another payout gives its PHP 1 back (the first row is removed): the
		// day holds PHP 1,298 then, and a payout of PHP 250 would bring it to PHP 1,548.
		// The reference's read and the day's first page pass; the second page sees the removal.
		s.ledger.failNext(2, { method: 'GET' });
		s.ledger.failNext(1, {
			method: 'GET',
			before: () => s.ledger.removeRows((row) => row.reference === 'EARLIER-0'),
		});
		expect(String((await payOne('1500', ref('PAGES'), 250)).error)).toMatch(
			/would bring the total of .* to PHP 1,549\.00, above the Maximum Total per Day of PHP 1,500\.00, so nothing was sent/,
		);
		expect(sent()).toBe(0);
		const reads = s.ledger.requests.filter((request) => request.method === 'GET');
		expect(reads.length).toBeGreaterThanOrEqual(2);
	});
});

describe('a day read in order, also where n8n answers in physical order', () => {
	test('300 paid rows (PHP 9,000), the first 50 marked paid last: the day reads PHP 9,000 and a PHP 2,000 payout under PHP 10,000 is refused', async () => {
		// A Postgres query without ORDER BY: rows 51-300 come first, rows 1-50 behind them.
		s.ledger.answerUnordered(true);
		await earlier(Array.from({ length: 300 }, () => ({ centavos: 3000, state: 'reserved' })));
		await updateLedgerRows(s, [{ columnName: 'id', condition: 'gt', value: 50 }], {
			state: 'paid',
		});
		await updateLedgerRows(s, [{ columnName: 'state', condition: 'eq', value: 'reserved' }], {
			state: 'paid',
		});
		const held = s.ledger.rows().reduce((sum, entry) => sum + Number(entry.centavos), 0);
		expect(held).toBe(900000);
		expect(String((await payOne('10000', ref('ORDERED'), 2000)).error)).toMatch(
			/would bring the total of .* to PHP 11,000\.00, above the Maximum Total per Day of PHP 10,000\.00, so nothing was sent/,
		);
		expect(sent()).toBe(0);
		const reads = s.ledger.requests.filter((request) => request.method === 'GET');
		expect(reads.every((request) => request.query.sortBy === 'id:asc')).toBe(true);
	});
});

describe("one clock: the day is the day n8n created the reservation in, in the node's time zone", () => {
	const manila = (text: string) => Date.parse(`${text}+08:00`);
	const DAY = '2026-12-01';
	const NEXT = '2026-12-02';
	/** This process's clock (the worker's) and n8n's, each set to an instant and held there. */
	const clocks = (worker: number, n8n = worker) => {
		holdDateAt(worker);
		s.ledger.setClockOffset(n8n - worker);
	};
	afterEach(() => jest.useRealTimers());
	const pay = async (reference: string, amount: number, options: IDataObject = {}) =>
		await payOne('5000', reference, amount, options);

	test('two nodes on one credential, Asia/Manila and UTC, at 02:30 in Manila: each stays within PHP 5,000 over its own day', async () => {
		clocks(manila(`${DAY}T02:30:00`));
		const inManila = await pay(ref('ZONES'), 4000, { dayTimeZone: 'Asia/Manila' });
		expect(inManila).toMatchObject({ replayed: false, dailyTotal: { day: DAY, total: 4000 } });
		// 02:30 in Manila is 18:30 UTC of the day before: the same instant is in UTC's day too.
		const inUtc = await pay(ref('ZONES'), 4000, { dayTimeZone: 'UTC' });
		expect(String(inUtc.error)).toMatch(
			/would bring the total of 2026-11-30 \(UTC\) to PHP 8,000\.00, above the Maximum Total per Day of PHP 5,000\.00, so nothing was sent/,
		);
		expect(payoutsMade()).toBe(1);
	});

	test("a worker whose clock is 10 minutes fast: a payout at 23:55 by n8n's clock counts in that day, not the next", async () => {
		clocks(manila(`${DAY}T23:48:00`));
		expect(await pay(ref('FAST'), 4000)).toMatchObject({ dailyTotal: { day: DAY } });
		clocks(manila(`${NEXT}T00:05:00`), manila(`${DAY}T23:55:00`));
		const late = await pay(ref('FAST'), 4000);
		expect(String(late.error)).toMatch(
			new RegExp(`would bring the total of ${DAY} \\(Asia/Manila\\) to PHP 8,000\\.00, above`),
		);
		expect(payoutsMade()).toBe(1);
	});

	test("midnight both ways by n8n's clock (the worker 10 s fast): 23:59:59 counts in its day, 00:00:00 starts the next", async () => {
		clocks(manila(`${DAY}T23:59:59`) + 10_000, manila(`${DAY}T23:59:59`));
		expect(await pay(ref('MIDNIGHT'), 4000)).toMatchObject({
			dailyTotal: { day: DAY, totalBefore: 0, total: 4000 },
		});
		clocks(manila(`${NEXT}T00:00:00`) + 10_000, manila(`${NEXT}T00:00:00`));
		expect(await pay(ref('MIDNIGHT'), 4000)).toMatchObject({
			dailyTotal: { day: NEXT, totalBefore: 0, total: 4000 },
		});
		clocks(manila(`${NEXT}T00:00:01`) + 10_000, manila(`${NEXT}T00:00:01`));
		expect(String((await pay(ref('MIDNIGHT'), 2000)).error)).toMatch(
			new RegExp(`total of ${NEXT} \\(Asia/Manila\\) to PHP 6,000\\.00, above`),
		);
		expect(payoutsMade()).toBe(2);
		expect(ledgerRows(s, DAY)).toEqual([expect.objectContaining({ centavos: 400000 })]);
		expect(ledgerRows(s, NEXT)).toEqual([expect.objectContaining({ centavos: 400000 })]);
	});

	test.each([
		['as SQLite keeps it (YYYY-MM-DD HH:MM:SS.SSS, UTC)', '2026-12-01 15:59:59.000', DAY],
		['as ISO text', '2026-12-01T16:00:00.000Z', NEXT],
	])("n8n's createdAt %s decides the day", async (_case, createdAt, day) => {
		clocks(Date.parse(`${createdAt.replace(' ', 'T').replace(/Z?$/, 'Z')}`));
		s.ledger.failNext(1, {
			method: 'POST',
			afterApply: true,
			status: 200,
			body: [{ id: 1, createdAt }],
		});
		expect(await pay(ref('STAMP'), 1000)).toMatchObject({ dailyTotal: { day } });
	});

	test('an insert answered without a time of n8n refuses the payout, nothing sent', async () => {
		s.ledger.failNext(1, { method: 'POST', status: 200, body: [{ id: 1 }] });
		expect(String((await pay(ref('NOSTAMP'), 1000)).error)).toMatch(
			/Writing to the payout ledger gave no time n8n created the row at \(createdAt\), so nothing was sent/,
		);
		expect(payoutsMade()).toBe(0);
	});

	test("Prepare states the day n8n's clock is in (the worker 10 s fast at 23:59:59), counting the rows created in it", async () => {
		clocks(manila(`${DAY}T23:59:59`) + 10_000, manila(`${DAY}T23:59:59`));
		await earlier([{ centavos: 100000, createdAt: manila(`${DAY}T23:59:58`) }]);
		await earlier([{ centavos: 200000, createdAt: manila(`${DAY}T00:00:00`) - 1000 }]);
		const result = await prepareWithLedger(s, { maxTotalPerDay: '5000' }, [
			row(ref('PREPARE-CLOCK'), 1000),
		]);
		expect(jsonOf(result)[0].dailyTotal).toMatchObject({ day: DAY, totalBefore: 1000 });
	});
});

describe('what happens to a reservation', () => {
	test('a definite refusal of the service gives the amount back', async () => {
		const reference = ref('REFUSED');
		expect(String((await payOnNope(reference)).error)).toMatch(/NOPE/);
		expect(ledgerRows(s)).toEqual([]);
	});

	test('a replay gives the amount back: the day counts the payout once', async () => {
		const reference = ref('REPLAY');
		const parameters = cappedPayout({ maxTotalPerDay: '5000' });
		expect((await payWithLedger(s, parameters, [row(reference, 1000)])).error).toBeUndefined();
		const again = await payWithLedger(s, parameters, [row(reference, 1000)]);
		expect(jsonOf(again)[0]).toMatchObject({
			replayed: true,
			dailyTotal: { total: 1000, remaining: 4000 },
		});
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'paid' }]);
		expect(created(reference)).toBe(1);
	});

	test('an unknown outcome keeps the reservation: the day counts it', async () => {
		const reference = ref('UNKNOWN');
		s.gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, mode: 'drop-after', times: 1 });
		s.gw.faults.add({
			method: 'GET',
			path: '/v1/api/disbursement/transactions',
			mode: 'error-before',
			status: 503,
		});
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000' }),
			[row(reference, 1000)],
			{ onError: 'continueRegularOutput' },
		);
		expect(String(jsonOf(result)[0].error)).toMatch(/Could not confirm whether the payout/);
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'sending' }]);
	});
});

describe('what a day costs: a run reads each row of its day about once', () => {
	afterEach(() => jest.useRealTimers());

	test("101 payouts of PHP 1, n8n's clock 30 s on per reservation, on a day holding PHP 4,900 under PHP 5,000: 100 paid, the 101st refused at PHP 5,001, each row read about once", async () => {
		// Held at 01:00 in Manila, so the run's 50 minutes by n8n's clock stay in one day.
		const start = Date.parse('2026-12-01T01:00:00+08:00');
		holdDateAt(start);
		await earlier(Array.from({ length: 49 }, () => ({ centavos: 10000 })));
		let offset = 0;
		s.ledger.failNext(200, {
			method: 'POST',
			before: () => s.ledger.setClockOffset((offset += 30_000)),
		});
		const rows = Array.from({ length: 101 }, () => row(ref('COST'), 1));
		const items = jsonOf(
			await payWithLedger(s, cappedPayout({ maxTotalPerDay: '5000', concurrency: 1 }), rows, {
				onError: 'continueRegularOutput',
			}),
		);
		expect(items.slice(0, 100).every((item) => item.error === undefined)).toBe(true);
		expect(items[99].dailyTotal).toMatchObject({ day: '2026-12-01', total: 5000, remaining: 0 });
		expect(String(items[100].error)).toMatch(
			/to PHP 5,001\.00, above the Maximum Total per Day of PHP 5,000\.00, so nothing was sent/,
		);
		const rowsRead = s.ledger.requests.reduce(
			(sum, request) => sum + (request.rowsAnswered ?? 0),
			0,
		);
		// Without the run's count every payout reads the whole day: about 101 x 100 rows.
		expect(rowsRead).toBeLessThan(101 * 5);
		expect(created(String(rows[0].ref))).toBe(1);
	}, 120_000);
});

describe('an unknown outcome keeps its reservation, and a later run of the reference settles it', () => {
	const LOOKUP = '/v1/api/disbursement/transactions';
	/** The next `times` creates answer 504: `error-after` once the service made the payout. */
	const createsAnswer504 = (mode: 'error-before' | 'error-after', times: number) =>
		s.gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, mode, status: 504, times });
	/** The next `times` look-ups answer that nothing is there, whatever the service holds. */
	const lookUpsFindNothing = (times: number) =>
		s.gw.faults.add({
			method: 'GET',
			path: LOOKUP,
			mode: 'error-before',
			status: 200,
			body: { data: [] },
			times,
		});

	/**
	 * An item whose outcome is not known (`what` happened): it says the payout may still be made,
	 * never that nothing was, and tells the person to check it, keep the reference_no, and that
	 * its amount stays counted in the ledger until a run of that reference settles it.
	 */
	const expectOutcomeUnknown = (item: IDataObject, reference: string, what: string) => {
		const error = String(item.error);
		const whatToDo = String(item.errorDetails);
		expect(
			error.startsWith(`The outcome of the payout "${reference}" is not known yet: ${what}. `),
		).toBe(true);
		expect(error).toContain(
			'No payout was found under this reference_no so far, but the service may still complete it.',
		);
		expect(whatToDo).toContain('Check it with Payout > Get or Payout > Reconcile');
		expect(whatToDo).toContain(
			'To try again, use the same reference_no: a run with it finds the payout or sends it once, while a new reference_no could pay twice.',
		);
		expect(whatToDo).toContain(
			'Its amount stays counted toward Maximum Total per Day in the Payout Ledger until a run with the same reference_no settles it',
		);
		for (const text of [error, whatToDo])
			expect(text).not.toMatch(
				/not created|nothing was created|safe to reuse|no payout exists|new reference_no,/i,
			);
	};

	test('every create answered 504, the look-ups find nothing, the service completes it later: the row is kept, the day counts it, and a later run of the reference marks it paid', async () => {
		const reference = ref('LATE');
		createsAnswer504('error-before', 2);
		// The last attempt is taken by the service, which still answers 504 and is not yet found.
		createsAnswer504('error-after', 1);
		lookUpsFindNothing(3);
		const first = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000' }),
			[row(reference, 1000)],
			{
				onError: 'continueRegularOutput',
			},
		);
		// The service made it: the item must not say it was not made.
		expectOutcomeUnknown(jsonOf(first)[0], reference, 'none of 3 attempts got a clear answer');
		expect(created(reference)).toBe(1);
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'sending' }]);
		// The day counts the payout the service made: PHP 4,500 more does not fit under PHP 5,000.
		const next = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000' }),
			[row(ref('LATE'), 4500)],
			{
				onError: 'continueRegularOutput',
			},
		);
		expect(String(jsonOf(next)[0].error)).toMatch(
			/to PHP 5,500\.00, above the Maximum Total per Day/,
		);
		// A later run of the same reference finds the payout: its row is marked paid, nothing new reserved.
		const again = await payWithLedger(s, cappedPayout({ maxTotalPerDay: '5000' }), [
			row(reference, 1000),
		]);
		expect(jsonOf(again)[0]).toMatchObject({
			reference_no: reference,
			replayed: true,
			dailyTotal: { total: 1000 },
		});
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'paid' }]);
		expect(created(reference)).toBe(1);
	});

	test('a kept row is released when a later run of the reference is refused outright by the service', async () => {
		const reference = ref('KEPT');
		s.gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, mode: 'drop-before', times: 1 });
		s.gw.faults.add({ method: 'GET', path: LOOKUP, mode: 'error-before', status: 503 });
		const first = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000' }),
			[row(reference, 1000)],
			{
				onError: 'continueRegularOutput',
			},
		);
		expect(String(jsonOf(first)[0].error)).toMatch(/Could not confirm whether the payout/);
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'sending' }]);
		s.gw.faults.clear();
		expect(String((await payOnNope(reference)).error)).toMatch(/NOPE/);
		expect(ledgerRows(s)).toEqual([]);
		expect(created(reference)).toBe(0);
	});

	test('a 2xx that confirms nothing, then a look-up that finds nothing: the reservation is kept', async () => {
		const reference = ref('UNCONFIRMED');
		s.gw.faults.add({
			method: 'POST',
			path: PAYOUT_PROCESS,
			mode: 'error-before',
			status: 200,
			body: { data: null },
			times: 1,
		});
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000' }),
			[row(reference, 1000)],
			{
				onError: 'continueRegularOutput',
			},
		);
		expectOutcomeUnknown(
			jsonOf(result)[0],
			reference,
			'the service answered without confirming it (no record in the answer)',
		);
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'sending' }]);
	});

	test('an answer lost after the service made it, then "reference_no already taken" with nothing found: not known, keep the reference, the row is kept', async () => {
		const reference = ref('TAKEN');
		createsAnswer504('error-after', 1);
		lookUpsFindNothing(2);
		// The taken reference is this item's own payout: a new reference_no would pay it twice.
		expectOutcomeUnknown(
			await payOne('5000', reference, 1000),
			reference,
			'an attempt got no clear answer, then the service said this reference_no is already used',
		);
		expect(created(reference)).toBe(1);
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'sending' }]);
	});
});

describe('one reference, one row: a re-run is answered with its payout, never refused as over the day', () => {
	test('PHP 3,000 paid today under R, run again under PHP 5,000: replayed, nothing reserved, nothing refused', async () => {
		const reference = ref('RERUN');
		const parameters = cappedPayout({ maxTotalPerDay: '5000' });
		expect((await payWithLedger(s, parameters, [row(reference, 3000)])).error).toBeUndefined();
		const inserts = () => s.ledger.requests.filter((request) => request.method === 'POST').length;
		const before = inserts();
		const again = await payWithLedger(s, parameters, [row(reference, 3000)], {
			onError: 'continueRegularOutput',
		});
		expect(jsonOf(again)[0]).toMatchObject({
			reference_no: reference,
			replayed: true,
			dailyTotal: { totalBefore: 3000, total: 3000, remaining: 2000 },
		});
		expect(jsonOf(again)[0].error).toBeUndefined();
		expect(inserts()).toBe(before);
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 300000, state: 'paid' }]);
		expect(created(reference)).toBe(1);
	});

	test('a payout made on an earlier day, run again on a full day: replayed, nothing sent, nothing reserved', async () => {
		const reference = ref('YESTERDAY');
		const parameters = cappedPayout({ maxTotalPerDay: '5000' });
		const yesterday = Date.now() - 86_400_000;
		s.ledger.setClockOffset(yesterday - Date.now());
		expect((await payWithLedger(s, parameters, [row(reference, 3000)])).error).toBeUndefined();
		s.ledger.setClockOffset(0);
		await earlier([{ centavos: 500000 }]);
		const again = await payWithLedger(s, parameters, [row(reference, 3000)], {
			onError: 'continueRegularOutput',
		});
		expect(jsonOf(again)[0]).toMatchObject({
			replayed: true,
			dailyTotal: { day: dayIn('Asia/Manila', new Date(yesterday)), total: 3000 },
		});
		expect(created(reference)).toBe(1);
		expect(ledgerRows(s, today()).map((entry) => entry.reference)).toEqual(['EARLIER-0']);
	});

	test('a re-run asking more than the reference holds is refused, saying what the row holds', async () => {
		const reference = ref('MORE');
		const parameters = cappedPayout({ maxTotalPerDay: '5000' });
		expect((await payWithLedger(s, parameters, [row(reference, 1000)])).error).toBeUndefined();
		const more = await payWithLedger(s, parameters, [row(reference, 2000)], {
			onError: 'continueRegularOutput',
		});
		expect(String(jsonOf(more)[0].error)).toMatch(
			/reference_no "DAY-MORE-\d+" already has a row in the payout ledger for PHP 1,000\.00 \(paid, .*\), less than this payout of PHP 2,000\.00, so nothing was sent/,
		);
		expect(created(reference)).toBe(1);
	});
});

describe('the day', () => {
	test("another day's rows do not count, and the row is written under the day of the chosen time zone", async () => {
		const zone = 'Pacific/Kiritimati';
		const yesterday = Date.now() - 86_400_000;
		await earlier([
			{ day: dayIn(zone, new Date(yesterday)), centavos: 500000, createdAt: yesterday },
		]);
		const reference = ref('ZONE');
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000', dayTimeZone: zone }),
			[row(reference, 1000)],
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].dailyTotal).toMatchObject({ day: today(zone), timeZone: zone });
		expect(ledgerRows(s, today(zone))).toEqual([{ reference, centavos: 100000, state: 'paid' }]);
	});

	test('another credential (another scope) does not count against this one', async () => {
		await earlier([{ scope: 'someone-else@example.com', centavos: 900000 }]);
		const result = await payWithLedger(s, cappedPayout({ maxTotalPerDay: '5000' }), [
			row(ref('SCOPE'), 1000),
		]);
		expect(result.error).toBeUndefined();
	});
});

describe('a set maximum is never "no maximum"', () => {
	const refusedWith = async (
		expected: RegExp,
		credentials = s.ledgerCredential,
		options: IDataObject = { maxTotalPerDay: '5000' },
	) => {
		const result = await payWithLedger(s, cappedPayout(options), [row(ref('CLOSED'), 1000)], {
			onError: 'continueRegularOutput',
			credentials,
		});
		expect(String(jsonOf(result)[0].error)).toMatch(expected);
		expect(String(jsonOf(result)[0].error)).toMatch(/so nothing was sent/);
		expect(sent()).toBe(0);
		return jsonOf(result)[0];
	};

	test('no Payout Ledger credential on the node', async () => {
		await refusedWith(/no Payout Ledger credential is selected on this node/, {});
	});

	test('an unreachable n8n', async () => {
		await refusedWith(
			/Reading the payout ledger failed: no complete answer came/,
			otherLedgerCredential(s, { apiUrl: 'http://127.0.0.1:9/api/v1' }),
		);
	});

	test('a wrong API key: refused, and the key never shown', async () => {
		const wrong = 'n8n_api_wrong-key-0123456789';
		const item = await refusedWith(
			/Reading the payout ledger failed: n8n answered HTTP 401 \(unauthorized\)/,
			otherLedgerCredential(s, { apiKey: wrong }),
		);
		expect(JSON.stringify(item)).not.toContain(wrong);
		expect(JSON.stringify(item)).not.toContain(s.ledger.apiKey);
	});

	test.each([
		['not a URL', 'n8n.example.com/api/v1', /n8n API URL is not a valid URL/],
		['holding a query', 'http://127.0.0.1:5678/api/v1?x=1', /n8n API URL must not contain a query/],
	])('an n8n API URL %s', async (_case, apiUrl, expected) => {
		await refusedWith(expected, otherLedgerCredential(s, { apiUrl }));
	});

	test('a Data Table ID that is not one', async () => {
		await refusedWith(
			/Data Table ID is not an n8n table ID/,
			otherLedgerCredential(s, { dataTableId: 'ledger' }),
		);
	});

	test('a read that answers without rows: refused, and the reservation removed', async () => {
		s.ledger.failNext(1, { method: 'GET', status: 200, body: { message: 'ok' } });
		await refusedWith(/Reading the payout ledger gave an answer without a list of rows/);
		expect(ledgerRows(s)).toEqual([]);
	});

	test('a row whose centavos cannot be counted: refused', async () => {
		await earlier([{ centavos: 100000 }]);
		s.ledger.failNext(1, {
			method: 'GET',
			status: 200,
			body: { data: [{ id: 1, centavos: 'a lot' }], nextCursor: null },
		});
		await refusedWith(/holds a row whose centavos \("a lot"\) is not a whole, non-negative number/);
	});

	test('a redirect is not followed: refused, and nothing asked where it points', async () => {
		s.ledger.failNext(1, { method: 'POST', status: 302, headers: { location: '/elsewhere' } });
		await refusedWith(/Writing to the payout ledger failed: n8n answered HTTP 302/);
		expect(s.ledger.requests.filter((request) => request.path.endsWith('/elsewhere'))).toEqual([]);
		expect(ledgerRows(s)).toEqual([]);
	});

	test('an answer larger than any ledger answer: refused', async () => {
		s.ledger.failNext(1, { method: 'POST', status: 200, body: 'x'.repeat(2 * 1024 * 1024) });
		await refusedWith(/Writing to the payout ledger failed: no complete answer came .*1 MiB/);
	});

	test('a read trickled a byte at a time: refused at the deadline, and the reservation removed', async () => {
		s.ledger.failNext(1, { method: 'GET' });
		s.ledger.failNext(1, { method: 'GET', trickleMs: 300 });
		const started = Date.now();
		await refusedWith(/Reading the payout ledger failed: no complete answer came/);
		expect(Date.now() - started).toBeLessThan(LEDGER_TIMEOUT_MS + 5_000);
		expect(ledgerRows(s)).toEqual([]);
	});

	test('a read that fails: refused, and the reservation removed', async () => {
		s.ledger.failNext(1, { method: 'GET', status: 500, body: { message: 'Internal error' } });
		await refusedWith(/Reading the payout ledger failed: n8n answered HTTP 500/);
		expect(ledgerRows(s)).toEqual([]);
	});

	test.each([
		['abc', /Maximum Total per Day is "abc", not a positive number: nothing was sent/],
		['20,000', /Maximum Total per Day is "20,000", not a positive number/],
		['', /Maximum Total per Day is empty, not a positive number/],
	])('Maximum Total per Day %j stops the node', async (maximum, expected) => {
		const result = await payWithLedger(s, cappedPayout({ maxTotalPerDay: maximum }), [
			row(ref('BADMAX'), 10),
		]);
		expect(result.error?.message).toMatch(expected);
		expect(sent()).toBe(0);
		expect(s.ledger.requests).toEqual([]);
	});

	test('a Day Time Zone that is not one stops the node', async () => {
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000', dayTimeZone: 'Manila' }),
			[row(ref('BADZONE'), 10)],
		);
		expect(result.error?.message).toMatch(
			/Day Time Zone is "Manila", not a time zone: nothing was sent/,
		);
		expect(sent()).toBe(0);
	});

	test('without Maximum Total per Day the ledger is never read', async () => {
		const result = await run(s, cappedPayout({}), {
			items: [row(ref('NOCAP'), 10)],
			typeVersion: 2,
		});
		expect(result.error).toBeUndefined();
		expect(s.ledger.requests).toEqual([]);
	});
});

describe('as a tool, and through Prepare and Confirm', () => {
	const toolPayout = (reference: string, amount: number): INodeParameters => ({
		...cappedPayout({ maxAmountPerPayout: '5000', maxTotalPerDay: '1500' }),
		channel: 'GCASH',
		amount,
		referenceNo: reference,
		mobileNumber: '09171234567',
		callbackWebhookUrl: '',
	});

	test('Create as a tool: within the maximum it pays; past it the refusal is the answer', async () => {
		const first = await askTool(s.store, new Disbursement(), toolPayout(ref('TOOL'), 1000));
		expect(first).toMatchObject({ replayed: false, dailyTotal: { total: 1000 } });
		const second = await askTool(s.store, new Disbursement(), toolPayout(ref('TOOL'), 1000));
		expect(second).toMatchObject({
			refused: true,
			error: expect.stringMatching(/above the Maximum Total per Day of PHP 1,500.00/),
		});
		expect(sent()).toBe(1);
	});

	test('Confirm: the day is checked when the approved payout is sent', async () => {
		await earlier([{ centavos: 450000 }]);
		const reference = ref('CONFIRM');
		const prepared = await run(
			s,
			{ ...cappedPayout({}), operation: 'prepare' },
			{ items: [row(reference, 1000)], typeVersion: 2 },
		);
		expect(prepared.error).toBeUndefined();
		const token = String(jsonOf(prepared)[0].approvalToken);
		const confirmed = await run(
			s,
			{
				resource: 'payout',
				operation: 'confirm',
				approvalToken: '={{ $json.token }}',
				options: { maxTotalPerDay: '5000' },
			},
			{
				items: [{ token }],
				typeVersion: 2,
				moreCredentials: s.ledgerCredential,
				onError: 'continueRegularOutput',
			},
		);
		expect(String(jsonOf(confirmed)[0].error)).toMatch(
			/would bring the total of .* to PHP 5,500.00, above the Maximum Total per Day of PHP 5,000.00/,
		);
		expect(sent()).toBe(0);
	});
});

describe("Prepare: the day's figures a person approves, read without reserving", () => {
	const DAY_CAP = { maxTotalPerDay: '5000' };
	/** The words Prepare's summary states of the day. */
	const dayInWords = (before: string, after: string, left: string, zone = 'Asia/Manila') =>
		`Today (${today(zone)}, ${zone}) so far PHP ${before} of PHP 5,000.00; after this payout PHP ${after}, ${left === '0.00' ? 'nothing' : `PHP ${left}`} left`;
	/** The ledger's requests before the node ran: the test's own rows. */
	let written = 0;
	beforeEach(() => (written = 0));
	const earlierRows = async (rows: Parameters<typeof writeLedgerRows>[1]) => {
		await earlier(rows);
		written = s.ledger.requests.length;
	};
	/** Prepare only read the ledger. */
	const onlyReads = () =>
		expect(s.ledger.requests.slice(written).map((request) => request.method)).not.toContainEqual(
			expect.not.stringMatching(/^GET$/),
		);

	test("the day's rows of this scope counted, reserved ones too; another day's and another scope's not; nothing reserved", async () => {
		const zone = 'Asia/Manila';
		const yesterday = Date.now() - 86_400_000;
		await earlierRows([
			{ centavos: 100000 },
			{ centavos: 50000, state: 'reserved' },
			{ day: dayIn(zone, new Date(yesterday)), centavos: 400000, createdAt: yesterday },
			{ scope: 'someone-else@example.com', centavos: 400000 },
		]);
		const reference = ref('PREPARE-DAY');
		const result = await prepareWithLedger(s, DAY_CAP, [row(reference, 1000)]);
		expect(result.error).toBeUndefined();
		const [out] = jsonOf(result);
		expect(out).toMatchObject({
			sent: false,
			reference_no: reference,
			dailyTotal: {
				day: today(),
				timeZone: 'Asia/Manila',
				maximum: 5000,
				totalBefore: 1500,
				total: 2500,
				remaining: 2500,
			},
		});
		expect(out.summary).toBe(
			`Pay PHP 1,000.00 to e-wallet mobile number 09171234567 on GCASH, reference ${reference} (Sandbox). ${dayInWords('1,500.00', '2,500.00', '2,500.00')}`,
		);
		expect(String(out.approvalToken).startsWith(`${String(out.summary)} [pa4.`)).toBe(true);
		onlyReads();
		expect(ledgerRows(s).map((entry) => entry.reference)).toEqual(['EARLIER-0', 'EARLIER-1']);
		expect(sent()).toBe(0);
	});

	test("the same figures as Confirm's output, with the day's figures of Confirm's own count", async () => {
		await earlierRows([{ centavos: 100000 }]);
		const reference = ref('PREPARE-THEN-CONFIRM');
		const [prepared] = jsonOf(await prepareWithLedger(s, DAY_CAP, [row(reference, 1000)]));
		const confirmed = await confirmWithLedger(s, DAY_CAP, [String(prepared.approvalToken)]);
		expect(confirmed.error).toBeUndefined();
		expect(jsonOf(confirmed)[0].dailyTotal).toEqual(prepared.dailyTotal);
		expect(created(reference)).toBe(1);
	});

	test('advisory: Confirm counts the day again, and refuses what other payouts filled since', async () => {
		const reference = ref('PREPARE-ADVISORY');
		const [prepared] = jsonOf(await prepareWithLedger(s, DAY_CAP, [row(reference, 1000)]));
		expect(prepared.dailyTotal).toMatchObject({ totalBefore: 0, remaining: 4000 });
		await earlierRows([{ centavos: 450000 }]);
		const confirmed = await confirmWithLedger(
			s,
			DAY_CAP,
			[String(prepared.approvalToken)],
			'continueRegularOutput',
		);
		expect(String(jsonOf(confirmed)[0].error)).toMatch(
			/would bring the total of .* to PHP 5,500.00, above the Maximum Total per Day of PHP 5,000.00, so nothing was sent/,
		);
		expect(sent()).toBe(0);
	});

	test('each row of a run is stated against the day as read: Prepare reserves nothing', async () => {
		const result = await prepareWithLedger(s, DAY_CAP, [
			row(ref('PREPARE-ROWS'), 1000),
			row(ref('PREPARE-ROWS'), 2000),
		]);
		expect(jsonOf(result).map((item) => item.dailyTotal)).toMatchObject([
			{ totalBefore: 0, total: 1000, remaining: 4000 },
			{ totalBefore: 0, total: 2000, remaining: 3000 },
		]);
		onlyReads();
		expect(ledgerRows(s)).toEqual([]);
	});

	test('a token whose figures were changed is refused by Confirm: in its summary, or in its signed part', async () => {
		await earlierRows([{ centavos: 300000 }]);
		const [prepared] = jsonOf(
			await prepareWithLedger(s, DAY_CAP, [row(ref('PREPARE-CHANGED'), 1000)]),
		);
		const token = String(prepared.approvalToken);
		const cut = token.lastIndexOf(' [pa4.');
		const summary = token.slice(0, cut);
		const signed = token.slice(cut);
		const inSummary = `${summary.replace('so far PHP 3,000.00', 'so far PHP 0.00')}${signed}`;
		const [, encoded, signature] = signed.slice(2, -1).split('.');
		const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as IDataObject;
		payload.dailyTotal = { ...(payload.dailyTotal as IDataObject), totalBefore: 0, total: 1000 };
		const changedSummary = summary
			.replace('so far PHP 3,000.00', 'so far PHP 0.00')
			.replace('after this payout PHP 4,000.00', 'after this payout PHP 1,000.00');
		const inSigned = `${changedSummary} [pa4.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}]`;
		const refusals = [];
		for (const changed of [inSummary, inSigned]) {
			const confirmed = await confirmWithLedger(s, DAY_CAP, [changed], 'continueRegularOutput');
			refusals.push(jsonOf(confirmed)[0].error);
		}
		expect(refusals).toEqual([
			'The approval token does not read the summary Prepare wrote for it: the text before its [pa4.…] part was changed: nothing was sent (row 1)',
			'The approval token was changed after it was prepared (its signature does not match): nothing was sent (row 1)',
		]);
		expect(sent()).toBe(0);
		onlyReads();
	});

	test("a payout that alone would bring the day above the maximum: refused in Confirm's words, nothing prepared", async () => {
		await earlierRows([{ centavos: 300000 }, { centavos: 150000, state: 'reserved' }]);
		const result = await prepareWithLedger(s, DAY_CAP, [row(ref('PREPARE-OVER'), 1000)], {
			onError: 'continueRegularOutput',
		});
		const [out] = jsonOf(result);
		expect(out.error).toBe(
			`Refused: this payout of PHP 1,000.00 would bring the total of ${today()} (Asia/Manila) to PHP 5,500.00, above the Maximum Total per Day of PHP 5,000.00, so nothing was prepared (row 1)`,
		);
		expect(String(out.errorDetails)).toMatch(
			/so far, reserved or paid, add up to PHP 4,500.00, so PHP 500.00 is left for today\./,
		);
		expect(out.approvalToken).toBeUndefined();
		onlyReads();
		expect(sent()).toBe(0);
	});

	test('exactly at the maximum is within it: nothing remains', async () => {
		await earlierRows([{ centavos: 400000 }]);
		const [out] = jsonOf(await prepareWithLedger(s, DAY_CAP, [row(ref('PREPARE-EXACT'), 1000)]));
		expect(out.dailyTotal).toMatchObject({ total: 5000, remaining: 0 });
		expect(String(out.summary)).toContain(dayInWords('4,000.00', '5,000.00', '0.00'));
	});

	describe('a ledger that cannot be used refuses, saying what to configure; nothing prepared', () => {
		const refusedWith = async (expected: RegExp, credentials = s.ledgerCredential) => {
			const result = await prepareWithLedger(s, DAY_CAP, [row(ref('PREPARE-CLOSED'), 1000)], {
				onError: 'continueRegularOutput',
				credentials,
			});
			const [out] = jsonOf(result);
			expect(String(out.error)).toMatch(/^Refused: Maximum Total per Day is set, and /);
			expect(String(out.error)).toMatch(expected);
			expect(String(out.error)).toMatch(/, so nothing was prepared \(row 1\)$/);
			expect(String(out.errorDetails)).toMatch(/^Select a Payout Ledger credential/);
			expect(out.approvalToken).toBeUndefined();
			onlyReads();
			expect(sent()).toBe(0);
		};

		test('no Payout Ledger credential on the node', async () => {
			await refusedWith(/no Payout Ledger credential is selected on this node/, {});
		});

		test('an unreachable n8n', async () => {
			await refusedWith(
				/Reading the payout ledger failed: no complete answer came/,
				otherLedgerCredential(s, { apiUrl: 'http://127.0.0.1:9/api/v1' }),
			);
		});

		test('a wrong API key', async () => {
			await refusedWith(
				/Reading the payout ledger failed: n8n answered HTTP 401/,
				otherLedgerCredential(s, { apiKey: 'n8n_api_wrong-key-0123456789' }),
			);
		});

		test('a read that answers without rows', async () => {
			s.ledger.failNext(1, { method: 'GET', status: 200, body: { message: 'ok' } });
			await refusedWith(/Reading the payout ledger gave an answer without a list of rows/);
		});

		test('a row whose centavos cannot be counted', async () => {
			s.ledger.failNext(1, {
				method: 'GET',
				status: 200,
				body: { data: [{ id: 1, centavos: 'a lot' }], nextCursor: null },
			});
			await refusedWith(
				/holds a row whose centavos \("a lot"\) is not a whole, non-negative number/,
			);
		});
	});

	test('without Maximum Total per Day the ledger is never read, and the summary states no day', async () => {
		const reference = ref('PREPARE-NOCAP');
		const [out] = jsonOf(await prepareWithLedger(s, {}, [row(reference, 1000)]));
		expect(out.dailyTotal).toBeUndefined();
		expect(out.summary).toBe(
			`Pay PHP 1,000.00 to e-wallet mobile number 09171234567 on GCASH, reference ${reference} (Sandbox)`,
		);
		expect(s.ledger.requests).toEqual([]);
	});

	test('a Maximum Total per Day that cannot be read stops Prepare before the ledger is read', async () => {
		const result = await prepareWithLedger(s, { maxTotalPerDay: '20,000' }, [
			row(ref('PREPARE-BADMAX'), 10),
		]);
		expect(result.error?.message).toMatch(
			/Maximum Total per Day is "20,000", not a positive number/,
		);
		expect(s.ledger.requests).toEqual([]);
	});

	describe('as a tool', () => {
		/** Prepare as a tool: what the agent is answered for a payout of `amount`. */
		const prepareAsTool = async (amount: number) =>
			await askTool(s.store, new Disbursement(), {
				...cappedPayout({ maxTotalPerDay: '1500' }),
				operation: 'prepare',
				channel: 'GCASH',
				amount,
				referenceNo: ref('TOOL-PREP'),
				mobileNumber: '09171234567',
				callbackWebhookUrl: '',
			});

		test('within the maximum: the answer states the day; past it, or with the ledger unreadable, the refusal is the answer', async () => {
			await earlierRows([{ centavos: 50000 }]);
			const within = await prepareAsTool(1000);
			expect(within).toMatchObject({
				sent: false,
				dailyTotal: { totalBefore: 500, total: 1500, remaining: 0, maximum: 1500 },
			});
			expect(String(within.summary)).toContain(
				`Today (${today()}, Asia/Manila) so far PHP 500.00 of PHP 1,500.00; after this payout PHP 1,500.00, nothing left`,
			);
			const over = await prepareAsTool(1001);
			expect(over).toEqual({
				refused: true,
				error: `Refused: this payout of PHP 1,001.00 would bring the total of ${today()} (Asia/Manila) to PHP 1,501.00, above the Maximum Total per Day of PHP 1,500.00, so nothing was prepared.`,
				whatToDo: expect.stringContaining(
					'add up to PHP 500.00, so PHP 1,000.00 is left for today.',
				),
			});
			for (const fault of [
				{ method: 'GET', drop: true },
				{ method: 'GET', status: 500, body: { message: 'Internal error' } },
			]) {
				s.ledger.failNext(1, fault);
				const closed = await prepareAsTool(10);
				expect(closed).toEqual({
					refused: true,
					error: expect.stringMatching(
						/^Refused: Maximum Total per Day is set, and Reading the payout ledger failed: .*, so nothing was prepared/,
					),
					whatToDo: expect.stringMatching(/^Select a Payout Ledger credential/),
				});
			}
			onlyReads();
			expect(sent()).toBe(0);
		});
	});
});

describe('a run of many payouts: the ledger asked per wave of payouts, not per payout', () => {
	test('600 payouts of PHP 1: every one paid and marked paid, in a few dozen ledger requests (four a payout before)', async () => {
		const rows = Array.from({ length: 600 }, () => row(ref('WAVE'), 1));
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '100000', concurrency: 8 }),
			rows,
			{ onError: 'continueRegularOutput' },
		);
		const items = jsonOf(result);
		expect(items.filter((item) => item.error !== undefined)).toEqual([]);
		expect(ledgerRows(s).filter((entry) => entry.state === 'paid')).toHaveLength(600);
		const requests = s.ledger.requests;
		// 600 references in about ten reads, three waves of one insert, one read, one mark sending, one mark paid.
		expect(requests.length).toBeLessThanOrEqual(40);
		expect(requests.filter((request) => request.method === 'POST')).toHaveLength(3);
		// The day's figures follow the sheet: row n has n-1 pesos of the run before it.
		expect(items.slice(0, 3).map((item) => (item.dailyTotal as IDataObject).totalBefore)).toEqual([
			0, 1, 2,
		]);
	});

	test("the sheet's order gets the day's room: of ten PHP 1,000 rows and a PHP 300 row under PHP 5,500 the first five and the PHP 300 row are paid, whatever the concurrency", async () => {
		await earlier([{ centavos: 20000 }]);
		const rows = [
			...Array.from({ length: 10 }, () => row(ref('ORDER'), 1000)),
			row(ref('SMALL'), 300),
		];
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5500', concurrency: 8 }),
			rows,
			{ onError: 'continueRegularOutput' },
		);
		const items = jsonOf(result);
		expect(items.map((item) => item.error === undefined)).toEqual([
			true,
			true,
			true,
			true,
			true,
			false,
			false,
			false,
			false,
			false,
			true,
		]);
		expect(String(items[5].error)).toMatch(
			/would bring the total of .* to PHP 6,200.00, above the Maximum Total per Day of PHP 5,500.00, so nothing was sent/,
		);
		expect(items[10].dailyTotal).toMatchObject({ totalBefore: 5200, total: 5500, remaining: 0 });
		expect(sent()).toBe(6);
		expect(ledgerRows(s).map((entry) => entry.reference)).toEqual([
			'EARLIER-0',
			...[0, 1, 2, 3, 4, 10].map((index) => rows[index].ref),
		]);
	});

	test('a run stopped by a failed row (no continue-on-fail) leaves no reservation for the rows it never sent', async () => {
		const rows = [
			row(ref('STOP'), 1000),
			{ ...row(ref('STOP'), 1000), channel: 'NOPE' },
			row(ref('STOP'), 1000),
			row(ref('STOP'), 1000),
		];
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000', concurrency: 1 }),
			rows,
		);
		expect(String(result.error?.message)).toMatch(/NOPE/);
		expect(sent()).toBe(2);
		expect(ledgerRows(s)).toEqual([{ reference: rows[0].ref, centavos: 100000, state: 'paid' }]);
	});
});

describe('a crash does not block the day', () => {
	const longAgo = () => Date.now() + s.ledger.clockOffset() - STALE_RESERVATION_MS - 60_000;

	test('reservations a stopped worker left before marking them sending are removed by the next run once stale; rows marked sending keep counting', async () => {
		await earlier([
			{ centavos: 300000, state: 'reserved', reference: 'KILLED-1', createdAt: longAgo() },
			{ centavos: 100000, state: 'sending', reference: 'KILLED-2', createdAt: longAgo() },
		]);
		const first = await payOne('5000', ref('AFTER'), 3000);
		expect(first.error).toBeUndefined();
		expect(first.dailyTotal).toMatchObject({ totalBefore: 1000, total: 4000 });
		expect(
			ledgerRows(s).map(({ reference, state }) => `${String(reference)} ${String(state)}`),
		).toEqual(['KILLED-2 sending', `${String(first.reference_no)} paid`]);
		// The row marked sending may have been sent: it counts until its reference is settled.
		expect(String((await payOne('5000', ref('AFTER'), 1001)).error)).toMatch(
			/above the Maximum Total per Day/,
		);
	});

	test('a fresh reservation of another run is not removed: it counts', async () => {
		await earlier([{ centavos: 450000, state: 'reserved', reference: 'DECIDING' }]);
		const result = await payOne('5000', ref('FRESH'), 1000);
		expect(String(result.error)).toMatch(/above the Maximum Total per Day/);
		expect(sent()).toBe(0);
		expect(ledgerRows(s).map((entry) => entry.reference)).toEqual(['DECIDING']);
	});

	test('a run that stalled until its reservation was removed as stale sends nothing: the sending mark changes no row', async () => {
		s.ledger.failNext(1, {
			method: 'PATCH',
			pathEndsWith: '/rows/update',
			before: () => s.ledger.removeRows((entry) => entry.state === 'reserved'),
		});
		const result = await payOne('5000', ref('STALLED'), 1000);
		expect(String(result.error)).toMatch(
			/its reservation was removed from the payout ledger before it was marked sending.*so nothing was sent/,
		);
		expect(sent()).toBe(0);
		expect(ledgerRows(s)).toEqual([]);
	});
});
