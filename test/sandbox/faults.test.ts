import { request } from 'http';

import { startSandboxGateway, type SandboxGateway } from '../../sandbox';
import {
	call,
	collectionToken,
	disbursementToken,
	txBody,
	walletPayoutBody,
} from '../harness/sandboxCalls';
import { PAYOUT_PROCESS } from '../harness/servicePaths';

const GENERATE = '/v1/biller/transactions/generate';

/** A raw request: when the status arrived, and each body chunk with when it arrived (ms from the start). */
async function timedCall(
	gw: SandboxGateway,
	path: string,
	token: string,
	body: object,
	stopAfterBytes = Infinity,
): Promise<{
	status: number;
	headersAt: number;
	chunks: Array<{ at: number; bytes: number }>;
	text: string;
}> {
	const started = Date.now();
	const payload = JSON.stringify(body);
	return await new Promise((resolve, reject) => {
		const req = request(`${gw.url}${path}`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${token}`,
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(payload),
			},
		});
		req.on('error', reject);
		req.on('response', (res) => {
			const headersAt = Date.now() - started;
			const chunks: Array<{ at: number; bytes: number }> = [];
			const parts: Buffer[] = [];
			let received = 0;
			const done = () =>
				resolve({
					status: res.statusCode ?? 0,
					headersAt,
					chunks,
					text: Buffer.concat(parts).toString(),
				});
			res.on('data', (chunk: Buffer) => {
				chunks.push({ at: Date.now() - started, bytes: chunk.length });
				received += chunk.length;
				if (received <= 1024 * 1024) parts.push(chunk);
				if (received >= stopAfterBytes) {
					res.destroy();
					done();
				}
			});
			res.on('end', done);
		});
		req.end(payload);
	});
}

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

	it('an error body may quote the request: its request line, query and body as they arrived, the query re-encoded', async () => {
		gw.faults.add({
			path: '/v1/',
			mode: 'error-before',
			status: 500,
			body: {
				message: 'handling {{request_line}}',
				query: '{{query}}',
				form: '{{query_form}}',
				json: '{{query_json}}',
				body: '{{body}}',
			},
		});
		const query = 'username=u%20one&password=a%2Bb%7E%C3%A9';
		const res = await call(gw, 'POST', `/v1/biller/token/create?${query}`, {
			body: { password: 'a"b\\c' },
		});
		expect([res.status, res.body]).toEqual([
			500,
			{
				message: `handling POST /v1/biller/token/create?${query}`,
				query,
				form: 'username=u+one&password=a%2Bb%7E%C3%A9',
				json: '{"username":"u one","password":"a+b~é"}',
				body: '{"password":"a\\"b\\\\c"}',
			},
		]);
	});

	it('drop-before closes the connection without doing the work', async () => {
		gw.faults.add({ path: GENERATE, mode: 'drop-before', times: 1 });
		await expect(generate('F-DB')).rejects.toThrow();
		expect(gw.getTransaction('F-DB')).toBeUndefined();
	});

	it('drop-after does the work, then closes the connection', async () => {
		const dis = await disbursementToken(gw);
		gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, mode: 'drop-after', times: 1 });
		await expect(
			call(gw, 'POST', PAYOUT_PROCESS, { token: dis, body: walletPayoutBody('F-DA') }),
		).rejects.toThrow();
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
		gw.faults.add({
			method: 'GET',
			path: '/v1/biller',
			mode: 'error-before',
			status: 502,
			times: 2,
		});
		expect((await generate('F-M1')).status).toBe(200);
		expect((await call(gw, 'GET', '/v1/biller/channels', { token })).status).toBe(502);
		expect(
			(await call(gw, 'GET', '/v1/biller/transactions?reference_no=F-M1', { token })).status,
		).toBe(502);
		expect((await call(gw, 'GET', '/v1/biller/channels', { token })).status).toBe(200);
	});

	it('a rule with referenceNo hits only requests whose body names that reference_no', async () => {
		gw.faults.add({ path: GENERATE, referenceNo: 'F-REF-SLOW', mode: 'error-before', status: 503 });
		expect((await generate('F-REF-OTHER')).status).toBe(200);
		expect((await generate('F-REF-SLOW')).status).toBe(503);
		expect(gw.getTransaction('F-REF-SLOW')).toBeUndefined();
		expect(() =>
			gw.faults.add({ path: GENERATE, mode: 'latency', referenceNo: 7 as unknown as string }),
		).toThrow('referenceNo must be a string.');
	});

	it('hits with a seeded probability reproducibly', async () => {
		const pattern = async (g: SandboxGateway, t: string) => {
			g.faults.add({
				path: '/v1/biller/channels',
				mode: 'error-before',
				probability: 0.5,
				seed: 42,
			});
			const statuses: number[] = [];
			for (let i = 0; i < 20; i++)
				statuses.push((await call(g, 'GET', '/v1/biller/channels', { token: t })).status);
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
		expect(() => gw.faults.add({ path: '/', mode: 'error-before', probability: 2 })).toThrow(
			/probability/,
		);
	});

	it('trickle does the work, sends status and headers at once, then one byte every intervalMs', async () => {
		gw.faults.add({ path: GENERATE, mode: 'trickle', intervalMs: 2, times: 1 });
		const res = await timedCall(gw, GENERATE, token, txBody('F-TR'));
		expect(res.status).toBe(200);
		expect(gw.getTransaction('F-TR')).toMatchObject({ status: 'pending' });
		expect(res.headersAt).toBeLessThan(500);
		expect(res.chunks.every((chunk) => chunk.bytes === 1)).toBe(true);
		const bytes = Buffer.byteLength(res.text);
		// Each byte waits its interval: the body takes at least (bytes - 1) x 2 ms after the headers.
		expect(res.chunks[res.chunks.length - 1].at - res.headersAt).toBeGreaterThanOrEqual(
			(bytes - 1) * 2 * 0.9,
		);
		expect(JSON.parse(res.text)).toMatchObject({ data: { reference_no: 'F-TR' } });
	});

	it('trickle forever never completes the body, and stops when the client goes away', async () => {
		gw.faults.add({
			path: GENERATE,
			mode: 'trickle',
			intervalMs: 5,
			forever: true,
			status: 503,
			times: 1,
		});
		const res = await timedCall(gw, GENERATE, token, txBody('F-TF'), 60);
		expect(res.status).toBe(503);
		expect(res.text.startsWith('{"message":"')).toBe(true);
		expect(() => JSON.parse(res.text) as unknown).toThrow();
		expect((await generate('F-TF2')).status).toBe(200);
	});

	it('oversize streams a JSON body of sizeBytes with the given status', async () => {
		gw.faults.add({
			path: GENERATE,
			mode: 'oversize',
			sizeBytes: 3 * 1024 * 1024,
			status: 500,
			times: 1,
		});
		const res = await timedCall(gw, GENERATE, token, txBody('F-OS'));
		expect(res.status).toBe(500);
		expect(res.chunks.reduce((sum, chunk) => sum + chunk.bytes, 0)).toBe(3 * 1024 * 1024);
		expect(gw.getTransaction('F-OS')).toMatchObject({ status: 'pending' });
	});

	it('oversize stops writing when the client stops reading', async () => {
		gw.faults.add({ path: GENERATE, mode: 'oversize', sizeBytes: 512 * 1024 * 1024, times: 1 });
		const res = await timedCall(gw, GENERATE, token, txBody('F-OS2'), 256 * 1024);
		expect(res.status).toBe(200);
		expect((await generate('F-OS3')).status).toBe(200);
	});

	it('checks the new fields', () => {
		expect(() => gw.faults.add({ path: '/', mode: 'trickle', intervalMs: 0 })).toThrow(
			/intervalMs/,
		);
		expect(() => gw.faults.add({ path: '/', mode: 'trickle', forever: 'yes' as never })).toThrow(
			/forever/,
		);
		expect(() => gw.faults.add({ path: '/', mode: 'oversize', sizeBytes: -1 })).toThrow(
			/sizeBytes/,
		);
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
