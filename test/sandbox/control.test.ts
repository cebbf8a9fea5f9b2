import { SANDBOX_CREDENTIALS, startSandboxGateway, type SandboxGateway } from '../../sandbox';
import {
	call,
	collectionToken,
	disbursementToken,
	startReceiver,
	txBody,
	walletPayoutBody,
} from '../harness/sandboxCalls';

const GENERATE = '/v1/biller/transactions/generate';

describe('sandbox gateway: counters and the HTTP control surface', () => {
	let gw: SandboxGateway;
	beforeAll(async () => {
		gw = await startSandboxGateway();
	});
	afterAll(() => gw.close());
	beforeEach(() => gw.reset());

	it('counts requests by method and path (no query), creations and attempts', async () => {
		const token = await collectionToken(gw);
		await call(gw, 'POST', GENERATE, { token, body: txBody('CNT-1') });
		await call(gw, 'POST', GENERATE, { token, body: txBody('CNT-1') });
		await call(gw, 'POST', GENERATE, { token, body: txBody('CNT-2', { amount: 0 }) });
		await call(gw, 'GET', '/v1/biller/transactions?reference_no=CNT-1', { token });
		await call(gw, 'GET', '/__sandbox/stats');
		expect(gw.stats()).toEqual({
			tokenRequests: { collection: 1, disbursement: 0 },
			requestsByPath: {
				'POST /v1/biller/token/create': 1,
				[`POST ${GENERATE}`]: 3,
				'GET /v1/biller/transactions': 1,
			},
			creationsByReference: { 'CNT-1': 1 },
			attemptsByReference: { 'CNT-1': 2, 'CNT-2': 1 },
			callbacksSent: 0,
		});
		gw.resetStats();
		expect(gw.stats().requestsByPath).toEqual({});
		expect(gw.getTransaction('CNT-1')).toBeDefined();
	});

	it('sets how much payout answers state over HTTP; an unknown mode is refused; reset restores the start option', async () => {
		const token = await disbursementToken(gw);
		const lookUp = async (ref: string) =>
			(await call(gw, 'GET', `/v1/api/disbursement/transactions?reference_no=${ref}`, { token }))
				.body.data.transactions[0] as Record<string, unknown>;
		await call(gw, 'POST', '/v1/api/disbursement/transactions/process', {
			token,
			body: walletPayoutBody('ANS-1'),
		});
		expect(Object.keys(await lookUp('ANS-1'))).toContain('fields');
		const refused = await call(gw, 'POST', '/__sandbox/payout-answers', {
			body: { answers: 'sparse' },
		});
		expect(refused.status).toBe(422);
		const set = await call(gw, 'POST', '/__sandbox/payout-answers', {
			body: { answers: 'documented-untimed' },
		});
		expect(set.status).toBe(200);
		expect(Object.keys(await lookUp('ANS-1')).sort()).toEqual([
			'amount',
			'channel',
			'reference_no',
			'status',
		]);
		gw.reset();
		const again = await disbursementToken(gw);
		await call(gw, 'POST', '/v1/api/disbursement/transactions/process', {
			token: again,
			body: walletPayoutBody('ANS-2'),
		});
		const afterReset = await call(
			gw,
			'GET',
			'/v1/api/disbursement/transactions?reference_no=ANS-2',
			{ token: again },
		);
		expect(Object.keys(afterReset.body.data.transactions[0] as object)).toContain('fields');
	});

	it('records the last request to a path prefix', async () => {
		const token = await disbursementToken(gw);
		await call(gw, 'POST', '/v1/api/authorization/AUTH-1001', { token, body: { note: 'x' } });
		expect(gw.lastRequestBody('/v1/api/authorization/')).toEqual({ note: 'x' });
		expect(gw.lastRequest('/v1/api/authorization')).toMatchObject({
			method: 'POST',
			path: '/v1/api/authorization/AUTH-1001',
		});
		expect(gw.lastRequestBody('/v1/auth/token')).toEqual(
			expect.objectContaining({ username: expect.any(String) }),
		);
		expect(gw.lastRequestBody('/nothing')).toBeUndefined();
	});

	it('drives faults, latency, tokens, settle, callbacks, stats and reset over HTTP', async () => {
		const receiver = await startReceiver();
		try {
			const token = await collectionToken(gw);
			const dis = await disbursementToken(gw);

			const added = await call(gw, 'POST', '/__sandbox/faults', {
				body: { path: '/v1/biller/channels', mode: 'error-before', status: 500, times: 1 },
			});
			expect(added.status).toBe(200);
			expect((await call(gw, 'GET', '/v1/biller/channels', { token })).status).toBe(500);
			expect(
				(await call(gw, 'POST', '/__sandbox/faults', { body: { path: '/x', mode: 'nope' } }))
					.status,
			).toBe(422);
			await call(gw, 'POST', '/__sandbox/faults', {
				body: { path: '/v1/biller/channels', mode: 'error-before' },
			});
			expect((await call(gw, 'DELETE', '/__sandbox/faults')).status).toBe(200);
			expect((await call(gw, 'GET', '/v1/biller/channels', { token })).status).toBe(200);

			expect((await call(gw, 'POST', '/__sandbox/latency', { body: { ms: 120 } })).status).toBe(
				200,
			);
			const t = Date.now();
			await call(gw, 'GET', '/v1/biller/channels', { token });
			expect(Date.now() - t).toBeGreaterThanOrEqual(110);
			await call(gw, 'POST', '/__sandbox/latency', { body: { ms: 0 } });
			expect((await call(gw, 'POST', '/__sandbox/latency', { body: { ms: 'slow' } })).status).toBe(
				422,
			);

			await call(gw, 'POST', '/v1/api/disbursement/transactions/process', {
				token: dis,
				body: walletPayoutBody('CTL-1', { callback_webhook_url: receiver.url }),
			});
			const settled = await call(gw, 'POST', '/__sandbox/settle', {
				body: { reference_no: 'CTL-1', status: 'completed' },
			});
			expect(settled.status).toBe(200);
			expect((await receiver.waitFor(1))[0].body.data.status).toBe('completed');
			expect(
				(
					await call(gw, 'POST', '/__sandbox/settle', {
						body: { reference_no: 'CTL-1', status: 'cancelled' },
					})
				).status,
			).toBe(409);
			expect(
				(
					await call(gw, 'POST', '/__sandbox/settle', {
						body: { reference_no: 'NOPE', status: 'completed' },
					})
				).status,
			).toBe(404);
			expect(
				(
					await call(gw, 'POST', '/__sandbox/settle', {
						body: { reference_no: 'CTL-1', status: 'failed' },
					})
				).status,
			).toBe(422);

			const callbacks = await call(gw, 'GET', '/__sandbox/callbacks');
			expect(callbacks.body.data.callbacks).toEqual([
				expect.objectContaining({ url: receiver.url, statusCode: 200, referenceNo: 'CTL-1' }),
			]);

			const stats = await call(gw, 'GET', '/__sandbox/stats');
			expect(stats.body.data).toMatchObject({
				tokenRequests: { collection: 1, disbursement: 1 },
				creationsByReference: { 'CTL-1': 1 },
				callbacksSent: 1,
			});

			expect((await call(gw, 'POST', '/__sandbox/expire-tokens')).status).toBe(200);
			expect((await call(gw, 'GET', '/v1/biller/channels', { token })).status).toBe(401);

			expect((await call(gw, 'POST', '/__sandbox/reset')).status).toBe(200);
			expect(gw.getPayout('CTL-1')).toBeUndefined();
			expect(gw.callbacks()).toEqual([]);
			expect(gw.stats().tokenRequests).toEqual({ collection: 0, disbursement: 0 });
			expect((await call(gw, 'GET', '/__sandbox/unknown')).status).toBe(404);
		} finally {
			await receiver.close();
		}
	});

	it('scripts an outcome over HTTP', async () => {
		const receiver = await startReceiver();
		try {
			expect(
				(
					await call(gw, 'POST', '/__sandbox/script', {
						body: { reference_no: 'CTL-S', status: 'cancelled', after_ms: 50 },
					})
				).status,
			).toBe(200);
			const token = await collectionToken(gw);
			await call(gw, 'POST', GENERATE, {
				token,
				body: txBody('CTL-S', { callback_webhook_url: receiver.url }),
			});
			expect((await receiver.waitFor(1))[0].body.data.status).toBe('cancelled');
		} finally {
			await receiver.close();
		}
	});

	it('logs one line per request without query strings, bodies or secrets', async () => {
		const lines: string[] = [];
		const logged = await startSandboxGateway({ log: (line) => lines.push(line) });
		try {
			await collectionToken(logged);
			await disbursementToken(logged);
			expect(lines).toEqual(
				expect.arrayContaining([
					expect.stringMatching(/^POST \/v1\/biller\/token\/create -> 200 \(\d+ ms\)$/),
					expect.stringMatching(/^POST \/v1\/auth\/token -> 200/),
				]),
			);
			const text = lines.join('\n');
			for (const secret of [
				SANDBOX_CREDENTIALS.collection.password,
				SANDBOX_CREDENTIALS.disbursement.password,
				SANDBOX_CREDENTIALS.signingSecret,
			]) {
				expect(text).not.toContain(secret);
			}
		} finally {
			await logged.close();
		}
	});
});
