/** Wallet, Bank and Authorization operations, and the bank dropdown of Payout > Create. */
import { AUTHORIZATIONS, BANKS, WALLETS } from '../../sandbox';
import {
	addCredential,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	loadBanks,
	pairs,
	run,
	setUp,
} from '../harness/disbursementRuns';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

describe('Wallet > Get Many', () => {
	test('returns every wallet with Return All, and up to the Limit otherwise', async () => {
		const all = await run(s, { resource: 'wallet', operation: 'getMany', returnAll: true });
		expect(jsonOf(all)).toEqual(WALLETS.map((wallet) => ({ ...wallet })));
		expect(pairs(all)).toEqual([0, 0, 0, 0]);
		expect(s.gw.lastRequest('/v1/api/wallets')?.query).toEqual({});

		const limited = await run(s, {
			resource: 'wallet',
			operation: 'getMany',
			returnAll: false,
			limit: 2,
		});
		expect(jsonOf(limited).map((w) => w.id)).toEqual(['WLT-MAIN', 'WLT-PAYROLL']);
	});

	test.each([
		['completed', ['WLT-MAIN', 'WLT-PAYROLL']],
		['pending', ['WLT-REFUNDS']],
		['cancelled', ['WLT-OLD']],
	])('status %s is sent as the filter', async (status, ids) => {
		const result = await run(s, {
			resource: 'wallet',
			operation: 'getMany',
			status,
			returnAll: true,
		});
		expect(s.gw.lastRequest('/v1/api/wallets')?.query).toEqual({ status });
		expect(jsonOf(result).map((w) => w.id)).toEqual(ids);
	});

	test('a status that is not one of the three is refused before any request', async () => {
		const result = await run(s, {
			resource: 'wallet',
			operation: 'getMany',
			status: '={{ "failed" }}',
		});
		expect(result.error?.message).toBe(
			'Status "failed" is not one of all, pending, completed, cancelled (row 1)',
		);
		expect(s.gw.stats().requestsByPath).toEqual({});
	});

	test('the Endpoint Path option replaces the assumed path', async () => {
		const result = await run(
			s,
			{
				resource: 'wallet',
				operation: 'getMany',
				options: { endpointPath: '/v1/api/merchant/wallets' },
			},
			{ onError: 'continueRegularOutput' },
		);
		expect(s.gw.stats().requestsByPath).toMatchObject({ 'GET /v1/api/merchant/wallets': 1 });
		expect(jsonOf(result)).toEqual([
			{
				error: 'Not found (HTTP 404). The service said: "Not found." (row 1)',
				itemIndex: 0,
				httpCode: 404,
			},
		]);
	});
});

describe('Wallet > Get Transactions', () => {
	test('filters by status and honours Return All and Limit', async () => {
		const all = await run(s, { resource: 'wallet', operation: 'getTransactions', returnAll: true });
		expect(jsonOf(all).length).toBeGreaterThanOrEqual(30);

		const cancelled = await run(s, {
			resource: 'wallet',
			operation: 'getTransactions',
			status: 'cancelled',
			returnAll: true,
		});
		expect(s.gw.lastRequest('/v1/api/wallets/transactions')?.query).toEqual({
			status: 'cancelled',
		});
		expect(jsonOf(cancelled).length).toBe(6);
		expect(jsonOf(cancelled).every((entry) => entry.status === 'cancelled')).toBe(true);

		const limited = await run(s, {
			resource: 'wallet',
			operation: 'getTransactions',
			status: 'completed',
			limit: 5,
		});
		expect(jsonOf(limited)).toHaveLength(5);
		expect(jsonOf(limited)[0]).toEqual({
			reference_no: 'WT-2026-0001',
			amount: expect.any(Number),
			type: 'credit',
			status: 'completed',
			description: 'Collection settlement',
			date: expect.stringMatching(/^2026-01-05T/),
		});
	});

	test('the default limit is 50, and each input item gets its own list', async () => {
		// 30 ledger entries plus 30 payouts: more than the default limit.
		const payouts = Array.from({ length: 30 }, (_, i) => ({
			ref: `WT-PAYOUT-${i}`,
			amount: 10 + i,
			mobile: '09171234567',
		}));
		await run(s, eWalletParameters(), { items: payouts });
		const everything = await run(s, {
			resource: 'wallet',
			operation: 'getTransactions',
			returnAll: true,
		});
		expect(jsonOf(everything)).toHaveLength(60);
		expect(
			jsonOf(everything).filter((entry) => String(entry.reference_no).startsWith('WT-PAYOUT-')),
		).toHaveLength(30);

		const result = await run(
			s,
			{ resource: 'wallet', operation: 'getTransactions' },
			{ items: [{}, {}] },
		);
		expect(pairs(result)).toEqual([...Array(50).fill(0), ...Array(50).fill(1)]);
		expect(jsonOf(result).slice(0, 50)).toEqual(jsonOf(everything).slice(0, 50));
	});
});

