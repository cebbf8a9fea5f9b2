/**
 * Dry Run (nodes/shared/runner/dryRun.ts): every row prepared as for a real run, nothing sent, per
 * row what would be sent, then one summary: rows, totals per channel to the centavo, the rows that
 * would fail and why, and whether the run is over its Maximum Total.
 */
import type { IDataObject } from 'n8n-workflow';

import { dryRunItems, totalOf } from '../../../nodes/shared/runner/dryRun';
import type { ItemPlan, Operation } from '../../../nodes/shared/runner/operation';
import { startRun } from '../../../nodes/shared/runner/runContext';
import type { Recipient } from '../../../nodes/shared/validation/recipient';
import { handMadeContext } from '../../harness/handMadeContext';

interface Row extends IDataObject {
	ref?: string;
	amount?: number;
	channel?: string;
	problem?: string;
	lookUp?: boolean;
}

/** An operation whose rows say what they create, or the problem preparing them meets. */
const payouts = (recipient?: Recipient): Operation => ({
	description: [],
	prepare(run, itemIndex): ItemPlan {
		const row = run.ctx.getInputData()[itemIndex].json as Row;
		if (row.problem) throw new Error(row.problem);
		if (row.lookUp)
			return {
				lookUp: { kind: 'payout', referenceNo: row.ref!, timeoutMs: 1000 },
				onNotFound: 'fail',
			};
		return {
			send: { endpoint: 'createPayout', body: { reference_no: row.ref } },
			creates: {
				kind: 'payout',
				referenceNo: row.ref!,
				amount: row.amount!,
				channel: row.channel!,
				...(recipient ? { recipient } : {}),
			},
		};
	},
});

/** The rows' items, then the summary: the two outputs dryRunItems gives, one after the other. */
const dryRun = (rows: Row[], maxTotal?: number, operation = payouts()) =>
	dryRunItems(startRun(handMadeContext({ items: rows }).ctx), operation, maxTotal).flat();

