// When the demo and the checks take an n8n for started and signed in, against a fake n8n over HTTP
// on 127.0.0.1 that answers as n8n does in each phase of its start-up (measured on 2.41.1): while
// it migrates its database, every request gets 200 and the text "n8n is starting up. Please wait";
// then 404 until its routes are registered; then JSON; a webhook's preflight is 204 whether or not
// its workflow is active yet, and lists the webhook's methods only once it is. A probe that took any 2xx for started,
// and a 200 from the owner set-up for signed in, fails five of these checks.
import http from 'http';
import type { AddressInfo } from 'net';
import { isServed } from '../../scripts/n8n/readiness';
import { N8nRest } from '../../scripts/n8n/rest';

type Phase = 'migrating' | 'routing' | 'ready';

const OWNER = { email: 'o@example.com', firstName: 'O', lastName: 'W', password: 'Pass-word-1' };
const WEBHOOK = '/webhook/abc/callback';
const COOKIE = 'n8n-auth=signed';

interface Reply {
	status: number;
	/** JSON when an object; text/html when a string. */
	body?: object | string;
	headers?: Record<string, string>;
}

/** What n8n answers `req` in `phase`; `setsCookie` false: its owner set-up sends no auth cookie. */
function n8nAnswer(
	req: http.IncomingMessage,
	{ phase, setsCookie }: { phase: Phase; setsCookie: boolean },
): Reply {
	if (phase === 'migrating') return { status: 200, body: 'n8n is starting up. Please wait' };
	if (phase === 'routing') return { status: 404, body: '<!DOCTYPE html>' };
	switch (`${req.method} ${req.url}`) {
		case 'GET /rest/settings':
			return { status: 200, body: { data: { settingsMode: 'public' } } };
		case 'GET /rest/login':
			return { status: 401, body: { message: 'Unauthorized' } };
		case 'POST /rest/owner/setup':
			return {
				status: 200,
				body: { data: { id: '1' } },
				headers: setsCookie ? { 'set-cookie': `${COOKIE}; Path=/` } : {},
			};
		case 'GET /rest/executions':
			return req.headers.cookie === COOKIE
				? { status: 200, body: { data: { results: [] } } }
				: { status: 401, body: { message: 'Unauthorized' } };
	}
	// n8n answers every webhook preflight 204; asked with an Origin, it lists the methods stored
	// for the path, only OPTIONS until the webhook's workflow is active.
	if (req.method === 'OPTIONS' && req.url?.startsWith('/webhook/')) {
		if (!req.headers.origin) return { status: 204 };
		const methods = req.url === WEBHOOK ? 'OPTIONS, POST' : 'OPTIONS';
		return { status: 204, headers: { 'access-control-allow-methods': methods } };
	}
	return { status: 404 };
}

function fakeN8n() {
	const state = { phase: 'migrating' as Phase, setsCookie: true };
	const server = http.createServer((req, res) => {
		req.resume();
		const { status, body, headers } = n8nAnswer(req, state);
		const isText = typeof body === 'string';
		const type = isText ? 'text/html' : 'application/json';
		res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, ...headers });
		res.end(body === undefined ? undefined : isText ? body : JSON.stringify(body));
	});
	return { server, state };
}

let fake: ReturnType<typeof fakeN8n>;
let url: string;

beforeAll(async () => {
	fake = fakeN8n();
	await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));
beforeEach(() => {
	fake.state.phase = 'migrating';
	fake.state.setsCookie = true;
});

const everyProbe = () =>
	Promise.all(['/rest/settings', '/rest/login', WEBHOOK].map((path) => isServed(`${url}${path}`)));

describe('an n8n still starting is not taken for started', () => {
	test('while it migrates: 200 "n8n is starting up" on every route is not ready', async () => {
		const res = await fetch(`${url}/rest/settings`);
		expect([res.status, await res.text()]).toEqual([200, 'n8n is starting up. Please wait']);
		expect(await everyProbe()).toEqual([false, false, false]);
	});

	test('before its routes are registered: 404 is not ready', async () => {
		fake.state.phase = 'routing';
		expect(await everyProbe()).toEqual([false, false, false]);
	});

	test('started: the REST API answers JSON (the sign-in route 401), the webhook lists POST in its preflight', async () => {
		fake.state.phase = 'ready';
		expect(await everyProbe()).toEqual([true, true, true]);
		expect(await isServed(`${url}/webhook/not-registered/callback`)).toBe(false);
	});

	test('nothing listening is not ready', async () => {
		expect(await isServed('http://127.0.0.1:9/rest/settings')).toBe(false);
	});
});

describe('the owner is signed in only with the auth cookie', () => {
	test('an owner set-up answered "n8n is starting up" is an error naming the route and the answer', async () => {
		await expect(new N8nRest(url).setupOwnerOrLogin(OWNER)).rejects.toThrow(
			'POST /rest/owner/setup answered 200: n8n is starting up. Please wait',
		);
	});

	test('an owner set-up answered 200 without the cookie is an error', async () => {
		fake.state.phase = 'ready';
		fake.state.setsCookie = false;
		await expect(new N8nRest(url).setupOwnerOrLogin(OWNER)).rejects.toThrow(
			'POST /rest/owner/setup answered 200 without the n8n-auth cookie',
		);
	});

	test('set up with the cookie, the next call is signed in', async () => {
		fake.state.phase = 'ready';
		const rest = new N8nRest(url);
		expect(await rest.setupOwnerOrLogin(OWNER)).toBe('created');
		expect(await rest.expectOk('GET', '/executions')).toEqual({ results: [] });
	});

	test('a 2xx without JSON is an error, not an empty answer', async () => {
		await expect(new N8nRest(url).expectOk('GET', '/executions')).rejects.toThrow(
			'GET /rest/executions answered 200: n8n is starting up',
		);
	});
});
