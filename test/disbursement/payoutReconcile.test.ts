/**
 * Payout > Reconcile: each row checked against the payout the service holds, over real HTTP against
 * the sandbox gateway. Only look-ups (and the token) are ever sent, whatever the rows hold.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { reconcileSummary, recordRequests } from '../harness/moneyOperations';
import { call as callSandbox, disbursementToken, walletPayoutBody } from '../harness/sandboxCalls';
import {
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	pairs,
	run,
	setUp,
} from '../harness/disbursementRuns';

const LOOKUP = 'GET /v1/api/disbursement/transactions';
const TOKEN = 'POST /v1/auth/token';
const CREATE_PATH = '/v1/api/disbursement/transactions/process';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

/** Reconcile with the rows' own columns (reference_no, amount, channel, mobile_number, ...). */
const auto = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'payout',
	operation: 'reconcile',
	mappingMode: 'autoMapInputData',
	...extra,
});

async function pay(
	rows: Array<{ ref: string; amount: number; mobile?: string; channel?: string }>,
) {
	const result = await run(s, eWalletParameters(), {
		items: rows.map((row) => ({ mobile: '09171234567', ...row })),
	});
	expect(result.error).toBeUndefined();
}

const summaryOf = (items: IDataObject[]) => items[items.length - 1];

