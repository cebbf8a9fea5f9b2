/**
 * A service that breaks while answering a money-creating request, for both operations: a 2xx with
 * an HTML page for a body (a proxy's or a maintenance page), and a connection reset after the
 * status and half the body. The work may have been done, so the reference is looked up, never
 * resent blindly; when the look-up breaks the same way, the row says so and nothing is resent.
 */
import type { IDataObject } from 'n8n-workflow';

import { failOnce, moneyOperationsPerFile, type MoneyOperation } from '../harness/moneyOperations';

const ops = moneyOperationsPerFile('broken answers');
const NAMES = ['Generate', 'Payout Create'] as const;
const HTML = '<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>';

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;
const stats = (op: MoneyOperation) => op.setup.gw.stats();
const lookups = (op: MoneyOperation) => stats(op).requestsByPath[`GET ${op.lookupPath}`] ?? 0;
const NOT_JSON = 'The service answered with a body that is not valid JSON';

describe.each(NAMES)('%s', (name) => {
	const op = () => ops[name];

	test('a 2xx HTML page after the work: looked up, the record returned, never resent', async () => {
		const reference = ref('HTML');
		failOnce(op(), 'create', {
			mode: 'error-after',
			status: 200,
			html: HTML,
		});
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.outputs[0].map((item) => item.json)).toEqual([
			{ ...(op().record(reference) as IDataObject), replayed: false, recoveredAfter: NOT_JSON },
		]);
		expect(stats(op()).attemptsByReference[reference]).toBe(1);
		expect(lookups(op())).toBe(1);
	});

	test('a 2xx HTML page before the work: looked up, not found, resent once with the same reference', async () => {
		const reference = ref('HTML-BEFORE');
		failOnce(op(), 'create', {
			mode: 'error-before',
			status: 200,
			html: HTML,
		});
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.outputs[0][0].json).toMatchObject({
			reference_no: reference,
			replayed: false,
			recoveredAfter: NOT_JSON,
		});
		expect(stats(op()).attemptsByReference[reference]).toBe(2);
		expect(stats(op()).creationsByReference[reference]).toBe(1);
	});

	test('a connection reset after the status and half the body: looked up, never resent', async () => {
		const reference = ref('RESET');
		failOnce(op(), 'create', {
			mode: 'drop-after',
			partialBody: true,
		});
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: false });
		expect(result.outputs[0][0].json.recoveredAfter).toBe(
			`No answer from the ${op().label} service (the answer broke off before it was complete): check the Base URL and your network, or raise the Timeout option`,
		);
		expect(stats(op()).attemptsByReference[reference]).toBe(1);
		expect(lookups(op())).toBe(1);
	});

	test('the create and its look-up both answer an HTML page: the row says it could not confirm, nothing is resent', async () => {
		const reference = ref('BOTH');
		failOnce(op(), 'create', {
			mode: 'error-after',
			status: 200,
			html: HTML,
		});
		failOnce(op(), 'lookUp', {
			mode: 'error-before',
			status: 200,
			html: HTML,
		});
		const result = await op().run(
			op().parameters(),
			[op().row(reference, 10), op().row(ref('NEXT'), 10)],
			'continueRegularOutput',
		);
		expect(result.outputs[0][0].json).toMatchObject({
			error: `Could not confirm whether the ${op().noun} "${reference}" was created: ${NOT_JSON}; the look-up failed too (${NOT_JSON}) (row 1)`,
			errorDetails:
				'Running the workflow again is safe: the same reference_no is never paid twice, and an existing one is returned as a replay.',
		});
		expect(result.outputs[0][1].json).toMatchObject({ replayed: false });
		expect(stats(op()).attemptsByReference[reference]).toBe(1);
	});

	test('the look-up resets mid-body: the row says so, and nothing is resent', async () => {
		const reference = ref('LOOKUP-RESET');
		failOnce(op(), 'create', {
			mode: 'error-after',
			status: 502,
		});
		failOnce(op(), 'lookUp', {
			mode: 'drop-after',
			partialBody: true,
		});
		const result = await op().run(
			op().parameters(),
			[op().row(reference, 10)],
			'continueRegularOutput',
		);
		expect(String(result.outputs[0][0].json.error)).toMatch(
			new RegExp(
				`^Could not confirm whether the ${op().noun} "${reference}" was created: .*; the look-up failed too \\(.+\\) \\(row 1\\)$`,
			),
		);
		expect(stats(op()).attemptsByReference[reference]).toBe(1);
		expect(stats(op()).creationsByReference[reference]).toBe(1);
	});

	test('an answer slower than the Timeout option, the work done after the look-up: one record, never two', async () => {
		const reference = ref('SLOW');
		failOnce(op(), 'create', {
			mode: 'latency',
			latencyMs: 1500,
		});
		const result = await op().run(
			op().parameters({ timeoutSeconds: 1 }),
			[op().row(reference, 10)],
			'continueRegularOutput',
		);
		expect(result.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: false });
		expect(String(result.outputs[0][0].json.recoveredAfter)).toMatch(
			/no complete answer within the Timeout/,
		);
		// The slow request and the resend after an empty look-up: the service keeps the reference once.
		await new Promise((resolve) => setTimeout(resolve, 700));
		expect(stats(op()).creationsByReference[reference]).toBe(1);
	});
});
