/**
 * Check before paying: Dry Run sends nothing and shows what would be sent with a summary; Maximum
 * Total per Run adds every row up before the first request; Wait for Final Status looks a
 * reference up until the sandbox settles it, or gives up cleanly.
 */
import type { IDataObject } from 'n8n-workflow';

import { bankTransferParameters } from '../harness/disbursementRuns';
import { moneyOperationsPerFile, type MoneyOperation } from '../harness/moneyOperations';

const ops = moneyOperationsPerFile('check before paying');
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;
const requests = (op: MoneyOperation) => op.setup.gw.stats().requestsByPath;

describe.each(NAMES)('%s: Dry Run', (name) => {
	const op = () => ops[name];

	test('1,000 rows, every tenth one bad: nothing is sent, each row says what would happen, the summary adds up', async () => {
		const channels = name === 'Generate' ? ['GCASH_TRN', 'BAYAD'] : ['GCASH', 'PAYMAYA'];
		const rows = Array.from({ length: 1000 }, (_, i) =>
			op().row(ref('DRY'), 100 + (i % 7) * 0.25, {
				channel: channels[i % 2],
				...(i % 10 === 9 ? { amount: 'n/a' } : {}),
			}),
		);
		const result = await op().run(op().parameters({ dryRun: true, maxTotalPerRun: 50000 }), rows);
		expect(result.error).toBeUndefined();
		expect(requests(op())).toEqual({});
		const out = result.outputs[0].map((item) => item.json);
		expect(out).toHaveLength(1001);

		const expectedTotals: Record<string, number> = {};
		let total = 0;
		rows.forEach((row, i) => {
			if (i % 10 === 9) {
				expect(out[i]).toEqual({
					dryRun: true,
					row: i + 1,
					wouldSend: false,
					problem: 'Amount "n/a" is not a number',
				});
				return;
			}
			expect(out[i]).toMatchObject({
				dryRun: true,
				row: i + 1,
				wouldSend: true,
				reference_no: row.ref,
				channel: row.channel,
				amount: row.amount,
			});
			const cents = Math.round(Number(row.amount) * 100);
			total += cents;
			expectedTotals[String(row.channel)] = (expectedTotals[String(row.channel)] ?? 0) + cents;
		});
		if (name === 'Payout Create') expect(out[0].payee).toBe('0917•••4567');
		const summary = out[1000];
		expect(summary).toEqual({
			dryRun: true,
			summary: true,
			rows: 1000,
			wouldSend: 900,
			wouldFail: 100,
			totalAmount: total / 100,
			totalByChannel: Object.fromEntries(
				Object.entries(expectedTotals).map(([channel, cents]) => [channel, cents / 100]),
			),
			failures: rows.flatMap((_, i) =>
				i % 10 === 9 ? [{ row: i + 1, problem: 'Amount "n/a" is not a number' }] : [],
			),
			maximumTotalPerRun: 50000,
			overMaximumTotal: total > 50000 * 100,
		});
		expect(summary.overMaximumTotal).toBe(true);
		expect(result.outputs[0][1000].pairedItem).toHaveLength(1000);
	});
});

test('Dry Run tells payees apart: a mobile number keeps its network prefix, an account its bank', async () => {
	const op = ops['Payout Create'];
	const rows = [op.row(ref('PAYEE'), 100), op.row(ref('PAYEE'), 100, { mobile: '09181234567' })];
	const result = await op.run(op.parameters({ dryRun: true }), rows);
	expect(result.outputs[0].slice(0, 2).map((item) => item.json.payee)).toEqual([
		'0917•••4567',
		'0918•••4567',
	]);
	const bank = await op.run(bankTransferParameters({ options: { dryRun: true } }), [
		{
			ref: ref('PAYEE'),
			amount: 100,
			bank: 'BDO',
			senderFirst: 'Ana',
			senderLast: 'Cruz',
			accountName: 'Ben Reyes',
			accountNumber: '0012-3456-7890',
		},
	]);
	expect(bank.outputs[0][0].json.payee).toBe('BDO ••••••••7890');
	expect(requests(op)).toEqual({});
});

