/**
 * The Options collection as a run reads it (nodes/shared/runner/options.ts), through a hand-made
 * execution context: one option, read once per run unless an expression sets it, and a safety
 * limit that stops the run when it is set but cannot be read: never "no limit".
 */

import { readOption, readSafetyLimit } from '../../../nodes/shared/runner/options';
import { startRun } from '../../../nodes/shared/runner/runContext';
import { isRunStopper } from '../../../nodes/shared/runner/runStop';
import {
	handMadeContext,
	type HandMadeContextSpec,
	nodeErrorOf,
} from '../../harness/handMadeContext';

const runOf = (spec: HandMadeContextSpec) => startRun(handMadeContext(spec).ctx);

describe('readOption', () => {
	test('one value of the Options collection, or the fallback when it is not set', () => {
		const run = runOf({ parameters: { options: { timeoutSeconds: 12 } } });
		expect(readOption(run, 'timeoutSeconds', 0, 30)).toBe(12);
		expect(readOption(run, 'concurrency', 0, 8)).toBe(8);
	});

	test('read once per run when fixed, per item when an expression sets it', () => {
		const fixed = handMadeContext({
			parameters: { options: { timeoutSeconds: 12 } },
			perRow: { x: [0, 0, 0] },
		});
		const run = startRun(fixed.ctx);
		[0, 1, 2].forEach((item) => readOption(run, 'timeoutSeconds', item, 30));
		expect(fixed.reads).toEqual([['options.timeoutSeconds', 0]]);

		const perItem = handMadeContext({
			parameters: { options: { timeoutSeconds: '={{ $json.t }}' } },
			perRow: { 'options.timeoutSeconds': [5, 6, 7] },
		});
		const second = startRun(perItem.ctx);
		expect([0, 1, 2].map((item) => readOption(second, 'timeoutSeconds', item, 30))).toEqual([
			5, 6, 7,
		]);
	});
});

describe('readSafetyLimit', () => {
	const read = (spec: HandMadeContextSpec, itemIndex = 0) =>
		readSafetyLimit(runOf(spec), itemIndex, 'maxTotalPerRun', 'Maximum Total per Run');

	test('an option that is not set is no limit', () => {
		expect(read({ parameters: {} })).toBeUndefined();
		expect(read({ parameters: { options: {} } })).toBeUndefined();
	});

	test.each([
		[20000, 20000],
		['20000', 20000],
		[' 1500.50 ', 1500.5],
	])('%j is a limit of %p', (value, limit) => {
		expect(read({ parameters: { options: { maxTotalPerRun: value } } })).toBe(limit);
	});

	test.each([
		['20,000', 'Maximum Total per Run is "20,000", not a positive number: nothing was sent'],
		['₱20000', 'Maximum Total per Run is "₱20000", not a positive number: nothing was sent'],
		['abc', 'Maximum Total per Run is "abc", not a positive number: nothing was sent'],
		[0, 'Maximum Total per Run is "0", not a positive number: nothing was sent'],
		[-5, 'Maximum Total per Run is "-5", not a positive number: nothing was sent'],
		['', 'Maximum Total per Run is empty, not a positive number: nothing was sent'],
		[null, 'Maximum Total per Run is empty, not a positive number: nothing was sent'],
	])('a set limit of %j that cannot be read stops the run', (value, message) => {
		const error = nodeErrorOf(() => read({ parameters: { options: { maxTotalPerRun: value } } }));
		expect(error.message).toBe(message);
		expect(error.description).toBe(
			'Write the limit as a plain number such as 20000 (no commas, currency signs or text), or remove the option to have no limit.',
		);
		expect(isRunStopper(error)).toBe(true);
	});

	test('an expression that comes out empty is a set limit that cannot be read, not an absent one', () => {
		const error = nodeErrorOf(() =>
			read(
				{
					parameters: { options: { maxTotalPerRun: '={{ $json.cap }}' } },
					perRow: { 'options.maxTotalPerRun': [5000, undefined] },
				},
				1,
			),
		);
		expect(error.message).toBe(
			'Maximum Total per Run is empty, not a positive number: nothing was sent',
		);
		expect(error.context.itemIndex).toBe(1);
		expect(isRunStopper(error)).toBe(true);
	});
});
