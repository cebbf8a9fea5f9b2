/**
 * Nothing from an unverified request reaches n8n's log beyond a short reason; logged values are
 * cut to 64 characters with control characters escaped; a failed look-up logs no secret, even
 * when the service echoes one.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { signCallback } from '../../nodes/shared/validation/signature';
import { SANDBOX_CREDENTIALS } from '../../sandbox';
import { COLLECTION, SECRET, callbackBody, trigger, setUpPerFile } from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

const s = setUpPerFile();

/** Every log line of the call as n8n would write it: message plus metadata. */
function logText(call: WebhookCall): string[] {
	return call.logs.map((line) => `${line.message} ${line.metadata}`);
}

const FLOOD = `${'x'.repeat(900 * 1024)}\n2026-11-23T10:00:00.000Z | info | Payment accepted`;

test('a 900 KB status with a forged log line: 400, one short log line, a short answer', async () => {
	const h = await trigger(s);
	const call = await h.post({ data: { reference_no: 'LS-1', amount: 1, status: FLOOD } });
	expect(call.statusCode).toBe(400);
	expect(call.executionStarted).toBe(false);
	expect(call.logs).toHaveLength(1);
	for (const line of logText(call)) {
		expect(line.length).toBeLessThan(500);
		expect(line).not.toContain('\n');
		expect(line).not.toContain('Payment accepted');
	}
	expect(call.logs[0].message).toMatch(
		/^Payment Gateway Trigger refused a callback \(HTTP 400\): status "x{64}\.\.\. \(\d+ characters\)" is not one of/,
	);
	expect(JSON.stringify(call.body).length).toBeLessThan(300);
});

test('an unverified request: its reference_no is not logged at all', async () => {
	const h = await trigger(s);
	const reference = 'LS-2\n2026-11-23T10:00:00.000Z | info | forged';
	const call = await h.post(
		callbackBody(reference, 100, 'completed', { secret: 'not-the-secret-1' }),
	);
	expect(call.statusCode).toBe(401);
	expect(call.logs).toHaveLength(1);
	expect(logText(call).join('\n')).not.toContain('LS-2');
});

test('a verified reference is logged cut to 64 characters, its control characters escaped', async () => {
	const h = await trigger(s, { statuses: ['completed'] });
	const reference = `LS-3\r\n${'r'.repeat(300)}`;
	const body = callbackBody(reference, 100, 'pending');
	body.data.signature = signCallback(SECRET, 100, reference);
	const call = await h.post(body);
	expect(call.body).toEqual({ message: 'Ignored: status pending' });
	const logged = JSON.parse(call.logs[0].metadata) as { reference_no: string };
	expect(logged.reference_no).toBe(`LS-3\\r\\n${'r'.repeat(58)}... (306 characters)`);
});

describe('a failed look-up logs no secret', () => {
	let broken: http.Server;
	let brokenUrl: string;
	const seen = { token: '', password: '' };

	beforeAll(async () => {
		// A broken service in front of the sandbox: the look-up fails with a body echoing the
		// bearer token and the password it was given.
		broken = http.createServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			if (url.pathname === '/v1/biller/transactions' && req.method === 'GET') {
				seen.token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({
						message: `Database error for ${seen.token} (${seen.password})`,
						token: seen.token,
					}),
				);
				return;
			}
			seen.password = url.searchParams.get('password') ?? seen.password;
			const upstream = http.request(
				`${s.gw.url}${req.url ?? '/'}`,
				{ method: req.method, headers: req.headers },
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			req.pipe(upstream);
		});
		await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', () => resolve()));
		brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => broken.close(() => resolve()));
	});

	test('503, and the logged reason holds neither the token nor the password', async () => {
		const credential = s.store.add(COLLECTION, {
			environment: 'sandbox',
			baseUrl: brokenUrl,
			...SANDBOX_CREDENTIALS.collection,
			signingSecret: SECRET,
		});
		const h = await trigger(
			s,
			{ confirmWithService: true },
			{ credentials: { [COLLECTION]: credential } },
		);
		const call = await h.post(callbackBody('LS-4', 100, 'completed'));
		expect(call.statusCode).toBe(503);
		expect(call.executionStarted).toBe(false);
		expect(seen.token.length).toBeGreaterThan(10);
		expect(seen.password).toBe(SANDBOX_CREDENTIALS.collection.password);
		const text = logText(call).join('\n');
		expect(text).toContain('refused a callback (HTTP 503): the service could not be asked');
		expect(text).not.toContain(seen.token);
		expect(text).not.toContain(seen.password);
	});
});