test('paid rows come out with their status, unpaid ones as "not found", each with its own columns, then a summary', async () => {
	await pay([
		{ ref: 'REC-1', amount: 300 },
		{ ref: 'REC-2', amount: 45.5, channel: 'PAYMAYA' },
	]);
	await s.gw.settle('REC-2', 'completed');
	s.gw.resetStats();
	const rows = [
		{ reference_no: 'REC-1', amount: 300, channel: 'GCASH', name: 'Ana', row_number: 2 },
		{ reference_no: 'REC-NEVER', amount: 10, channel: 'GCASH', name: 'Ben', row_number: 3 },
		{ reference_no: 'REC-2', amount: '45.50', channel: 'PAYMAYA', name: 'Cy', row_number: 4 },
	];
	const result = await run(s, auto(), { items: rows });
	expect(result.error).toBeUndefined();
	const items = jsonOf(result);
	expect(items.slice(0, 3)).toEqual([
		{
			...rows[0],
			status: 'pending',
			check: 'matches',
			recordedAmount: 300,
			recordedChannel: 'GCASH',
			mismatches: [],
			unconfirmed: [],
		},
		{ ...rows[1], status: 'not found', check: 'not found', mismatches: [], unconfirmed: [] },
		{
			...rows[2],
			status: 'completed',
			check: 'matches',
			recordedAmount: 45.5,
			recordedChannel: 'PAYMAYA',
			mismatches: [],
			unconfirmed: [],
		},
	]);
	expect(summaryOf(items)).toEqual(
		reconcileSummary(3, { completed: [1, 45.5], pending: [1, 300] }, { notFound: 1 }),
	);
	expect(pairs(result).slice(0, 3)).toEqual([0, 1, 2]);
	expect(result.outputs[0][3].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(s.gw.stats().requestsByPath).toEqual({ [LOOKUP]: 3 });
});

test('what does not match is named: amount to the centavo, channel, recipient', async () => {
	await pay([
		{ ref: 'MIS-1', amount: 100 },
		{ ref: 'MIS-2', amount: 200, mobile: '09181234567' },
	]);
	await s.gw.settle('MIS-1', 'cancelled');
	const result = await run(
		s,
		{
			resource: 'payout',
			operation: 'reconcile',
			referenceNo: '={{ $json.ref }}',
			amount: '={{ $json.amount }}',
			channel: '={{ $json.channel }}',
			mobileNumber: '={{ $json.mobile }}',
		},
		{
			items: [
				{ ref: 'MIS-1', amount: '100.01', channel: 'GCASH', mobile: '0917 123 4567' },
				{ ref: 'MIS-2', amount: 200, channel: 'PAYMAYA', mobile: '09171234567' },
			],
		},
	);
	const [first, second, summary] = jsonOf(result);
	expect(first).toMatchObject({
		status: 'cancelled',
		check: 'differs: amount (row 100.01, service 100)',
		mismatches: [{ fact: 'amount', expected: '100.01', recorded: '100' }],
	});
	expect(second).toMatchObject({
		status: 'pending',
		check:
			'differs: channel (row PAYMAYA, service GCASH); mobile number (row 09171234567, service 09181234567)',
		mismatches: [
			{ fact: 'channel', expected: 'PAYMAYA', recorded: 'GCASH' },
			{ fact: 'mobile number', expected: '09171234567', recorded: '09181234567' },
		],
	});
	expect(summary).toMatchObject({ rows: 2, mismatched: 2, notFound: 0 });
	expect(summary.byStatus).toMatchObject({ cancelled: { rows: 1, amount: 100 } });
});

test('a row whose reference has two records is "ambiguous", with the reason', async () => {
	await pay([
		{ ref: 'AMB-R1', amount: 50 },
		{ ref: 'AMB-R2', amount: 60 },
	]);
	s.gw.duplicateRecord('AMB-R1', 'cancelled');
	const result = await run(s, auto(), {
		items: [{ reference_no: 'AMB-R1', amount: 50 }, { reference_no: 'AMB-R2' }],
	});
	const [ambiguous, found, summary] = jsonOf(result);
	expect(ambiguous).toEqual({
		reference_no: 'AMB-R1',
		amount: 50,
		status: 'ambiguous',
		check: 'ambiguous',
		mismatches: [],
		unconfirmed: [],
		reason: expect.stringMatching(/found 2 payouts with it \(statuses pending, cancelled\)/),
	});
	expect(found).toMatchObject({ status: 'pending', recordedAmount: 60 });
	expect(summary).toMatchObject({ rows: 2, ambiguous: 1, notFound: 0 });
});

test('a row that could not be checked goes to the error output with the reason, never a guess', async () => {
	await pay([
		{ ref: 'UNR-1', amount: 70 },
		{ ref: 'UNR-2', amount: 80 },
	]);
	s.gw.faults.add({
		path: '/v1/api/disbursement/transactions',
		referenceNo: 'UNR-2',
		mode: 'drop-before',
	});
	s.gw.faults.add({
		path: '/v1/api/disbursement/transactions',
		referenceNo: 'UNR-3',
		mode: 'error-before',
		status: 200,
		body: { data: null },
	});
	const rows = [{ reference_no: 'UNR-1' }, { reference_no: 'UNR-2' }, { reference_no: 'UNR-3' }];
	const result = await run(s, auto(), { items: rows, onError: 'continueErrorOutput' });
	expect(result.error).toBeUndefined();
	expect(jsonOf(result, 0).map((item) => item.status)).toEqual(['pending', undefined]);
	expect(pairs(result, 1)).toEqual([1, 2]);
	const [dropped, unclear] = jsonOf(result, 1);
	expect(dropped).toMatchObject({ reference_no: 'UNR-2' });
	expect(dropped.error).toMatch(/\(row 2\)$/);
	expect(unclear.error).toBe(
		'Looking reference_no "UNR-3" up gave an answer that neither holds it nor says it does not exist (row 3)',
	);
	expect(summaryOf(jsonOf(result, 0))).toMatchObject({ rows: 3, notChecked: 2, notFound: 0 });

	// Without an error output the node stops at the row rather than report it as anything.
	const stopped = await run(s, auto(), { items: rows });
	expect(stopped.error?.message).toMatch(/\(row 2\)$/);
});

test('a value given must be valid: an amount "abc" fails its row before any look-up', async () => {
	const result = await run(s, auto(), {
		items: [
			{ reference_no: 'BAD-1', amount: 'abc' },
			{ reference_no: 'BAD-2', mobile_number: '12345', receiver_account_number: '12#4' },
			{ reference_no: 'BAD-3', amount: '' },
		],
		onError: 'continueErrorOutput',
	});
	expect(jsonOf(result, 1).map((item) => item.error)).toEqual([
		expect.stringMatching(/^Amount "abc" .*\(row 1\)$/),
		expect.stringMatching(
			/^2 fields to fix: Mobile Number "12345" .*Receiver Account Number "12#4" .*\(row 2\)$/,
		),
	]);
	// An empty cell is "nothing to compare".
	expect(jsonOf(result, 0)[0]).toMatchObject({ reference_no: 'BAD-3', status: 'not found' });
	expect(s.gw.stats().requestsByPath[LOOKUP]).toBe(1);
});

test('the summary adds the recorded amounts up to the centavo', async () => {
	const amounts = [0.1, 0.2, 1250.55, 0.07, 19999.99, 0.01];
	await pay(amounts.map((amount, i) => ({ ref: `SUM-${i}`, amount })));
	await s.gw.settle('SUM-2', 'completed');
	await s.gw.settle('SUM-3', 'completed');
	const result = await run(s, auto(), {
		items: amounts.map((_, i) => ({ reference_no: `SUM-${i}` })),
	});
	expect(summaryOf(jsonOf(result)).byStatus).toEqual({
		completed: { rows: 2, amount: 1250.62 },
		pending: { rows: 4, amount: 20000.3 },
		cancelled: { rows: 0, amount: 0 },
	});
});

test('1,000 rows send nothing but look-ups and one token, whatever columns they hold', async () => {
	// A gateway of its own, so the run starts without a token; 20 payouts made directly.
	const own = await setUp();
	try {
		const token = await disbursementToken(own.gw);
		for (let i = 0; i < 20; i++) {
			const res = await callSandbox(own.gw, 'POST', CREATE_PATH, {
				token,
				body: walletPayoutBody(`K-${i}`, { amount: 10 + i }),
			});
			expect(res.status).toBe(200);
		}
		own.gw.resetStats();
		const rows = Array.from({ length: 1000 }, (_, i) => ({
			reference_no: `K-${i}`,
			amount: 10 + i,
			channel: 'GCASH',
			mobile_number: '09171234567',
			callback_webhook_url: 'http://127.0.0.1:9/cb',
			channelType: 'eWallet',
			operation: 'create',
		}));
		const recorded = recordRequests();
		try {
			const result = await run(own, auto({ options: { concurrency: 32 } }), { items: rows });
			expect(result.error).toBeUndefined();
			const items = jsonOf(result);
			expect(items).toHaveLength(1001);
			expect(summaryOf(items)).toMatchObject({ rows: 1000, notFound: 980, mismatched: 0 });
			expect(items.slice(0, 20).every((item) => item.status === 'pending')).toBe(true);
		} finally {
			recorded.restore();
		}
		const kinds = recorded.requests.map((request) => `${request.method} ${request.path}`);
		expect(kinds.filter((kind) => kind !== LOOKUP)).toEqual([TOKEN]);
		expect(kinds).toHaveLength(1001);
		expect(own.gw.stats().requestsByPath).toEqual({ [LOOKUP]: 1000, [TOKEN]: 1 });
		expect(own.gw.stats().creationsByReference).toEqual({});
	} finally {
		await own.gw.close();
	}
});
