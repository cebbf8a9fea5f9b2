/** A run's context (nodes/shared/runner/runContext.ts): made once per run, holding what the run reads once. */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { runParameter } from '../../../nodes/shared/runner/itemValues';
import { startRun } from '../../../nodes/shared/runner/runContext';

/** A hand-made execution context: the node, one input item, and a count of parameter reads. */
function contextOf(parameters: INode['parameters'], typeVersion = 2) {
	const node: INode = {
		id: 'payout-1',
		name: 'Payout',
		type: 'disbursement',
		typeVersion,
		position: [0, 0],
		parameters,
	};
	const reads: string[] = [];
	const ctx = {
		getNode: () => node,
		getInputData: () => [{ json: { amount: 12 } }],
		getNodeParameter: (name: string) => {
			reads.push(name);
			return parameters[name];
		},
	} as unknown as IExecuteFunctions;
	return { ctx, reads };
}

describe('startRun', () => {
	test('holds the node version and nothing read yet', () => {
		const { ctx } = contextOf({ channel: 'GCASH' }, 1);
		const run = startRun(ctx);
		expect(run.ctx).toBe(ctx);
		expect(run.nodeVersion).toBe(1);
		expect(run.credentials.size).toBe(0);
		expect(run.parameters.values.size).toBe(0);
		expect([run.signingKey, run.bankList, run.payoutChannels]).toEqual([
			undefined,
			undefined,
			undefined,
		]);
	});

	test('a parameter without an expression is read once per run, and again by the next run', () => {
		const { ctx, reads } = contextOf({ channel: 'GCASH' });
		const first = startRun(ctx);
		expect([0, 1, 2].map((item) => runParameter(first, 'channel', item, ''))).toEqual([
			'GCASH',
			'GCASH',
			'GCASH',
		]);
		expect(reads).toEqual(['channel']);
		// The same n8n context in a new run: nothing is carried over from the first run.
		const second = startRun(ctx);
		runParameter(second, 'channel', 0, '');
		expect(reads).toEqual(['channel', 'channel']);
	});

	test('a plain column read is taken from the item itself, an expression per item from n8n', () => {
		const { ctx, reads } = contextOf({ amount: '={{ $json.amount }}', note: '={{ 1 + 1 }}' });
		const run = startRun(ctx);
		expect(runParameter(run, 'amount', 0, '')).toBe(12);
		runParameter(run, 'note', 0, '');
		runParameter(run, 'note', 1, '');
		expect(reads).toEqual(['note', 'note']);
	});
});
