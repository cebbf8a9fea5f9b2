/** Payout > Get and Payout > Repost Callback. */
import {
	addCredential,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	pairs,
	run,
	setUp,
} from '../harness/disbursementRuns';

const REPOST_KEY = 'POST /v1/api/disbursement/transactions/repost';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });
beforeAll(async () => {
	await run(s, eWalletParameters(), {
		items: [
			{ ref: 'LOOK-1', amount: 300, mobile: '09171234567' },
			{
				ref: 'LOOK-2',
				amount: 45.5,
				mobile: '09181234567',
				channel: 'PAYMAYA',
				callback: 'http://127.0.0.1:9/cb',
			},
		],
	});
});

describe('Payout > Get', () => {
	test('returns the payout of each reference_no, paired with its item', async () => {
		const result = await run(
			s,
			{ resource: 'payout', operation: 'get', referenceNo: '={{ $json.ref }}' },
			{
				items: [{ ref: 'LOOK-2' }, { ref: 'LOOK-1' }],
			},
		);
		expect(jsonOf(result)).toEqual([s.gw.getPayout('LOOK-2'), s.gw.getPayout('LOOK-1')]);
		expect(jsonOf(result)[0]).toMatchObject({
			reference_no: 'LOOK-2',
			channel: 'PAYMAYA',
			amount: 45.5,
			status: 'pending',
		});
		expect(pairs(result)).toEqual([0, 1]);
	});

	test('shows a final status once the service has one', async () => {
		await s.gw.settle('LOOK-1', 'completed');
		const result = await run(s, { resource: 'payout', operation: 'get', referenceNo: 'LOOK-1' });
		expect(jsonOf(result)[0]).toMatchObject({ reference_no: 'LOOK-1', status: 'completed' });
	});

	test('an unknown reference_no is a clear error', async () => {
		const result = await run(s, { resource: 'payout', operation: 'get', referenceNo: 'NOPE-404' });
		expect(result.error?.message).toBe('No payout has reference_no "NOPE-404" (row 1)');
		expect(result.error?.description).toMatch(/set Options > On Not Found to "Output Nothing"/);
	});

	test('"Output Nothing" skips an unknown reference_no and keeps the others', async () => {
		const result = await run(
			s,
			{
				resource: 'payout',
				operation: 'get',
				referenceNo: '={{ $json.ref }}',
				options: { onNotFound: 'outputNothing' },
			},
			{ items: [{ ref: 'NOPE-1' }, { ref: 'LOOK-2' }, { ref: 'NOPE-2' }] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((p) => p.reference_no)).toEqual(['LOOK-2']);
		expect(pairs(result)).toEqual([1]);
	});

	test('a malformed reference is refused before any request', async () => {
		const result = await run(
			s,
			{ resource: 'payout', operation: 'get', referenceNo: 'has space' },
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(result)).toEqual([
			{
				error:
					'Reference No "has space" contains characters other than letters, digits, "-" and "_" (row 1)',
				itemIndex: 0,
				errorDetails: 'Characters such as "#", ":" and spaces break the hosted payment page',
			},
		]);
		expect(s.gw.stats().requestsByPath).toEqual({});
	});
});

describe('Payout > Repost Callback', () => {
	test('in the sandbox it reposts, then a second repost gets the rate-limit message', async () => {
		const before = s.gw.callbacks().length;
		const first = await run(s, { resource: 'payout', operation: 'repost', referenceNo: 'LOOK-2' });
		expect(first.error).toBeUndefined();
		expect(jsonOf(first)).toEqual([
			{ reference_no: 'LOOK-2', status: 'pending', message: 'Callback reposted.' },
		]);
		expect(s.gw.lastRequestBody('/v1/api/disbursement/transactions/repost')).toEqual({
			reference_no: 'LOOK-2',
		});
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(s.gw.callbacks().length).toBeGreaterThan(before);

		const second = await run(
			s,
			{ resource: 'payout', operation: 'repost', referenceNo: 'LOOK-2' },
			{ onError: 'continueRegularOutput' },
		);
		const [item] = jsonOf(second);
		expect(item.httpCode).toBe(429);
		expect(item.error).toMatch(
			/^The service limits how often a callback can be reposted, and refused this one for "LOOK-2" \(HTTP 429\): wait a few seconds before reposting it again\. The service said: "Too many repost requests\. Try again in \d+ seconds\." \(row 1\)$/,
		);
		expect(s.gw.stats().requestsByPath[REPOST_KEY]).toBe(2);
	});

	test('a production credential is refused before any request', async () => {
		const production = addCredential(s, { environment: 'production' });
		const result = await run(
			s,
			{ resource: 'payout', operation: 'repost', referenceNo: 'LOOK-1' },
			{ credentialId: production },
		);
		expect(result.error?.message).toBe(
			'Repost Callback is available in the sandbox only, and this Disbursement credential\'s Environment is "production" (row 1)',
		);
		expect(result.error?.description).toMatch(/^Nothing was sent\./);
		expect(s.gw.stats().requestsByPath).toEqual({});
		expect(s.gw.stats().tokenRequests.disbursement).toBe(0);
	});

	test("an unknown reference is the service's 404", async () => {
		const result = await run(
			s,
			{ resource: 'payout', operation: 'repost', referenceNo: 'NOPE-9' },
			{ onError: 'continueRegularOutput' },
		);
		expect(jsonOf(result)).toEqual([
			{
				error: 'Not found (HTTP 404). The service said: "Transaction not found." (row 1)',
				itemIndex: 0,
				httpCode: 404,
			},
		]);
	});
});
