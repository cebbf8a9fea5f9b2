/**
 * The execution options an operation reads, and the run-wide guards of operations that create
 * money (nodes/shared/runner/operation.ts), through a hand-made execution context. A guard that cannot be
 * read stops the run: never "no limit", never "not a dry run".
 */

import {
	DRY_RUN_OPTION,
	clampConcurrency,
	readExecutionOptions,
	readRunGuards,
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
