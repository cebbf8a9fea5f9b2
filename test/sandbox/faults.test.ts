import { startSandboxGateway, type SandboxGateway } from '../../sandbox';
import { call, collectionToken, disbursementToken, txBody, walletPayoutBody } from './helpers';

const GENERATE = '/v1/biller/transactions/generate';
const PROCESS = '/v1/api/disbursement/transactions/process';

describe('sandbox gateway: fault and latency injection', () => {
	let gw: SandboxGateway;
	let token: string;
	beforeAll(async () => {
		gw = await startSandboxGateway();
	});
	afterAll(() => gw.close());
	beforeEach(async () => {
		gw.reset();
		token = await collectionToken(gw);
	});

	const generate = (ref: string) => call(gw, 'POST', GENERATE, { token, body: txBody(ref) });

	it("error-before fails WITHOUT doing the work (500 {message:'Server Error'})", async () => {
		gw.faults.add({ path: GENERATE, mode: 'error-before', times: 1 });
		const res = await generate('F-EB');
		expect([res.status, res.body]).toEqual([500, { message: 'Server Error' }]);
		expect(gw.getTransaction('F-EB')).toBeUndefined();
		expect(gw.stats().attemptsByReference).toEqual({ 'F-EB': 1 });
		expect(gw.stats().creationsByReference).toEqual({});
		// times: 1 -> the retry with the same reference goes through
		expect((await generate('F-EB')).status).toBe(200);
		expect(gw.stats().creationsByReference).toEqual({ 'F-EB': 1 });
	});

	it('error-after does the work, then fails with the given status', async () => {
		gw.faults.add({ path: GENERATE, mode: 'error-after', status: 503, times: 1 });
		const res = await generate('F-EA');
		expect([res.status, res.body]).toEqual([503, { message: 'Server Error' }]);
		expect(gw.getTransaction('F-EA')).toMatchObject({ status: 'pending' });
		// a blind resend is now a definite rejection: the reference was used
		expect((await generate('F-EA')).status).toBe(422);
		expect(gw.stats().creationsByReference).toEqual({ 'F-EA': 1 });
		expect(gw.stats().attemptsByReference).toEqual({ 'F-EA': 2 });
	});

	it('drop-before closes the connection without doing the work', async () => {
		gw.faults.add({ path: GENERATE, mode: 'drop-before', times: 1 });
		await expect(generate('F-DB')).rejects.toThrow();
		expect(gw.getTransaction('F-DB')).toBeUndefined();
	});

	it('drop-after does the work, then closes the connection', async () => {
		const dis = await disbursementToken(gw);
		gw.faults.add({ method: 'POST', path: PROCESS, mode: 'drop-after', times: 1 });
		await expect(call(gw, 'POST', PROCESS, { token: dis, body: walletPayoutBody('F-DA') })).rejects.toThrow();
		expect(gw.getPayout('F-DA')).toMatchObject({ status: 'pending' });
		expect(gw.stats().creationsByReference).toEqual({ 'F-DA': 1 });
	});

	it('timeout-after does the work, holds the response for holdMs, then destroys the socket', async () => {
		gw.faults.add({ path: GENERATE, mode: 'timeout-after', holdMs: 300, times: 1 });
		const started = Date.now();
		await expect(generate('F-TO')).rejects.toThrow();
		expect(Date.now() - started).toBeGreaterThanOrEqual(280);
		expect(gw.getTransaction('F-TO')).toMatchObject({ status: 'pending' });
	});

	it('malformed does the work and answers 200 with a broken JSON body', async () => {
		gw.faults.add({ path: GENERATE, mode: 'malformed', times: 1 });
		const res = await generate('F-MF');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json');
		expect(res.text.length).toBeGreaterThan(0);
		expect(() => JSON.parse(res.text)).toThrow();
		expect(gw.getTransaction('F-MF')).toBeDefined();
	});

	it('latency rules and setLatency delay matching requests only', async () => {
		gw.faults.add({ path: '/v1/biller/channels', mode: 'latency', latencyMs: 300 });
		let t = Date.now();
		await call(gw, 'GET', '/v1/biller/channels', { token });
		expect(Date.now() - t).toBeGreaterThanOrEqual(290);
		t = Date.now();
		await generate('F-LAT');
		expect(Date.now() - t).toBeLessThan(250);
		gw.faults.clear();
		gw.setLatency(150);
		t = Date.now();
		await generate('F-LAT2');
		expect(Date.now() - t).toBeGreaterThanOrEqual(140);
		gw.setLatency(0);
	});

	it('matches by method and path prefix, and stops after `times`', async () => {
		gw.faults.add({ method: 'GET', path: '/v1/biller', mode: 'error-before', status: 502, times: 2 });
		expect((await generate('F-M1')).status).toBe(200);
		expect((await call(gw, 'GET', '/v1/biller/channels', { token })).status).toBe(502);
		expect((await call(gw, 'GET', '/v1/biller/transactions?reference_no=F-M1', { token })).status).toBe(502);
		expect((await call(gw, 'GET', '/v1/biller/channels', { token })).status).toBe(200);
	});

	it('a rule with referenceNo hits only requests whose body names that reference_no', async () => {
		gw.faults.add({ path: GENERATE, referenceNo: 'F-REF-SLOW', mode: 'error-before', status: 503 });
		expect((await generate('F-REF-OTHER')).status).toBe(200);
		expect((await generate('F-REF-SLOW')).status).toBe(503);
		expect(gw.getTransaction('F-REF-SLOW')).toBeUndefined();
		expect(() => gw.faults.add({ path: GENERATE, mode: 'latency', referenceNo: 7 as unknown as string })).toThrow('referenceNo must be a string.');
	});

	it('hits with a seeded probability reproducibly', async () => {
		const pattern = async (g: SandboxGateway, t: string) => {
			g.faults.add({ path: '/v1/biller/channels', mode: 'error-before', probability: 0.5, seed: 42 });
			const statuses: number[] = [];
			for (let i = 0; i < 20; i++) statuses.push((await call(g, 'GET', '/v1/biller/channels', { token: t })).status);
			return statuses;
		};
		const first = await pattern(gw, token);
		const other = await startSandboxGateway();
		try {
			const second = await pattern(other, await collectionToken(other));
			expect(second).toEqual(first);
			expect(first).toContain(500);
			expect(first).toContain(200);
		} finally {
			await other.close();
		}
	});

	it('refuses an invalid rule', () => {
		expect(() => gw.faults.add({ path: 'no-slash', mode: 'error-before' })).toThrow(/path/);
		expect(() => gw.faults.add({ path: '/', mode: 'explode' as never })).toThrow(/mode/);
		expect(() => gw.faults.add({ path: '/', mode: 'error-before', probability: 2 })).toThrow(/probability/);
	});
});

describe('sandbox gateway: close()', () => {
	it('does not wait for a held timeout-after response', async () => {
		const gw = await startSandboxGateway();
		const token = await collectionToken(gw);
		gw.faults.add({ path: GENERATE, mode: 'timeout-after' });
		const pending = call(gw, 'POST', GENERATE, { token, body: txBody('HOLD-1') }).then(
			() => 'answered',
			() => 'failed',
		);
		while (!gw.getTransaction('HOLD-1')) await new Promise((r) => setTimeout(r, 10));
		const started = Date.now();
		await gw.close();
		expect(Date.now() - started).toBeLessThan(1000);
		expect(await pending).toBe('failed');
	});
});
