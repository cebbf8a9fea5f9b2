/** Shared helpers of the sandbox gateway tests: real HTTP on 127.0.0.1 via fetch. */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { SANDBOX_CREDENTIALS, type SandboxGateway } from '../../sandbox';

/** A parsed JSON answer, read field by field by the tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' shapes are what the tests check
type JsonBody = any;

export interface ApiResponse {
	status: number;
	headers: Headers;
	text: string;
	body: JsonBody;
}

export async function call(
	gw: SandboxGateway | string,
	method: string,
	path: string,
	opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
	const base = typeof gw === 'string' ? gw : gw.url;
	const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
	if (opts.token) headers.authorization = `Bearer ${opts.token}`;
	let payload: string | undefined = opts.rawBody;
	if (opts.body !== undefined) {
		payload = JSON.stringify(opts.body);
		headers['content-type'] = 'application/json';
	}
	const res = await fetch(base + path, { method, headers, body: payload, redirect: 'manual' });
	const text = await res.text();
	let body: JsonBody;
	try {
		body = text === '' ? undefined : JSON.parse(text);
	} catch {
		body = undefined;
	}
	return { status: res.status, headers: res.headers, text, body };
}

export function collectionTokenPath(creds = SANDBOX_CREDENTIALS.collection): string {
	return `/v1/biller/token/create?username=${encodeURIComponent(creds.username)}&password=${encodeURIComponent(creds.password)}`;
}

export async function collectionToken(gw: SandboxGateway): Promise<string> {
	const res = await call(gw, 'POST', collectionTokenPath(), { headers: { 'X-Server': '1' } });
	if (res.status !== 200) throw new Error(`collection token: ${res.status} ${res.text}`);
	return res.body.data.token;
}

export async function disbursementToken(gw: SandboxGateway): Promise<string> {
	const res = await call(gw, 'POST', '/v1/auth/token', { body: SANDBOX_CREDENTIALS.disbursement });
	if (res.status !== 200) throw new Error(`disbursement token: ${res.status} ${res.text}`);
	return res.body.data.token;
}

export function txBody(
	referenceNo: string,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return { channel_code: 'GCASH_TRN', amount: 100, reference_no: referenceNo, ...extra };
}

export function bankPayoutBody(
	referenceNo: string,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		channel: 'INSTAPAY',
		amount: 1500.5,
		reference_no: referenceNo,
		fields: {
			bank_code: 'BDO',
			sender: { first_name: 'Maria', last_name: 'Santos' },
			receiver: {
				account_name: 'Juan Dela Cruz',
				account_number: '001234567890',
				type: 'INDIVIDUAL',
				gender: 'MALE',
			},
		},
		...extra,
	};
}

export function walletPayoutBody(
	referenceNo: string,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		channel: 'GCASH',
		amount: 250,
		reference_no: referenceNo,
		fields: { mobile_number: '09171234567' },
		...extra,
	};
}

export interface Received {
	body: JsonBody;
	headers: http.IncomingHttpHeaders;
	path: string;
}

/** A callback receiver on 127.0.0.1; `statuses` are answered in turn (then 200). */
export async function startReceiver(statuses: number[] = []): Promise<{
	url: string;
	received: Received[];
	waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
	close(): Promise<void>;
}> {
	const received: Received[] = [];
	const queue = [...statuses];
	const server = http.createServer((req, res) => {
		let data = '';
		req.on('data', (c) => (data += c));
		req.on('end', () => {
			received.push({ body: JSON.parse(data), headers: req.headers, path: req.url ?? '' });
			res.statusCode = queue.shift() ?? 200;
			res.end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		async waitFor(count, timeoutMs = 3000) {
			const deadline = Date.now() + timeoutMs;
			while (received.length < count) {
				if (Date.now() > deadline)
					throw new Error(`expected ${count} callbacks, got ${received.length}`);
				await sleep(10);
			}
			return received;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
