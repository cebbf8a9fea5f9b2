/**
 * Where a run's summary goes, in n8n's engine over real HTTP: from version 3, Payout > Reconcile and
 * Payout > Create in Check Only give it an output of its own ("Summary", beside "Rows"), so a
 * workflow needs no node to split it from the rows; versions 1 and 2 (stored workflows) keep it as
 * the last item of their one output.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../harness/disbursementRuns';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

const reconcile: INodeParameters = {
	resource: 'payout',
	operation: 'reconcile',
	mappingMode: 'autoMapInputData',
};
const checkOnly = (runMode: string) =>
	eWalletParameters({ runMode, mappingMode: 'defineBelow', options: { maxAmountPerPayout: 5000 } });

const rows = [
	{ reference_no: 'SUM-1', amount: 100 },
	{ reference_no: 'SUM-2', amount: 200 },
];
const sheet = [
	{ ref: 'SUM-3', amount: 300, mobile: '09171234567' },
	{ ref: 'SUM-4', amount: 400, mobile: '09181234567' },
];

describe('Payout > Reconcile', () => {
	test('version 3: the rows on the first output, the summary alone on the second', async () => {
		const result = await run(s, reconcile, { items: rows, typeVersion: 3 });
		expect(result.error).toBeUndefined();
		expect(result.outputs).toHaveLength(2);
		expect(jsonOf(result, 0).map((row) => [row.reference_no, row.status])).toEqual([
			['SUM-1', 'not found'],
			['SUM-2', 'not found'],
		]);
		expect(jsonOf(result, 1)).toEqual([expect.objectContaining({ rows: 2, notFound: 2 })]);
		expect(result.outputs[1][0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test.each([1, 2])(
		'version %p keeps one output: the rows, then the summary as the last item',
		async (typeVersion) => {
			const result = await run(s, reconcile, { items: rows, typeVersion });
			expect(result.error).toBeUndefined();
			expect(result.outputs).toHaveLength(1);
			expect(jsonOf(result).map((item) => item.reference_no ?? item.summary)).toEqual([
				'SUM-1',
				'SUM-2',
				true,
			]);
		},
	);

	test('version 3 with the error output: rows, summary and the row that could not be checked each on their own output', async () => {
		const result = await run(s, reconcile, {
			items: [...rows, { reference_no: 'SUM-BAD', amount: 'abc' }],
			typeVersion: 3,
			onError: 'continueErrorOutput',
		});
		expect(result.outputs).toHaveLength(3);
		expect(jsonOf(result, 0).map((row) => row.reference_no)).toEqual(['SUM-1', 'SUM-2']);
		expect(jsonOf(result, 1)).toEqual([
			expect.objectContaining({ rows: 3, notFound: 2, notChecked: 1 }),
		]);
		expect(jsonOf(result, 2)).toEqual([expect.objectContaining({ error: expect.any(String) })]);
	});

	test('version 1 with the error output: the rows and the summary on the first output, the bad row on the error output', async () => {
		const result = await run(s, reconcile, {
			items: [...rows, { reference_no: 'SUM-BAD', amount: 'abc' }],
			typeVersion: 1,
			onError: 'continueErrorOutput',
		});
		expect(result.outputs).toHaveLength(2);
		expect(jsonOf(result, 0).map((item) => item.reference_no ?? item.summary)).toEqual([
			'SUM-1',
			'SUM-2',
			true,
		]);
		expect(jsonOf(result, 1)).toEqual([expect.objectContaining({ error: expect.any(String) })]);
	});
});

describe('Payout > Create, Check Only', () => {
	test.each([
		['Check Only', 'dryRun'],
		['Mode from an expression that gives Check Only', '={{ "dryRun" }}'],
	])(
		'version 3, %s: the checked rows on the first output, the summary alone on the second, nothing sent',
		async (_, runMode) => {
			const result = await run(s, checkOnly(runMode), { items: sheet, typeVersion: 3 });
			expect(result.error).toBeUndefined();
			expect(result.outputs).toHaveLength(2);
			expect(jsonOf(result, 0).map((row) => [row.reference_no, row.wouldSend])).toEqual([
				['SUM-3', true],
				['SUM-4', true],
			]);
			expect(jsonOf(result, 1)).toEqual([
				expect.objectContaining({ rows: 2, wouldSend: 2, wouldFail: 0, totalAmount: 700 }),
			]);
			expect(s.gw.stats().creationsByReference).toEqual({});
		},
	);

	test('version 2 keeps one output: the checked rows, then the summary as the last item', async () => {
		const result = await run(s, checkOnly('dryRun'), { items: sheet, typeVersion: 2 });
		expect(result.outputs).toHaveLength(1);
		const items: IDataObject[] = jsonOf(result);
		expect(items.map((item) => item.reference_no ?? item.summary)).toEqual([
			'SUM-3',
			'SUM-4',
			true,
		]);
	});

	test('version 3, Pay: one output, the payouts', async () => {
		const result = await run(s, checkOnly('pay'), { items: sheet, typeVersion: 3 });
		expect(result.error).toBeUndefined();
		expect(result.outputs).toHaveLength(1);
		expect(jsonOf(result).map((row) => row.reference_no)).toEqual(['SUM-3', 'SUM-4']);
	});
});
