/**
 * The "Simplify" option applied to a node's output (nodes/shared/runner/simplifyOutput.ts): the
 * handful of fields a person or an AI agent acts on; failures and dry-run items left as they are.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { simplifyOutput, simplifyRecord } from '../../../nodes/shared/runner/simplifyOutput';
import { handMadeContext } from '../../harness/handMadeContext';

const transaction = {
	id: 981,
	reference_no: 'INV-1',
	status: 'PENDING',
	subtotal_amount: 1250.5,
	total_amount: 1270.5,
	channel: { code: 'GCASH', name: 'GCash' },
	web_payment_url: 'https://pay.example.ph/INV-1',
	expires_at: '2026-11-27T00:00:00+08:00',
	instructions: '# Pay with GCash\n...',
	customer: { name: 'Juan' },
};

describe('simplifyRecord', () => {
	test('a payment link keeps its reference, status, amount asked for, channel code, link, expiry and id, in order', () => {
		const simple = simplifyRecord(transaction);
		const expected = {
			reference_no: 'INV-1',
			status: 'PENDING',
			amount: 1250.5,
			channel: 'GCASH',
			web_payment_url: 'https://pay.example.ph/INV-1',
			expires_at: '2026-11-27T00:00:00+08:00',
			id: 981,
		};
		expect(simple).toEqual(expected);
		expect(Object.keys(simple)).toEqual(Object.keys(expected));
	});

	test.each([
		[
			{
				reference_no: 'P-1',
				amount: 500,
				subtotal_amount: 9,
				channel_code: 'BDO',
				status: 'SUCCESS',
				replayed: true,
			},
			{ reference_no: 'P-1', status: 'SUCCESS', amount: 500, channel: 'BDO', replayed: true },
		],
		[
			{ reference_no: 'P-2', amount: 0, channel: 'GCASH', replayed: false },
			{ reference_no: 'P-2', amount: 0, channel: 'GCASH', replayed: false },
		],
		[{ reference_no: 'P-3' }, { reference_no: 'P-3' }],
		[{}, {}],
	])('%j is cut down to %j', (record, simple) => {
		expect(simplifyRecord(record)).toEqual(simple);
	});
});

describe('simplifyOutput', () => {
	const items = (): INodeExecutionData[] => [
		{ json: { ...transaction }, pairedItem: { item: 0 } },
		{ json: { error: 'Not found (HTTP 404).' }, pairedItem: { item: 1 } },
		{ json: { dryRun: true, row: 3, wouldSend: true }, pairedItem: { item: 2 } },
		{ json: { reference_no: 'INV-4', amount: 4, extra: 'x' }, pairedItem: [{ item: 3 }] },
	];

	test('off (or not offered): the output is the same object', () => {
		for (const parameters of [{ simplify: false }, {}]) {
			const { ctx } = handMadeContext({ parameters });
			const outputs = [items()];
			expect(simplifyOutput(ctx, outputs)).toBe(outputs);
		}
	});

	test('on: each record is cut down; failures and dry-run items are left as they are; other outputs kept', () => {
		const { ctx, reads } = handMadeContext({ parameters: { simplify: true } });
		const errors = [{ json: { error: 'x' } }];
		const [main, rest] = simplifyOutput(ctx, [items(), errors]);
		expect(main.map((item) => item.json)).toEqual([
			simplifyRecord(transaction),
			{ error: 'Not found (HTTP 404).' },
			{ dryRun: true, row: 3, wouldSend: true },
			{ reference_no: 'INV-4', amount: 4 },
		]);
		expect(main.map((item) => item.pairedItem)).toEqual(items().map((item) => item.pairedItem));
		expect(rest).toBe(errors);
		// A fixed setting is read once.
		expect(reads).toEqual([['simplify', 0]]);
	});

	test('set by an expression: read for each item, by the input item it came from', () => {
		const { ctx, reads } = handMadeContext({
			parameters: { simplify: '={{ $json.short }}' },
			perRow: { simplify: [true, true, true, false] },
		});
		const [main] = simplifyOutput(ctx, [items()]);
		expect(main[0].json).toEqual(simplifyRecord(transaction));
		expect(main[3].json).toEqual({ reference_no: 'INV-4', amount: 4, extra: 'x' });
		expect(reads).toEqual([
			['simplify', 0],
			['simplify', 3],
		]);
	});

	test.each([['true'], [1], ['yes']])('only true turns it on, not %j', (value) => {
		const { ctx } = handMadeContext({ parameters: { simplify: value } });
		const outputs = [items()];
		expect(simplifyOutput(ctx, outputs)).toBe(outputs);
	});

	test('an empty output is returned as it is, nothing read', () => {
		const { ctx, reads } = handMadeContext({ parameters: { simplify: true } });
		const outputs: INodeExecutionData[][] = [[]];
		expect(simplifyOutput(ctx, outputs)).toBe(outputs);
		expect(simplifyOutput(ctx, [])).toEqual([]);
		expect(reads).toEqual([]);
	});
});
