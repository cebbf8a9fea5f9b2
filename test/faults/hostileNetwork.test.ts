/**
 * A hostile network between the node and the service: redirects, answers trickled a byte at a
 * time, answers far larger than any real one, and token endpoints that fail. Every request has a
 * wall-clock deadline and a size cap, nothing is ever re-sent to where a redirect points, and a
 * token step that fails stops the run. Each case runs in n8n's engine against the sandbox.
 */
import type { IDataObject, INodeParameters, OnError } from 'n8n-workflow';

import {
	SANDBOX_CREDENTIALS,
	startSandboxGateway,
	type FaultRule,
	type SandboxGateway,
} from '../../sandbox';
import { testCredential } from '../harness';
import { moneyOperationsPerFile, type MoneyOperation } from '../harness/moneyOperations';

const sandboxLog: string[] = [];
const ops = moneyOperationsPerFile('hostile network', { log: (line) => sandboxLog.push(line) });
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;
const requests = (op: MoneyOperation) => op.setup.gw.stats().requestsByPath;
const tokenRequests = (op: MoneyOperation) => requests(op)[`POST ${op.tokenPath}`] ?? 0;
const login = (op: MoneyOperation) =>
	SANDBOX_CREDENTIALS[op.name === 'Generate' ? 'collection' : 'disbursement'];

/** Slack on every wall-clock bound, for a machine shared with other test runs. */
const SLACK_MS = 3_000;
/** The answer size cap the package states (docs/endpoints.md). */
const CAP = 'larger than 1 MiB';

/**
 * A credential of its own login, so the run starts without a stored token and no token fetched
 * moments ago for the same login is reused. Only for token endpoints played by a fault rule.
 */
function freshCredential(op: MoneyOperation): string {
	const { username, password } = login(op);
	return op.setup.store.add(op.credentialType, {
		environment: 'sandbox',
		baseUrl: op.setup.gw.url,
		username: `${username}-${++counter}`,
		password,
	}).id;
}

async function runWith(
	op: MoneyOperation,
	parameters: INodeParameters,
	items: IDataObject[],
	options: { onError?: OnError; credentialId?: string } = {},
) {
	return await op.run(parameters, items, options.onError, options.credentialId);
}

/** A fault rule on the operation's create, look-up or token endpoint. */
function fault(
	op: MoneyOperation,
	where: 'create' | 'lookup' | 'token',
	rule: Omit<FaultRule, 'path' | 'method'>,
): void {
	const path = { create: op.createPath, lookup: op.lookupPath, token: op.tokenPath }[where];
	op.setup.gw.faults.add({ ...rule, path, method: where === 'lookup' ? 'GET' : 'POST' });
}

async function timed<T>(work: Promise<T>): Promise<{ result: T; ms: number }> {
	const started = Date.now();
	const result = await work;
	return { result, ms: Date.now() - started };
}

/** Get by reference, for either operation's interface. */
const getParameters = (op: MoneyOperation, timeoutSeconds: number): INodeParameters => ({
	resource: op.name === 'Generate' ? 'transaction' : 'payout',
	operation: 'get',
	referenceNo: '={{ $json.ref }}',
	options: { timeoutSeconds },
});

/** The list each node offers: channels (Payment Collection), banks (Disbursement). */
const listParameters = (op: MoneyOperation): { parameters: INodeParameters; path: string } =>
	op.name === 'Generate'
		? {
				parameters: { resource: 'channel', operation: 'getMany', returnAll: true },
				path: '/v1/biller/channels',
			}
		: {
				parameters: { resource: 'bank', operation: 'getMany', returnAll: true },
				path: '/v1/api/banks',
			};