describe('dryRunItems', () => {
	test('gives the rows and the summary apart: one item per row, then one summary item', () => {
		const [rows, summary, ...more] = dryRunItems(
			startRun(handMadeContext({ items: [{ ref: 'P-1', amount: 100, channel: 'GCASH' }] }).ctx),
			payouts(),
			undefined,
		);
		expect([rows.length, summary.map((item) => item.json.summary), more]).toEqual([1, [true], []]);
	});

	test('one item per row with what would be sent, then the summary, totals exact to the centavo', () => {
		const items = dryRun([
			{ ref: 'P-1', amount: 0.1, channel: 'GCASH' },
			{ ref: 'P-2', amount: 0.2, channel: 'GCASH' },
			{ ref: 'P-3', amount: 1500.5, channel: 'BDO' },
		]);
		expect(items.map((item) => item.json)).toEqual([
			{ dryRun: true, row: 1, wouldSend: true, reference_no: 'P-1', channel: 'GCASH', amount: 0.1 },
			{ dryRun: true, row: 2, wouldSend: true, reference_no: 'P-2', channel: 'GCASH', amount: 0.2 },
			{
				dryRun: true,
				row: 3,
				wouldSend: true,
				reference_no: 'P-3',
				channel: 'BDO',
				amount: 1500.5,
			},
			{
				dryRun: true,
				summary: true,
				rows: 3,
				wouldSend: 3,
				wouldFail: 0,
				totalAmount: 1500.8,
				totalByChannel: { GCASH: 0.3, BDO: 1500.5 },
				failures: [],
			},
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			[{ item: 0 }, { item: 1 }, { item: 2 }],
		]);
	});

	test('a row that would fail says why, counts in the summary, and adds nothing to the totals', () => {
		const items = dryRun([
			{ ref: 'P-1', amount: 100, channel: 'GCASH' },
			{ problem: 'amount is "abc", not a number' },
		]);
		expect(items[1].json).toEqual({
			dryRun: true,
			row: 2,
			wouldSend: false,
			problem: 'amount is "abc", not a number',
		});
		expect(items[2].json).toMatchObject({
			rows: 2,
			wouldSend: 1,
			wouldFail: 1,
			totalAmount: 100,
			failures: [{ row: 2, problem: 'amount is "abc", not a number' }],
		});
	});

	test('a row repeating an earlier row exactly would send nothing: the earlier record answers it', () => {
		const items = dryRun([
			{ ref: 'P-1', amount: 100, channel: 'GCASH' },
			{ ref: 'P-1', amount: 100.0, channel: 'GCASH' },
		]);
		expect(items[1].json).toEqual({
			dryRun: true,
			row: 2,
			wouldSend: false,
			sameAsRow: 1,
			reference_no: 'P-1',
			channel: 'GCASH',
			amount: 100,
		});
		expect(items[2].json).toMatchObject({
			rows: 2,
			wouldSend: 1,
			sameAsEarlierRow: 1,
			wouldFail: 0,
			totalAmount: 100,
		});
	});

	test.each([
		[
			{ ref: 'P-1', amount: 200, channel: 'GCASH' },
			'for 100 on GCASH: this row asks for 200 on GCASH',
		],
		[
			{ ref: 'P-1', amount: 100, channel: 'MAYA' },
			'for 100 on GCASH: this row asks for 100 on MAYA',
		],
	])('a row repeating a reference for something else (%j) would fail', (second, says) => {
		const items = dryRun([{ ref: 'P-1', amount: 100, channel: 'GCASH' }, second]);
		expect(items[1].json).toEqual({
			dryRun: true,
			row: 2,
			wouldSend: false,
			problem: `reference_no "P-1" is also on row 1, ${says}`,
		});
		expect(items[2].json).toMatchObject({ wouldSend: 1, wouldFail: 1, totalAmount: 100 });
	});

	test('a reference differing from an earlier one only in case would fail', () => {
		const items = dryRun([
			{ ref: 'P-1', amount: 100, channel: 'GCASH' },
			{ ref: 'p-1', amount: 100, channel: 'GCASH' },
		]);
		expect(items[1].json).toMatchObject({
			wouldSend: false,
			problem: 'Reference No "p-1" differs from row 1\'s "P-1" only in case',
		});
	});

	test('a row whose plan creates nothing has no dry run', () => {
		const items = dryRun([{ ref: 'P-1', lookUp: true }]);
		expect(items[0].json).toEqual({
			dryRun: true,
			row: 1,
			wouldSend: false,
			problem: 'This operation creates nothing, so it has no dry run',
		});
	});

	test('who is paid is shown masked', () => {
		const items = dryRun(
			[{ ref: 'P-1', amount: 100, channel: 'INSTAPAY' }],
			undefined,
			payouts({
				kind: 'bankAccount',
				channel: 'INSTAPAY',
				bankCode: 'BDO',
				accountNumber: '001234567890',
			}),
		);
		expect(items[0].json.payee).toBe('BDO ••••••••7890');
	});

	test('text from a row reads one way in the payee, the totals and the problems', () => {
		const items = dryRun(
			[
				{ ref: 'P-1', amount: 100, channel: 'INSTAPAY\u202e' },
				{ ref: 'P-2', amount: 50, channel: 'INSTAPAY\u202e' },
				{ ref: 'P-1', amount: 70, channel: 'PESONET\u201d (Production)' },
			],
			undefined,
			payouts({
				kind: 'bankAccount',
				channel: 'INSTAPAY',
				bankCode: 'BDO\u2066\u200b"',
				accountNumber: '001234567890',
			}),
		);
		expect(items[0].json.payee).toBe('BDO{U+2066}{U+200B}{U+0022} ••••••••7890');
		expect(items[3].json).toMatchObject({
			totalByChannel: { 'INSTAPAY{U+202E}': 150 },
			failures: [
				{
					row: 3,
					problem:
						'reference_no "P-1" is also on row 1, for 100 on INSTAPAY{U+202E}: this row asks for 70 on PESONET{U+201D} (Production)',
				},
			],
		});
	});

	test.each([
		[1001, false],
		[1000.5, false],
		[1000.49, true],
		[1000, true],
	])('with a Maximum Total per Run of %p, 1000.50 sent is over it: %p', (maxTotal, over) => {
		const items = dryRun(
			[
				{ ref: 'P-1', amount: 500.25, channel: 'GCASH' },
				{ ref: 'P-2', amount: 500.25, channel: 'GCASH' },
			],
			maxTotal,
		);
		expect(items[2].json).toMatchObject({ maximumTotalPerRun: maxTotal, overMaximumTotal: over });
	});

	test('without a Maximum Total the summary says nothing of one', () => {
		const [, summary] = dryRun([{ ref: 'P-1', amount: 5, channel: 'GCASH' }]);
		expect(summary.json).not.toHaveProperty('maximumTotalPerRun');
		expect(summary.json).not.toHaveProperty('overMaximumTotal');
	});

	test('no rows: only the summary', () => {
		expect(dryRun([])).toEqual([
			{
				json: {
					dryRun: true,
					summary: true,
					rows: 0,
					wouldSend: 0,
					wouldFail: 0,
					totalAmount: 0,
					totalByChannel: {},
					failures: [],
				},
				pairedItem: [],
			},
		]);
	});
});

describe('totalOf', () => {
	test.each([
		[[], 0],
		[[0.1, 0.2], 0.3],
		[[1500.5, 0.25, 0.25], 1501],
		[[19.99, 0.01], 20],
		[[1e6, 1e6], 2e6],
	])('%j sum to %p', (amounts, total) => {
		expect(totalOf(amounts)).toBe(total);
	});
});
