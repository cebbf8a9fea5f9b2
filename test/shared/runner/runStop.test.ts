/** Stopping a run: errors after which nothing more is sent, and the run-wide guards that raise them (nodes/shared/runner/runStop.ts). */
import { NodeOperationError } from 'n8n-workflow';

import {
	isRunStopper,
	parseDryRun,
	quoted,
	readLimit,
	sameForEveryRow,
	stopRun,
} from '../../../nodes/shared/runner/runStop';
import {
	handMadeContext,
	testNode,
	type HandMadeContext,
	nodeErrorOf,
} from '../../harness/handMadeContext';

const node = testNode();

describe('stopRun and isRunStopper', () => {
	test('stopRun marks the error it is given and returns that same error', () => {
		const error = new Error('limit unreadable');
		expect(stopRun(error)).toBe(error);
		expect(isRunStopper(error)).toBe(true);
	});

	test('a node error is marked too', () => {
		const error = stopRun(new NodeOperationError(node, 'stop'));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(isRunStopper(error)).toBe(true);
	});

	test('marking one error marks no other, even one with the same message', () => {
		stopRun(new Error('same'));
		expect(isRunStopper(new Error('same'))).toBe(false);
	});

	test.each([['text'], [null], [undefined], [{ message: 'stop' }], [42]])(
		'%j is no run stopper',
		(value) => {
			expect(isRunStopper(value)).toBe(false);
		},
	);
});

describe('quoted', () => {
	test.each([
		['abc', '"abc"'],
		[' a ', '" a "'],
		[5, '"5"'],
		[0, '"0"'],
		[true, '"true"'],
		[false, '"false"'],
		['x'.repeat(50), `"${'x'.repeat(40)}"`],
		['', 'empty'],
		['   ', 'empty'],
		[null, 'empty'],
		[undefined, 'empty'],
		[{}, 'empty'],
		[[1], 'empty'],
	])('%j is quoted as %s', (raw, text) => {
		expect(quoted(raw)).toBe(text);
	});
});

describe('readLimit', () => {
	test.each([
		[20000, 20000],
		['20000', 20000],
		[' 20000 ', 20000],
		['20000.50', 20000.5],
		[0.5, 0.5],
		['0.01', 0.01],
		['007', 7],
	])('%j is the limit %p', (value, limit) => {
		expect(readLimit(value)).toBe(limit);
	});

	test.each([
		['20,000'],
		['₱20,000'],
		['PHP 20000'],
		['abc'],
		[-1],
		['-1'],
		[0],
		['0'],
		['0.00'],
		[''],
		['  '],
		[null],
		[undefined],
		[NaN],
		[Infinity],
		['Infinity'],
		['1e5'],
		[1e21],
		['.5'],
		['5.'],
		[true],
		[{}],
	])('%j is no limit: refused, never "no limit"', (value) => {
		expect(readLimit(value)).toBeUndefined();
	});
});

describe('parseDryRun', () => {
	test.each([
		[true, true],
		['true', true],
		['TRUE', true],
		[' True ', true],
		[false, false],
		['false', false],
		['FALSE', false],
		[' false\n', false],
	])('%j is %p', (raw, dryRun) => {
		expect(parseDryRun(node, 0, raw)).toBe(dryRun);
	});

	test.each([
		['yes', 'Dry Run is "yes", not true or false: nothing was sent'],
		[1, 'Dry Run is "1", not true or false: nothing was sent'],
		[0, 'Dry Run is "0", not true or false: nothing was sent'],
		['', 'Dry Run is empty, not true or false: nothing was sent'],
		[null, 'Dry Run is empty, not true or false: nothing was sent'],
		[undefined, 'Dry Run is empty, not true or false: nothing was sent'],
		['preview', 'Dry Run is "preview", not true or false: nothing was sent'],
	])('%j stops the run: %s', (raw, message) => {
		const error = nodeErrorOf(() => parseDryRun(node, 3, raw));
		expect(error.message).toBe(message);
		expect(error.context.itemIndex).toBe(3);
		expect(error.description).toBe(
			'Switch Dry Run on or off, or map a value that is true or false (such as a column holding TRUE or FALSE).',
		);
		expect(isRunStopper(error)).toBe(true);
	});

	const mode = { label: 'Mode', dryRun: 'preview', pay: 'pay' };

	test.each([
		['preview', true],
		['Preview', true],
		['PAY', false],
		[' pay ', false],
		[true, true],
		['false', false],
	])('with a Mode choice, %j is %p', (raw, dryRun) => {
		expect(parseDryRun(node, 0, raw, mode)).toBe(dryRun);
	});

	test.each([
		['maybe', 'Mode is "maybe", not pay or preview: nothing was sent'],
		['', 'Mode is empty, not pay or preview: nothing was sent'],
	])('with a Mode choice, %j stops the run: %s', (raw, message) => {
		const error = nodeErrorOf(() => parseDryRun(node, 0, raw, mode));
		expect(error.message).toBe(message);
		expect(error.description).toBe(
			'Choose Mode from the list, or map a value that is pay or preview.',
		);
		expect(isRunStopper(error)).toBe(true);
	});
});

