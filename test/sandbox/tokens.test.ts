import { envelopeSchema, tokenSchema } from '../../nodes/shared/validation/schemas';
import { SANDBOX_CREDENTIALS, startSandboxGateway, type SandboxGateway } from '../../sandbox';
import {
	call,
	collectionToken,
	collectionTokenPath,
	disbursementToken,
	sleep,
} from '../harness/sandboxCalls';

describe('sandbox gateway: tokens and authentication', () => {
	let gw: SandboxGateway;
	beforeAll(async () => {
		gw = await startSandboxGateway();
	});
	afterAll(() => gw.close());
	beforeEach(() => gw.reset());

	it('issues a collection token with X-Server: 1 and query credentials (2.5 shape)', async () => {
		const res = await call(gw, 'POST', collectionTokenPath(), { headers: { 'X-Server': '1' } });
		expect(res.status).toBe(200);
		const env = envelopeSchema.parse(res.body);
		expect(env.message).not.toBe('');
		const token = tokenSchema.parse(env.data);
		expect(token).toEqual({ token: expect.any(String), type: 'Bearer', expires_in: 3600 });
		expect(gw.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	});

	it.each([
		['without the X-Server header', collectionTokenPath(), {}],
		['with X-Server other than 1', collectionTokenPath(), { 'X-Server': '2' }],
		[
			'with a wrong password',
			collectionTokenPath({ username: SANDBOX_CREDENTIALS.collection.username, password: 'nope' }),
			{ 'X-Server': '1' },
		],
		[
			'with the disbursement credentials',
			collectionTokenPath(SANDBOX_CREDENTIALS.disbursement),
			{ 'X-Server': '1' },
		],
	])('refuses a collection token %s (401 with message)', async (_label, path, headers) => {
		const res = await call(gw, 'POST', path, { headers });
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ message: expect.any(String) });
	});

	it('refuses collection credentials sent in a JSON body instead of the query', async () => {
		const res = await call(gw, 'POST', '/v1/biller/token/create', {
			headers: { 'X-Server': '1' },
			body: SANDBOX_CREDENTIALS.collection,
		});
		expect(res.status).toBe(401);
		expect(res.body.data).toBeUndefined();
	});

	it('issues a disbursement token from a JSON body, 401 on wrong, 422 on missing fields', async () => {
		const good = await call(gw, 'POST', '/v1/auth/token', {
			body: SANDBOX_CREDENTIALS.disbursement,
		});
		expect(good.status).toBe(200);
		expect(tokenSchema.parse(good.body.data)).toMatchObject({ type: 'Bearer', expires_in: 3600 });

		const wrong = await call(gw, 'POST', '/v1/auth/token', {
			body: { username: 'sandbox-disburser', password: 'x' },
		});
		expect(wrong.status).toBe(401);
		expect(wrong.body).toEqual({ message: expect.any(String) });

		const missing = await call(gw, 'POST', '/v1/auth/token', { body: {} });
		expect(missing.status).toBe(422);
		expect(missing.body).toEqual({
			message: 'The username field is required. (and 1 more error)',
			errors: {
				username: ['The username field is required.'],
				password: ['The password field is required.'],
			},
		});
	});

	it('answers 401 Unauthenticated. for a missing, invalid, cross-interface or expired token', async () => {
		const col = await collectionToken(gw);
		const dis = await disbursementToken(gw);
		const unauth = { message: 'Unauthenticated.' };
		const cases: Array<[string, string | undefined]> = [
			['/v1/biller/channels', undefined],
			['/v1/biller/channels', 'not-a-token'],
			['/v1/biller/channels', dis],
			['/v1/api/banks', undefined],
			['/v1/api/banks', 'not-a-token'],
			['/v1/api/banks', col],
		];
		for (const [path, token] of cases) {
			const res = await call(gw, 'GET', path, { token });
			expect([path, res.status, res.body]).toEqual([path, 401, unauth]);
		}
		expect((await call(gw, 'GET', '/v1/biller/channels', { token: col })).status).toBe(200);
		expect((await call(gw, 'GET', '/v1/api/banks', { token: dis })).status).toBe(200);

		gw.expireTokens();
		expect((await call(gw, 'GET', '/v1/biller/channels', { token: col })).body).toEqual(unauth);
		expect((await call(gw, 'GET', '/v1/api/banks', { token: dis })).status).toBe(401);
	});

	it('counts token requests per interface, refused ones included', async () => {
		await collectionToken(gw);
		await collectionToken(gw);
		await call(gw, 'POST', collectionTokenPath(), {});
		await disbursementToken(gw);
		expect(gw.stats().tokenRequests).toEqual({ collection: 3, disbursement: 1 });
	});

	it('expires tokens after tokenLifetimeSeconds', async () => {
		const short = await startSandboxGateway({ tokenLifetimeSeconds: 0.3 });
		try {
			const res = await call(short, 'POST', collectionTokenPath(), {
				headers: { 'X-Server': '1' },
			});
			const token = res.body.data.token;
			expect((await call(short, 'GET', '/v1/biller/channels', { token })).status).toBe(200);
			await sleep(400);
			expect((await call(short, 'GET', '/v1/biller/channels', { token })).status).toBe(401);
		} finally {
			await short.close();
		}
	});

	it('accepts overridden credentials', async () => {
		const custom = await startSandboxGateway({
			credentials: { disbursement: { username: 'u', password: 'p' } },
		});
		try {
			expect(
				(await call(custom, 'POST', '/v1/auth/token', { body: { username: 'u', password: 'p' } }))
					.status,
			).toBe(200);
			expect(
				(await call(custom, 'POST', '/v1/auth/token', { body: SANDBOX_CREDENTIALS.disbursement }))
					.status,
			).toBe(401);
		} finally {
			await custom.close();
		}
	});
});