describe('1. no redirect is ever followed', () => {
	let elsewhere: SandboxGateway;
	beforeAll(async () => {
		elsewhere = await startSandboxGateway();
	});
	afterAll(async () => await elsewhere.close());
	beforeEach(() => elsewhere.resetStats());
	const elsewhereHost = () => new URL(elsewhere.url).host;

	describe.each(NAMES)('%s', (name) => {
		const op = () => ops[name];

		test.each([301, 302, 307, 308])(
			'a %i from the token endpoint: nothing goes to the other host, the error names both',
			async (status) => {
				fault(op(), 'token', {
					mode: 'error-before',
					status,
					location: `${elsewhere.url}${op().tokenPath}`,
				});
				const result = await runWith(op(), op().parameters(), [op().row(ref('REDIR-TOKEN'), 10)], {
					onError: 'continueRegularOutput',
					credentialId: freshCredential(op()),
				});
				expect(elsewhere.stats().requestsByPath).toEqual({});
				expect(tokenRequests(op())).toBe(1);
				expect(requests(op())[`POST ${op().createPath}`]).toBeUndefined();
				expect(result.outputs[0][0].json.error).toBe(
					`The ${op().label} token request was redirected (HTTP ${status} to ${elsewhereHost()}) instead of answered: check the Base URL in the credential (https, host and no extra path). Redirects are not followed, so the password is never sent anywhere else (row 1)`,
				);
			},
		);

		test('a 307 on a create and on a look-up: nothing is sent to the other host, the error names the status and host', async () => {
			fault(op(), 'create', {
				mode: 'error-before',
				status: 307,
				location: `${elsewhere.url}${op().createPath}`,
				times: 1,
			});
			const created = await runWith(op(), op().parameters(), [op().row(ref('REDIR-CREATE'), 10)], {
				onError: 'continueRegularOutput',
			});
			expect(String(created.outputs[0][0].json.error)).toContain(
				`redirected the request (HTTP 307 to ${elsewhereHost()})`,
			);

			fault(op(), 'lookup', {
				mode: 'error-before',
				status: 308,
				location: `${elsewhere.url}${op().lookupPath}`,
				times: 1,
			});
			const looked = await runWith(op(), getParameters(op(), 30), [{ ref: 'ANY-REF' }], {
				onError: 'continueRegularOutput',
			});
			expect(String(looked.outputs[0][0].json.error)).toContain(
				`redirected the request (HTTP 308 to ${elsewhereHost()})`,
			);
			expect(elsewhere.stats().requestsByPath).toEqual({});
		});

		test('the credential test against a redirecting token endpoint', async () => {
			fault(op(), 'token', {
				mode: 'error-before',
				status: 307,
				location: `${elsewhere.url}${op().tokenPath}`,
			});
			const tested = await testCredential(
				op().setup.store,
				op().credentialType,
				freshCredential(op()),
			);
			expect(tested.status).toBe('Error');
			expect(tested.message).toContain(`redirected (HTTP 307 to ${elsewhereHost()})`);
			expect(elsewhere.stats().requestsByPath).toEqual({});
		});
	});
});

describe('2. Timeout is a deadline from connect to the last byte', () => {
	describe.each(NAMES)('%s', (name) => {
		const op = () => ops[name];

		test('a create trickled a byte at a time with Timeout 2 s: the run ends in time and the look-up finds the one record', async () => {
			const reference = ref('TRICKLE-CREATE');
			fault(op(), 'create', { mode: 'trickle', intervalMs: 200, times: 1 });
			const { result, ms } = await timed(
				runWith(op(), op().parameters({ timeoutSeconds: 2 }), [op().row(reference, 10)]),
			);
			expect(ms).toBeLessThan(2_000 + SLACK_MS);
			expect(result.outputs[0][0].json).toMatchObject({ replayed: false, reference_no: reference });
			expect(String(result.outputs[0][0].json.recoveredAfter)).toContain(
				'no complete answer within the Timeout',
			);
			expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
		}, 30_000);

		test('a look-up trickled forever with Timeout 2 s: the item says so in time', async () => {
			fault(op(), 'lookup', { mode: 'trickle', intervalMs: 200, forever: true, times: 1 });
			const { result, ms } = await timed(
				runWith(op(), getParameters(op(), 2), [{ ref: 'SLOW-REF' }], {
					onError: 'continueRegularOutput',
				}),
			);
			expect(ms).toBeLessThan(2_000 + SLACK_MS);
			expect(String(result.outputs[0][0].json.error)).toContain(
				'no complete answer within the Timeout',
			);
		}, 30_000);

		test('a token endpoint trickled forever with Timeout 2 s: the run ends in time and says so', async () => {
			fault(op(), 'token', { mode: 'trickle', intervalMs: 200, forever: true, status: 200 });
			const { result, ms } = await timed(
				runWith(
					op(),
					op().parameters({ timeoutSeconds: 2 }),
					[op().row(ref('TRICKLE-TOKEN'), 10)],
					{
						onError: 'continueRegularOutput',
						credentialId: freshCredential(op()),
					},
				),
			);
			expect(ms).toBeLessThan(2_000 + SLACK_MS);
			expect(String(result.outputs[0][0].json.error)).toContain(
				`The ${op().label} token request got no complete answer within`,
			);
			expect(requests(op())[`POST ${op().createPath}`]).toBeUndefined();
		}, 30_000);

		test('the credential test against a token endpoint trickled forever ends within the token deadline (30 s)', async () => {
			fault(op(), 'token', { mode: 'trickle', intervalMs: 500, forever: true, status: 200 });
			const { result, ms } = await timed(
				testCredential(op().setup.store, op().credentialType, freshCredential(op())),
			);
			expect(ms).toBeLessThan(30_000 + SLACK_MS);
			expect(result).toEqual({
				status: 'Error',
				message: `The ${op().label} token request got no complete answer within 30 seconds: check the Base URL and your network`,
			});
		}, 60_000);
	});
});

