/** A run's context (nodes/shared/runner/runContext.ts): made once per run, holding what the run reads once. */
import { runParameter } from '../../../nodes/shared/runner/itemValues';
import { startRun } from '../../../nodes/shared/runner/runContext';
import { handMadeContext } from '../../harness/handMadeContext';

describe('startRun', () => {
	test('holds the node version and nothing read yet', () => {
		const { ctx } = handMadeContext({ parameters: { channel: 'GCASH' }, typeVersion: 1 });
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
		const { ctx, reads } = handMadeContext({ parameters: { channel: 'GCASH' } });
		const first = startRun(ctx);
		expect([0, 1, 2].map((item) => runParameter(first, 'channel', item, ''))).toEqual([
			'GCASH',
			'GCASH',
			'GCASH',
		]);
		expect(reads).toEqual([['channel', 0]]);
		// The same n8n context in a new run: nothing is carried over from the first run.
		const second = startRun(ctx);
		runParameter(second, 'channel', 0, '');
		expect(reads).toEqual([
			['channel', 0],
			['channel', 0],
		]);
	});

	test('a plain column read is taken from the item itself, an expression per item from n8n', () => {
		const { ctx, reads } = handMadeContext({
			parameters: { amount: '={{ $json.amount }}', note: '={{ 1 + 1 }}' },
			items: [{ amount: 12 }],
		});
		const run = startRun(ctx);
		expect(runParameter(run, 'amount', 0, '')).toBe(12);
		runParameter(run, 'note', 0, '');
		runParameter(run, 'note', 1, '');
		expect(reads).toEqual([
			['note', 0],
			['note', 1],
		]);
	});
});
