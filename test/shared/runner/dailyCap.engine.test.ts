/**
 * Maximum Total per Day (nodes/shared/runner/dailyCap.ts), through n8n's engine against the sandbox
 * gateway, with the ledger in a local n8n Data Table API: reserve, then read, then keep. A payout
 * within the day's maximum is paid and its reservation marked paid; one over it is refused with
 * nothing sent and leaves no reservation; a definite refusal and a replay give the amount back; an
 * unknown outcome keeps it; a ledger that cannot be reached or read refuses every payout.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Disbursement } from '../../../nodes/Disbursement/Disbursement.node';
import { dayIn } from '../../../nodes/shared/validation/days';
import { freshStart, gatewayPerSuite, jsonOf, run } from '../../harness/disbursementRuns';
import {
	cappedPayout,
	ledgerRows,
	otherLedgerCredential,
	payWithLedger,
	scopeOf,
	setUpWithLedger,
	today,
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

/** Rows written before this run: an earlier execution's payouts of the day. */
async function earlier(rows: Array<{ day?: string; centavos: number; state?: string }>) {
	const response = await fetch(`${s.ledger.url}/data-tables/${s.ledger.tableId}/rows`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-n8n-api-key': s.ledger.apiKey },
		body: JSON.stringify({
			data: rows.map((entry, i) => ({
				day: entry.day ?? today(),
				scope: scopeOf(s),
				reference: `EARLIER-${i}`,
				centavos: entry.centavos,
				state: entry.state ?? 'paid',
			})),
		}),
	});
	expect(response.status).toBe(200);
}

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

	test('the reservation is written before the payout is sent, and read back before it', async () => {
		const reference = ref('ORDER');
		await payWithLedger(s, cappedPayout({ maxTotalPerDay: '5000' }), [row(reference, 100)]);
		const calls = s.ledger.requests.map((request) => request.method);
		expect(calls.slice(0, 2)).toEqual(['POST', 'GET']);
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
			/so far, reserved or paid, add up to PHP 4,500.00; PHP 500.00 remain/,
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

describe('what happens to a reservation', () => {
	test('a definite refusal of the service gives the amount back', async () => {
		const reference = ref('REFUSED');
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: '5000' }),
			[{ ...row(reference, 1000), channel: 'NOPE' }],
			{ onError: 'continueRegularOutput' },
		);
		expect(String(jsonOf(result)[0].error)).toMatch(/NOPE/);
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
		expect(ledgerRows(s)).toEqual([{ reference, centavos: 100000, state: 'reserved' }]);
	});
});

describe('the day', () => {
	test("another day's rows do not count, and the row is written under the day of the chosen time zone", async () => {
		const zone = 'Pacific/Kiritimati';
		const yesterday = dayIn(zone, new Date(Date.now() - 86_400_000));
		await earlier([{ day: yesterday, centavos: 500000 }]);
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
		const response = await fetch(`${s.ledger.url}/data-tables/${s.ledger.tableId}/rows`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-n8n-api-key': s.ledger.apiKey },
			body: JSON.stringify({
				data: [{ day: today(), scope: 'someone-else@example.com', centavos: 900000 }],
			}),
		});
		expect(response.status).toBe(200);
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
			/Writing to the payout ledger failed: no complete answer came/,
			otherLedgerCredential(s, { apiUrl: 'http://127.0.0.1:9/api/v1' }),
		);
	});

	test('a wrong API key: refused, and the key never shown', async () => {
		const wrong = 'n8n_api_wrong-key-0123456789';
		const item = await refusedWith(
			/Writing to the payout ledger failed: n8n answered HTTP 401 \(unauthorized\)/,
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