describe('Bank > Get Many', () => {
	test('returns the banks, limited or all', async () => {
		const all = await run(s, { resource: 'bank', operation: 'getMany', returnAll: true });
		expect(jsonOf(all)).toEqual(BANKS.map((bank) => ({ ...bank })));
		const three = await run(s, { resource: 'bank', operation: 'getMany', limit: 3 });
		expect(jsonOf(three)).toEqual(BANKS.slice(0, 3).map((bank) => ({ ...bank })));
	});
});

describe('bank dropdown of Payout > Create', () => {
	test("lists the sandbox's banks by name, with the code as value", async () => {
		const options = await loadBanks(s);
		expect(options).toHaveLength(BANKS.length);
		expect(options.map((o) => o.value).sort()).toEqual(BANKS.map((b) => b.code).sort());
		expect(options.find((o) => o.value === 'BDO')).toEqual({
			name: 'BDO Unibank, Inc.',
			value: 'BDO',
			description: 'Bank code BDO',
		});
		const names = options.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	test('a wrong password gives the credential message', async () => {
		const wrong = addCredential(s, { password: 'wrong-password-456' });
		await expect(loadBanks(s, wrong)).rejects.toThrow(
			/^The Disbursement credential was refused: check Username and Password/,
		);
		expect(s.gw.stats().requestsByPath['GET /v1/api/banks']).toBeUndefined();
	});
});

describe('Authorization > Get', () => {
	test('posts to the code path with the JSON body and returns the authorization', async () => {
		const result = await run(
			s,
			{
				resource: 'authorization',
				operation: 'get',
				code: '={{ $json.code }}',
				jsonBody: '{"purpose": "audit"}',
			},
			{ items: [{ code: 'AUTH-1002' }, { code: 'AUTH-1001' }] },
		);
		expect(jsonOf(result)).toEqual([AUTHORIZATIONS['AUTH-1002'], AUTHORIZATIONS['AUTH-1001']]);
		expect(pairs(result)).toEqual([0, 1]);
		const request = s.gw.lastRequest('/v1/api/authorization/');
		expect([request?.method, request?.path, request?.body]).toEqual([
			'POST',
			'/v1/api/authorization/AUTH-1001',
			{ purpose: 'audit' },
		]);
	});

	test('an unknown code is a clear 404', async () => {
		const result = await run(
			s,
			{ resource: 'authorization', operation: 'get', code: 'AUTH-9999' },
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(result)).toEqual([
			{
				error:
					'Authorization code "AUTH-9999" was not found (HTTP 404). The service said: "Authorization code not found." (row 1)',
				itemIndex: 0,
				errorDetails:
					'Check the code for typos and that it belongs to the account of this credential',
				httpCode: 404,
			},
		]);
	});

	test('a code cannot change the path, and a bad JSON body is refused before any request', async () => {
		s.gw.resetStats();
		const escaping = await run(
			s,
			{ resource: 'authorization', operation: 'get', code: '../wallets' },
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(escaping)).toEqual([
			{
				error: 'Code contains "/" or "\\" (also written %2F or %5C) (row 1)',
				errorDetails:
					'Give the code as the service issued it: letters, digits and signs, without "/", "\\" or control characters, and not "." or ".."',
				itemIndex: 0,
			},
		]);
		expect(s.gw.stats().requestsByPath).toEqual({});

		const bad = await run(
			s,
			{ resource: 'authorization', operation: 'get', code: 'AUTH-1001', jsonBody: '{oops' },
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(bad)).toEqual([{ error: 'Body (JSON) is not valid JSON (row 1)', itemIndex: 0 }]);
		expect(s.gw.stats().requestsByPath).toEqual({});
	});

	test('an empty code and a bad JSON body are both named at once', async () => {
		s.gw.resetStats();
		const bad = await run(
			s,
			{ resource: 'authorization', operation: 'get', code: ' ', jsonBody: '[1]' },
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(bad)).toEqual([
			{
				error:
					'2 fields to fix: Code is required; Body (JSON) must be a JSON object, e.g. {"email": "a@b.ph"} (row 1)',
				errorDetails:
					'- Code is required\n- Body (JSON) must be a JSON object, e.g. {"email": "a@b.ph"}',
				itemIndex: 0,
			},
		]);
		expect(s.gw.stats().requestsByPath).toEqual({});
	});
});