describe.each(NAMES)('%s: Dry Run set by an expression', (name) => {
	const op = () => ops[name];

	test('a column holding TRUE (text, as spreadsheets give it) is a dry run: nothing is sent', async () => {
		const rows = [
			op().row(ref('DRYCOL'), 10, { dry: 'TRUE' }),
			op().row(ref('DRYCOL'), 20, { dry: ' true ' }),
		];
		const result = await op().run(op().parameters({ dryRun: '={{ $json.dry }}' }), rows);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0].map((item) => item.json.wouldSend)).toEqual([true, true, 2]);
		expect(result.outputs[0][2].json).toMatchObject({
			summary: true,
			rows: 2,
			wouldFail: 0,
			totalAmount: 30,
		});
		expect(requests(op())).toEqual({});
	});

	test('a column holding FALSE is a real run', async () => {
		const rows = [op().row(ref('DRYCOL'), 10, { dry: 'FALSE' })];
		const result = await op().run(op().parameters({ dryRun: '={{ $json.dry }}' }), rows);
		expect(result.outputs[0].map((item) => item.json.replayed)).toEqual([false]);
		expect(requests(op())[`POST ${op().createPath}`]).toBe(1);
	});

	test.each<[string, string, string]>([
		['"yes"', '={{ "yes" }}', '"yes"'],
		['a number', '={{ 1 }}', '"1"'],
		['an expression that comes out empty', '={{ $json.noSuchColumn }}', 'empty'],
	])(
		'a Dry Run that is not true or false (%s) stops the node before anything is sent',
		async (_name, dryRun, shown) => {
			const rows = [op().row(ref('DRYBAD'), 10), op().row(ref('DRYBAD'), 10)];
			const stopped = await op().run(op().parameters({ dryRun }), rows);
			expect(stopped.error?.message).toBe(
				`Dry Run is ${shown}, not true or false: nothing was sent`,
			);
			const continued = await op().run(op().parameters({ dryRun }), rows, 'continueRegularOutput');
			expect(continued.outputs[0].map((item) => item.json.error)).toEqual(
				[1, 2].map(
					(row) =>
						`Not sent, because the run stopped: Dry Run is ${shown}, not true or false: nothing was sent (row ${row})`,
				),
			);
			expect(requests(op())).toEqual({});
		},
	);

	test('rows that disagree (a dry-run column true on the second row only) stop the node before anything is sent', async () => {
		const rows = [
			op().row(ref('DRYMIX'), 10, { dry: false }),
			op().row(ref('DRYMIX'), 10, { dry: true }),
		];
		const result = await op().run(
			op().parameters({ dryRun: '={{ $json.dry }}' }),
			rows,
			'continueRegularOutput',
		);
		expect(result.outputs[0].map((item) => item.json.error)).toEqual(
			[1, 2].map(
				(row) =>
					`Not sent, because the run stopped: Dry Run is "false" for row 1 but "true" for row 2: it holds for the whole run, so nothing was sent (row ${row})`,
			),
		);
		expect(requests(op())).toEqual({});
	});
});

