/** Transaction > Reconcile: rows of payment links checked against the service's transactions. */
import { generateParameters, gatewayPerSuite, run, setUp } from '../harness/collectionRuns';
import { jsonOf } from '../harness/disbursementRuns';
import { reconcileSummary } from '../harness/moneyOperations';

const s = gatewayPerSuite(setUp);

test('status per row, amount compared with the subtotal, channel_code with the channel, then a summary', async () => {
	const paid = await run(s, generateParameters(), {
		items: [
			{ ref: 'TREC-1', amount: 1250.5 },
			{ ref: 'TREC-2', amount: 99.99, channel: 'GCASH_TRN' },
		],
	});
	expect(paid.error).toBeUndefined();
	await s.gw.settle('TREC-1', 'completed');
	s.gw.resetStats();
	const rows = [
		{ reference_no: 'TREC-1', amount: '1,250.50', channel_code: 'GCASH_TRN', invoice: 'A' },
		{ reference_no: 'TREC-2', amount: 100, invoice: 'B' },
		{ reference_no: 'TREC-3', invoice: 'C' },
	];
	const result = await run(
		s,
		{ resource: 'transaction', operation: 'reconcile', mappingMode: 'autoMapInputData' },
		{ items: rows },
	);
	expect(result.error).toBeUndefined();
	const [first, second, third, summary] = jsonOf(result);
	expect(first).toEqual({
		...rows[0],
		status: 'completed',
		check: 'matches',
		recordedAmount: 1250.5,
		recordedChannel: 'GCASH_TRN',
		mismatches: [],
		unconfirmed: [],
	});
	expect(second).toMatchObject({
		...rows[1],
		status: 'pending',
		check: 'differs: amount (row 100, service 99.99)',
		mismatches: [{ fact: 'amount', expected: '100', recorded: '99.99' }],
		unconfirmed: [],
	});
	expect(third).toEqual({
		...rows[2],
		status: 'not found',
		check: 'not found',
		mismatches: [],
		unconfirmed: [],
	});
	expect(summary).toEqual(
		reconcileSummary(
			3,
			{ completed: [1, 1250.5], pending: [1, 99.99] },
			{ notFound: 1, mismatched: 1 },
		),
	);
	expect(s.gw.stats().requestsByPath).toEqual({ 'GET /v1/biller/transactions': 3 });
});

describe('where the summary goes', () => {
	const reconcile = {
		resource: 'transaction',
		operation: 'reconcile',
		mappingMode: 'autoMapInputData',
	};
	const rows = [{ reference_no: 'TREC-SUM-1' }, { reference_no: 'TREC-SUM-2' }];

	test('version 2: the rows on the first output, the summary alone on the second ("Summary")', async () => {
		const result = await run(s, reconcile, { items: rows, typeVersion: 2 });
		expect(result.error).toBeUndefined();
		expect(result.outputs).toHaveLength(2);
		expect(jsonOf(result, 0).map((row) => [row.reference_no, row.status])).toEqual([
			['TREC-SUM-1', 'not found'],
			['TREC-SUM-2', 'not found'],
		]);
		expect(jsonOf(result, 1)).toEqual([expect.objectContaining({ rows: 2, notFound: 2 })]);
	});

	test('version 1 (stored workflows) keeps one output: the rows, then the summary as the last item', async () => {
		const result = await run(s, reconcile, { items: rows, typeVersion: 1 });
		expect(result.outputs).toHaveLength(1);
		expect(jsonOf(result).map((item) => item.reference_no ?? item.summary)).toEqual([
			'TREC-SUM-1',
			'TREC-SUM-2',
			true,
		]);
	});
});
