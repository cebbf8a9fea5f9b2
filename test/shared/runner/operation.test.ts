/**
 * The Options an operation reads, and the run-wide guards of operations that create money
 * (nodes/shared/runner/operation.ts), through a hand-made execution context. A guard that cannot be
 * read stops the run: never "no limit", never "not a dry run".
 */

import {
	DRY_RUN_OPTION,
	clampConcurrency,
	readExecutionOptions,
	readOption,
	readRunGuards,
	readSafetyLimit,
} from '../../../nodes/shared/runner/operation';
import { startRun } from '../../../nodes/shared/runner/runContext';
import { isRunStopper } from '../../../nodes/shared/runner/runStop';
import {
	handMadeContext,
	type HandMadeContextSpec,
	nodeErrorOf,
} from '../../harness/handMadeContext';

const runOf = (spec: HandMadeContextSpec) => startRun(handMadeContext(spec).ctx);

describe('clampConcurrency', () => {
	test.each([
		[undefined, 8],
		[null, 8],
		[1, 1],
		[5, 5],
		['12', 12],
		[2.9, 2],
		[100, 100],
		[101, 100],
		[100000, 100],
		[0, 8],
		[-3, 8],
		[0.5, 8],
		['abc', 8],
		['', 8],
		[NaN, 8],
		[Infinity, 8],
		[{}, 8],
	])('%p runs %p requests at once', (value, concurrency) => {
		expect(clampConcurrency(value)).toBe(concurrency);
	});
});

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

describe('readExecutionOptions', () => {
	test.each([
		[{}, { concurrency: 8, timeoutMs: 30000, endpointPath: undefined }],
		[
			{ concurrency: 3, timeoutSeconds: 5, endpointPath: ' /v1/api/payouts ' },
			{ concurrency: 3, timeoutMs: 5000, endpointPath: '/v1/api/payouts' },
		],
		[{ timeoutSeconds: 0.5 }, { concurrency: 8, timeoutMs: 500, endpointPath: undefined }],
		[
			{ concurrency: 500, timeoutSeconds: 0 },
			{ concurrency: 100, timeoutMs: 30000, endpointPath: undefined },
		],
		[
			{ timeoutSeconds: -1, endpointPath: '   ' },
			{ concurrency: 8, timeoutMs: 30000, endpointPath: undefined },
		],
		[{ timeoutSeconds: 'soon' }, { concurrency: 8, timeoutMs: 30000, endpointPath: undefined }],
	])('Options %j run as %j', (options, expected) => {
		expect(readExecutionOptions(runOf({ parameters: { options } }))).toEqual(expected);
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

describe('readRunGuards', () => {
	test('no input items: nothing will be sent, nothing is read', () => {
		const context = handMadeContext({ parameters: { options: { dryRun: 'maybe' } }, items: [] });
		expect(readRunGuards(startRun(context.ctx))).toEqual({ dryRun: false });
		expect(context.reads).toEqual([]);
	});

	test.each([
		[{}, { dryRun: false, maxTotal: undefined }],
		[{ dryRun: true }, { dryRun: true, maxTotal: undefined }],
		[
			{ dryRun: 'TRUE', maxTotalPerRun: 20000 },
			{ dryRun: true, maxTotal: 20000 },
		],
		[
			{ dryRun: false, maxTotalPerRun: '300' },
			{ dryRun: false, maxTotal: 300 },
		],
	])('Options %j guard the run as %j', (options, guards) => {
		expect(readRunGuards(runOf({ parameters: { options }, items: [{}, {}] }))).toEqual(guards);
	});

	test.each<[unknown, unknown[] | undefined]>([
		['yes', undefined],
		['', undefined],
		[1, undefined],
		[null, undefined],
		['={{ $json.dry }}', ['perhaps']],
		['={{ $json.dry }}', [undefined]],
	])(
		'a Dry Run of %j (each row: %j) that cannot be read stops the run: it never becomes a live run',
		(dryRun, rows) => {
			const error = nodeErrorOf(() =>
				readRunGuards(
					runOf({
						parameters: { options: { dryRun } },
						...(rows ? { perRow: { 'options.dryRun': rows } } : {}),
					}),
				),
			);
			expect(error.message).toMatch(/^Dry Run is .*, not true or false: nothing was sent$/);
			expect(isRunStopper(error)).toBe(true);
		},
	);

	test('set by an expression, each row is read and they must agree', () => {
		const agreeing = handMadeContext({
			parameters: { options: { dryRun: '={{ $json.dry }}', maxTotalPerRun: '={{ $json.cap }}' } },
			perRow: {
				'options.dryRun': [true, true, true],
				'options.maxTotalPerRun': ['900', 900, '900'],
			},
		});
		expect(readRunGuards(startRun(agreeing.ctx))).toEqual({ dryRun: true, maxTotal: 900 });

		const error = nodeErrorOf(() =>
			readRunGuards(
				runOf({
					parameters: { options: { dryRun: '={{ $json.dry }}' } },
					perRow: { 'options.dryRun': [true, true, false] },
				}),
			),
		);
		expect(error.message).toBe(
			'Dry Run is "true" for row 1 but "false" for row 3: it holds for the whole run, so nothing was sent',
		);
		expect(isRunStopper(error)).toBe(true);
	});

	test('a limit differing between rows stops the run', () => {
		const error = nodeErrorOf(() =>
			readRunGuards(
				runOf({
					parameters: { options: { maxTotalPerRun: '={{ $json.cap }}' } },
					perRow: { 'options.maxTotalPerRun': [900, 1000] },
				}),
			),
		);
		expect(error.message).toBe(
			'Maximum Total per Run is "900" for row 1 but "1000" for row 2: it holds for the whole run, so nothing was sent',
		);
	});

	test('Dry Run read where the operation keeps it: a choice that stands for it', () => {
		const mode = {
			path: 'mode',
			fallback: 'pay',
			choice: { label: 'Mode', dryRun: 'preview', pay: 'pay' },
		};
		expect(readRunGuards(runOf({ parameters: { mode: 'preview' } }), mode)).toEqual({
			dryRun: true,
			maxTotal: undefined,
		});
		expect(readRunGuards(runOf({ parameters: {} }), mode).dryRun).toBe(false);
		const error = nodeErrorOf(() => readRunGuards(runOf({ parameters: { mode: 'later' } }), mode));
		expect(error.message).toMatch(/^Mode is "later"/);
		expect(isRunStopper(error)).toBe(true);
		expect(DRY_RUN_OPTION).toEqual({ path: 'options.dryRun', fallback: false });
	});
});