describe.each(NAMES)('%s: Maximum Total per Run', (name) => {
	const op = () => ops[name];
	const sheet = () => [
		op().row(ref('TOTAL'), 20000),
		op().row(ref('TOTAL'), 20000),
		op().row(ref('TOTAL'), 5500),
	];

	test('rows that add up to more than the limit send nothing, whatever the error setting', async () => {
		const stopped = await op().run(op().parameters({ maxTotalPerRun: 40000 }), sheet());
		expect(stopped.outputs).toEqual([]);
		expect(stopped.error?.message).toBe(
			'The rows add up to 45,500, above the Maximum Total per Run (40,000): nothing was sent',
		);
		const continued = await op().run(
			op().parameters({ maxTotalPerRun: '40000' }),
			sheet(),
			'continueRegularOutput',
		);
		expect(continued.outputs[0].map((item) => item.json.error)).toEqual(
			[1, 2, 3].map(
				(row) =>
					`Not sent, because the run stopped: The rows add up to 45,500, above the Maximum Total per Run (40,000): nothing was sent (row ${row})`,
			),
		);
		expect(requests(op())).toEqual({});
	});

	test('rows within the limit are all sent; a bad row is not counted', async () => {
		const rows = [...sheet(), op().row(ref('TOTAL'), 5, { amount: 'x' })];
		const result = await op().run(
			op().parameters({ maxTotalPerRun: 45500 }),
			rows,
			'continueRegularOutput',
		);
		const out = result.outputs[0].map((item) => item.json);
		expect(out.slice(0, 3).map((json) => json.replayed)).toEqual([false, false, false]);
		expect(out[3].error).toBe('Amount "x" is not a number (row 4)');
		expect(requests(op())[`POST ${op().createPath}`]).toBe(3);
	});

	test.each<[string, string | number, string]>([
		['"40,000"', '40,000', '"40,000"'],
		['"abc"', 'abc', '"abc"'],
		['-5', -5, '"-5"'],
		['an expression that comes out empty', '={{ $json.noSuchColumn }}', 'empty'],
	])(
		'a limit that cannot be read (%s) stops the node before anything is sent',
		async (_name, limit, shown) => {
			const result = await op().run(op().parameters({ maxTotalPerRun: limit }), sheet());
			expect(result.error?.message).toBe(
				`Maximum Total per Run is ${shown}, not a positive number: nothing was sent`,
			);
			expect(requests(op())).toEqual({});
		},
	);

	test('a limit mapped from a column that differs between rows stops the node before anything is sent', async () => {
		const rows = [
			op().row(ref('TOTAL'), 10, { limit: 100000 }),
			op().row(ref('TOTAL'), 10, { limit: 5 }),
		];
		const result = await op().run(op().parameters({ maxTotalPerRun: '={{ $json.limit }}' }), rows);
		expect(result.error?.message).toBe(
			'Maximum Total per Run is "100000" for row 1 but "5" for row 2: it holds for the whole run, so nothing was sent',
		);
		expect(requests(op())).toEqual({});
	});

	test('a limit mapped from a column that is the same on every row holds', async () => {
		const rows = [
			op().row(ref('TOTAL'), 30, { limit: 50 }),
			op().row(ref('TOTAL'), 30, { limit: 50 }),
		];
		const result = await op().run(op().parameters({ maxTotalPerRun: '={{ $json.limit }}' }), rows);
		expect(result.error?.message).toBe(
			'The rows add up to 60, above the Maximum Total per Run (50): nothing was sent',
		);
		expect(requests(op())).toEqual({});
	});
});

describe.each(NAMES)('%s: Wait for Final Status', (name) => {
	const op = () => ops[name];
	const waitParameters = (limitMinutes: number) => ({
		resource: name === 'Generate' ? 'transaction' : 'payout',
		operation: 'waitForFinalStatus',
		referenceNo: '={{ $json.ref }}',
		timeLimitMinutes: limitMinutes,
		options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
	});

	test.each(['completed', 'cancelled'] as const)(
		'returns the record once the sandbox settles it as %s',
		async (status) => {
			const reference = ref('WAIT');
			const created = await op().run(op().parameters(), [op().row(reference, 10)]);
			expect(created.error).toBeUndefined();
			op().setup.gw.scriptOutcome(reference, status, 500);
			const result = await op().run(waitParameters(1), [{ ref: reference }]);
			expect(result.error).toBeUndefined();
			const [json] = result.outputs[0].map((item) => item.json as IDataObject);
			expect(json).toMatchObject({ reference_no: reference, status, finalStatus: true });
			// Looked up more than once, with pauses that grow, and well before the time limit.
			expect(json.lookUps).toBeGreaterThan(1);
			expect(json.waitedSeconds).toBeLessThan(5);
			expect(requests(op())[`GET ${op().lookupPath}`]).toBe(json.lookUps);
		},
	);

	test('gives up cleanly when the time limit passes: the record, still pending, and what to do', async () => {
		const reference = ref('WAIT-LONG');
		await op().run(op().parameters(), [op().row(reference, 10)]);
		const result = await op().run(waitParameters(0.01), [{ ref: reference }]);
		expect(result.error).toBeUndefined();
		const [json] = result.outputs[0].map((item) => item.json as IDataObject);
		expect(json).toMatchObject({
			reference_no: reference,
			status: 'pending',
			finalStatus: false,
			message: 'Still pending after 0.01 minutes: look it up again later, or raise Give Up After',
		});
		expect(json.waitedSeconds).toBeGreaterThanOrEqual(0.5);
		expect(json.waitedSeconds).toBeLessThan(3);
	});

	test('an unknown reference is an error naming it, not a wait', async () => {
		const result = await op().run(
			waitParameters(1),
			[{ ref: 'NEVER-MADE-1' }],
			'continueRegularOutput',
		);
		expect(result.outputs[0][0].json.error).toBe(
			`No ${op().noun} has reference_no "NEVER-MADE-1" (row 1)`,
		);
	});
});
