/**
 * "Wait for Final Status" (nodes/shared/operations/waitForFinalStatus.ts): what the runner is told
 * to poll, read from the item. A value that is not a positive number is its default.
 */
import { waitForFinalStatusOperation } from '../../../nodes/shared/operations/waitForFinalStatus';
import { startRun } from '../../../nodes/shared/runner/runContext';
import { parseReferenceNo } from '../../../nodes/shared/validation/validation';
import { handMadeContext } from '../../harness/handMadeContext';

const operation = waitForFinalStatusOperation({
	show: { resource: ['transaction'], operation: ['waitForFinalStatus'] },
	kind: 'transaction',
	placeholder: 'INV-0001',
	parseReference: parseReferenceNo,
});
const prepare = (parameters: Record<string, unknown>) =>
	operation.prepare(
		startRun(handMadeContext({ parameters: { referenceNo: 'INV-0001', ...parameters } }).ctx),
		0,
	);

describe('waitForFinalStatusOperation', () => {
	test.each([
		[{}, { limitMs: 600000, firstMs: 5000, longestMs: 60000, timeoutMs: 30000 }],
		[
			{
				timeLimitMinutes: 2,
				options: { firstPollSeconds: 1, maxPollSeconds: 10, timeoutSeconds: 3 },
			},
			{ limitMs: 120000, firstMs: 1000, longestMs: 10000, timeoutMs: 3000 },
		],
		[
			{ timeLimitMinutes: 0.5 },
			{ limitMs: 30000, firstMs: 5000, longestMs: 60000, timeoutMs: 30000 },
		],
		[
			{ timeLimitMinutes: 0, options: { firstPollSeconds: -1, maxPollSeconds: 'soon' } },
			{ limitMs: 600000, firstMs: 5000, longestMs: 60000, timeoutMs: 30000 },
		],
		[
			{ timeLimitMinutes: 'abc', options: { firstPollSeconds: 'x', maxPollSeconds: 0 } },
			{ limitMs: 600000, firstMs: 5000, longestMs: 60000, timeoutMs: 30000 },
		],
	])('%j polls with %j', (parameters, timings) => {
		expect(prepare(parameters)).toEqual({
			poll: { kind: 'transaction', referenceNo: 'INV-0001', ...timings },
		});
	});

	test('the longest pause is never shorter than the first', () => {
		expect(prepare({ options: { firstPollSeconds: 90, maxPollSeconds: 30 } })).toMatchObject({
			poll: { firstMs: 90000, longestMs: 90000 },
		});
	});

	test('a reference the parser refuses fails the item', () => {
		expect(() => prepare({ referenceNo: '' })).toThrow();
	});
});