describe('2. answers have a size cap', () => {
	describe.each(NAMES)('%s', (name) => {
		const op = () => ops[name];
		const written = () =>
			sandboxLog
				.map((line) => /oversized: (\d+) of (\d+) bytes written/.exec(line))
				.filter((match) => match !== null)
				.map((match) => Number(match[1]));

		test.each([200, 500])(
			'a create answered %i with 64 MiB: unclear, looked up, the one record, the body not read',
			async (status) => {
				sandboxLog.length = 0;
				const reference = ref(`HUGE-${status}`);
				fault(op(), 'create', { mode: 'oversize', status, sizeBytes: 64 * 1024 * 1024, times: 1 });
				const result = await runWith(op(), op().parameters(), [op().row(reference, 10)]);
				expect(result.outputs[0][0].json).toMatchObject({
					replayed: false,
					reference_no: reference,
				});
				expect(String(result.outputs[0][0].json.recoveredAfter)).toContain(CAP);
				expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
				// The node stopped reading: the gateway could hand over only what socket buffers hold.
				await new Promise((resolve) => setTimeout(resolve, 100));
				expect(written()).toHaveLength(1);
				expect(written()[0]).toBeLessThan(16 * 1024 * 1024);
			},
			30_000,
		);

		test('a list answered with 64 MiB: an error naming the cap', async () => {
			sandboxLog.length = 0;
			const list = listParameters(op());
			op().setup.gw.faults.add({
				method: 'GET',
				path: list.path,
				mode: 'oversize',
				sizeBytes: 64 * 1024 * 1024,
				times: 1,
			});
			const result = await runWith(op(), list.parameters, [{}], {
				onError: 'continueRegularOutput',
			});
			expect(String(result.outputs[0][0].json.error)).toContain(CAP);
			await new Promise((resolve) => setTimeout(resolve, 100));
			expect(written()[0]).toBeLessThan(16 * 1024 * 1024);
		}, 30_000);
	});
});

describe('3. a token step that failed stops the run', () => {
	const failures: Array<[string, Omit<FaultRule, 'path' | 'method'>]> = [
		['a 5xx', { mode: 'error-before', status: 503 }],
		[
			'an empty token',
			{
				mode: 'error-before',
				status: 200,
				body: { message: 'ok', data: { token: '', expires_in: 3600 } },
			},
		],
		[
			'expires_in 0',
			{
				mode: 'error-before',
				status: 200,
				body: { message: 'ok', data: { token: 'abc', expires_in: 0 } },
			},
		],
		[
			'expires_in -5',
			{
				mode: 'error-before',
				status: 200,
				body: { message: 'ok', data: { token: 'abc', expires_in: -5 } },
			},
		],
		['data null', { mode: 'error-before', status: 200, body: { message: 'ok', data: null } }],
		['a redirect', { mode: 'error-before', status: 307, location: 'http://127.0.0.1:9/elsewhere' }],
		['a hang (Timeout 3 s)', { mode: 'timeout-after', holdMs: 120_000 }],
	];

	describe.each(NAMES)('%s', (name) => {
		const op = () => ops[name];

		test.each(failures)(
			'200 rows at Concurrency 8 with continue-on-fail, token endpoint gives %s: at most 2 token requests',
			async (_what, rule) => {
				fault(op(), 'token', rule);
				const rows = Array.from({ length: 200 }, () => op().row(ref('TOKEN-FAIL'), 10));
				const options = {
					concurrency: 8,
					...(rule.mode === 'timeout-after' ? { timeoutSeconds: 3 } : {}),
				};
				const result = await runWith(op(), op().parameters(options), rows, {
					onError: 'continueRegularOutput',
					credentialId: freshCredential(op()),
				});
				expect(tokenRequests(op())).toBeLessThanOrEqual(2);
				expect(requests(op())[`POST ${op().createPath}`]).toBeUndefined();
				const errors = result.outputs[0].map((item) => String(item.json.error));
				expect(errors).toHaveLength(200);
				expect(errors.every((error, i) => error.endsWith(`(row ${i + 1})`))).toBe(true);
				const notSent = errors.filter((error) =>
					error.startsWith('Not sent, because the run stopped: '),
				);
				expect(notSent.length).toBeGreaterThanOrEqual(200 - 8);
			},
			60_000,
		);

		test('a hanging token endpoint with 16 rows at Concurrency 8 ends within about the token deadline, not one per wave', async () => {
			fault(op(), 'token', { mode: 'timeout-after', holdMs: 120_000 });
			const rows = Array.from({ length: 16 }, () => op().row(ref('TOKEN-HANG'), 10));
			const { result, ms } = await timed(
				runWith(op(), op().parameters({ concurrency: 8, timeoutSeconds: 5 }), rows, {
					onError: 'continueRegularOutput',
					credentialId: freshCredential(op()),
				}),
			);
			expect(ms).toBeLessThan(5_000 + SLACK_MS);
			expect(tokenRequests(op())).toBeLessThanOrEqual(2);
			expect(result.outputs[0]).toHaveLength(16);
		}, 90_000);
	});
});