describe('sameForEveryRow, reading a parameter through an execution context', () => {
	const readAll = ({ ctx }: HandMadeContext, name: string, label: string) =>
		sameForEveryRow(ctx.getNode(), ctx.getInputData().length, label, (itemIndex) =>
			ctx.getNodeParameter(name, itemIndex),
		);

	test.each([
		[[true]],
		[[true, true, true]],
		[[false, false]],
		[['20000', '20000', '20000', '20000']],
	])('rows %j agree: the value holds for the run, each row read once', (values) => {
		const context = handMadeContext({ perRow: { dryRun: values } });
		expect(readAll(context, 'dryRun', 'Dry Run')).toBe(values[0]);
		expect(context.reads).toEqual(values.map((_, row) => ['dryRun', row]));
	});

	test.each([
		[
			[true, false],
			2,
			'Dry Run is "true" for row 1 but "false" for row 2: it holds for the whole run, so nothing was sent',
		],
		[
			[true, true, false, true],
			3,
			'Dry Run is "true" for row 1 but "false" for row 3: it holds for the whole run, so nothing was sent',
		],
		[
			[true, ''],
			2,
			'Dry Run is "true" for row 1 but empty for row 2: it holds for the whole run, so nothing was sent',
		],
		[
			['20000', 20000],
			2,
			'Dry Run is "20000" for row 1 but "20000" for row 2: it holds for the whole run, so nothing was sent',
		],
	])('rows %j disagree at row %p: the run stops', (values, row, message) => {
		const context = handMadeContext({ perRow: { dryRun: values } });
		const error = nodeErrorOf(() => readAll(context, 'dryRun', 'Dry Run'));
		expect(error.message).toBe(message);
		expect(error.context.itemIndex).toBe(row - 1);
		expect(error.description).toBe(
			'Map a value that is the same for every row, or send the rows in separate runs.',
		);
		expect(isRunStopper(error)).toBe(true);
		expect(context.reads).toHaveLength(row);
	});

	test('a limit read for every row: rows agreeing on an unreadable limit give undefined for the run', () => {
		const { ctx } = handMadeContext({ perRow: { maxTotal: ['20,000', '20,000'] } });
		expect(
			sameForEveryRow(ctx.getNode(), 2, 'Maximum Total per Run', (itemIndex) =>
				readLimit(ctx.getNodeParameter('maxTotal', itemIndex)),
			),
		).toBeUndefined();
	});

	test('Dry Run read for every row through parseDryRun: a row that cannot be read stops the run first', () => {
		const { ctx } = handMadeContext({ perRow: { dryRun: [true, 'yes'] } });
		const error = nodeErrorOf(() =>
			sameForEveryRow(ctx.getNode(), ctx.getInputData().length, 'Dry Run', (itemIndex) =>
				parseDryRun(ctx.getNode(), itemIndex, ctx.getNodeParameter('dryRun', itemIndex)),
			),
		);
		expect(error.message).toBe('Dry Run is "yes", not true or false: nothing was sent');
		expect(error.context.itemIndex).toBe(1);
		expect(isRunStopper(error)).toBe(true);
	});
});
