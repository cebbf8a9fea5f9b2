/**
 * One test per operation and per error class: what the service or the network does, and the exact
 * item (or error) the node produces for it, paired with its input item.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	expectErrorItem,
	gatewayPerSuite,
	run,
	setUp,
	type ExpectedError,
} from '../harness/collectionRuns';
import { CHECK_THEN_SAME_REFERENCE, NO_CLEAR_ANSWER } from '../harness/moneyOperations';

const s = gatewayPerSuite(setUp, { afterEach: (setup) => setup.gw.faults.clear() });

const GENERATE_PATH = '/v1/biller/transactions/generate';
const LOOKUP_PATH = '/v1/biller/transactions';
const CHANNELS_PATH = '/v1/biller/channels';
const DROPPED =
	'No answer from the Payment Collection service (the connection was closed before an answer arrived): check the Base URL and your network, or raise the Timeout option';

let counter = 0;
const ref = () => `ERR-${++counter}`;

function generate(channelCode: string): INodeParameters {
	return {
		resource: 'transaction',
		operation: 'generate',
		channelCode,
		amount: '={{ $json.amount }}',
		referenceNo: '={{ $json.ref }}',
	};
}
const get: INodeParameters = {
	resource: 'transaction',
	operation: 'get',
	referenceNo: '={{ $json.ref }}',
};
const getMany: INodeParameters = { resource: 'channel', operation: 'getMany', returnAll: true };

/**
 * Runs the node with continue-on-fail on two items, the second being the one under test, and
 * checks the item it became (the first is another row of the same run).
 */
async function expectSecondItemError(
	parameters: INodeParameters,
	item: IDataObject,
	expected: ExpectedError,
): Promise<void> {
	const result = await run(s, parameters, {
		items: [{ tag: 'other row' }, item],
		onError: 'continueRegularOutput',
	});
	expect(result.error).toBeUndefined();
	expect(result.outputs[0]).toHaveLength(2);
	expectErrorItem(result.outputs[0][1], 1, expected);
}

describe('422: every field the service rejects is listed', () => {
	it('Generate: an unknown channel code', async () => {
		const reference = ref();
		await expectSecondItemError(
			generate('NOPE'),
			{ ref: reference, amount: 100 },
			{
				message:
					'The service rejected the request: channel_code: The selected channel code is invalid.',
				description: 'channel_code: The selected channel code is invalid.',
				httpCode: 422,
				fieldErrors: { channel_code: ['The selected channel code is invalid.'] },
			},
		);
		expect(s.gw.stats().attemptsByReference[reference]).toBe(1);
		expect(s.gw.stats().creationsByReference[reference]).toBeUndefined();
	});

	it('Generate: a disabled channel', async () => {
		await expectSecondItemError(
			generate('COINS_PH'),
			{ ref: ref(), amount: 100 },
			{
				message:
					'The service rejected the request: channel_code: The selected channel code is currently unavailable.',
				description: 'channel_code: The selected channel code is currently unavailable.',
				httpCode: 422,
				fieldErrors: { channel_code: ['The selected channel code is currently unavailable.'] },
			},
		);
	});

	it('Generate: a card channel without the customer fields it demands lists all four', async () => {
		const fieldErrors = {
			email: ['The email field is required.'],
			mobile_number: ['The mobile number field is required.'],
			first_name: ['The first name field is required.'],
			last_name: ['The last name field is required.'],
		};
		const lines = Object.entries(fieldErrors).map(([field, [message]]) => `${field}: ${message}`);
		await expectSecondItemError(
			generate('PAYMAYA_CARD'),
			{ ref: ref(), amount: 100 },
			{
				message: `The service rejected the request: ${lines.join('; ')}`,
				description: lines.join('\n'),
				httpCode: 422,
				fieldErrors,
			},
		);
	});

	it.each([
		['Get', get, LOOKUP_PATH],
		['Get Many', getMany, CHANNELS_PATH],
	])(
		'%s: a 422 without field errors shows the service message',
		async (_name, parameters, path) => {
			s.gw.faults.add({ path, mode: 'error-before', status: 422 });
			await expectSecondItemError(
				parameters,
				{ ref: 'ANY-1' },
				{
					message:
						'The Payment Collection service answered HTTP 422. The service said: "Server Error"',
					httpCode: 422,
				},
			);
		},
	);
});

describe('401: the credential is refused even with a fresh token', () => {
	it.each([
		['Generate', generate('GCASH_TRN'), GENERATE_PATH],
		['Get', get, LOOKUP_PATH],
		['Get Many', getMany, CHANNELS_PATH],
	])('%s', async (_name, parameters, path) => {
		const reference = ref();
		s.gw.faults.add({ path, mode: 'error-before', status: 401 });
		const lookupsBefore = s.gw.stats().requestsByPath[`GET ${LOOKUP_PATH}`] ?? 0;
		await expectSecondItemError(
			parameters,
			{ ref: reference, amount: 100 },
			{
				message:
					'The Payment Collection credential was refused even after fetching a new token: check its Username, Password and Base URL',
				description: 'HTTP 401. The service said: "Server Error"',
				httpCode: 401,
			},
		);
		if (path === GENERATE_PATH) {
			// A 401 is a definite refusal: sent again once with a fresh token, never looked up.
			expect(s.gw.stats().attemptsByReference[reference]).toBe(2);
			expect(s.gw.stats().requestsByPath[`GET ${LOOKUP_PATH}`] ?? 0).toBe(lookupsBefore);
			expect(s.gw.stats().creationsByReference[reference]).toBeUndefined();
		}
	});
});

describe('404 and 500: the service message only', () => {
	it.each([
		['Generate', generate('GCASH_TRN'), GENERATE_PATH],
		['Get', get, LOOKUP_PATH],
		['Get Many', getMany, CHANNELS_PATH],
	])('%s: 404', async (_name, parameters, path) => {
		const reference = ref();
		s.gw.faults.add({ path, mode: 'error-before', status: 404 });
		await expectSecondItemError(
			parameters,
			{ ref: reference, amount: 100 },
			{
				message: 'Not found (HTTP 404). The service said: "Server Error"',
				httpCode: 404,
			},
		);
		// A 404 is a definite refusal: Generate sends once and does not retry.
		if (path === GENERATE_PATH) expect(s.gw.stats().attemptsByReference[reference]).toBe(1);
	});

	it.each([
		['Get', get, LOOKUP_PATH],
		['Get Many', getMany, CHANNELS_PATH],
	])('%s: 500', async (_name, parameters, path) => {
		s.gw.faults.add({ path, mode: 'error-before', status: 500 });
		await expectSecondItemError(
			parameters,
			{ ref: 'ANY-3' },
			{
				message:
					'The Payment Collection service answered HTTP 500. The service said: "Server Error"',
				httpCode: 500,
			},
		);
	});

	it('Generate: 500 before any work: looked up, resent with the same reference, then reported', async () => {
		const reference = ref();
		s.gw.faults.add({ path: GENERATE_PATH, mode: 'error-before', status: 500 });
		const lookupsBefore = s.gw.stats().requestsByPath[`GET ${LOOKUP_PATH}`] ?? 0;
		await expectSecondItemError(
			generate('GCASH_TRN'),
			{ ref: reference, amount: 100 },
			{
				message: NO_CLEAR_ANSWER(
					'transaction',
					reference,
					'The Payment Collection service answered HTTP 500. The service said: "Server Error".',
				),
				description: CHECK_THEN_SAME_REFERENCE('transaction'),
			},
		);
		expect(s.gw.stats().attemptsByReference[reference]).toBe(3);
		expect(s.gw.stats().creationsByReference[reference]).toBeUndefined();
		// One look-up after each attempt (the other row has no reference and sends nothing).
		expect((s.gw.stats().requestsByPath[`GET ${LOOKUP_PATH}`] ?? 0) - lookupsBefore).toBe(3);
	});
});

describe('3xx: a redirect is reported, never followed', () => {
	it('Generate: a 307 to the same address is not re-sent; the item says to check the Base URL', async () => {
		const reference = ref();
		// Followed, a 307 would send the payment request a second time (here: to the same place).
		s.gw.faults.add({
			method: 'POST',
			path: GENERATE_PATH,
			mode: 'error-before',
			status: 307,
			location: `${s.gw.url}${GENERATE_PATH}`,
			times: 1,
		});
		await expectSecondItemError(
			generate('GCASH_TRN'),
			{ ref: reference, amount: 100 },
			{
				message: `The Payment Collection service redirected the request (HTTP 307 to ${new URL(s.gw.url).host}) instead of answering it: check the Base URL in the credential (https, host and no extra path)`,
				description:
					'Redirects are not followed, so a payment request is never sent a second time or to another address.',
				httpCode: 307,
			},
		);
		expect(s.gw.stats().attemptsByReference[reference]).toBe(1);
		expect(s.gw.stats().creationsByReference[reference]).toBeUndefined();
	});
});

describe('network faults', () => {
	it.each([
		['Get', get, LOOKUP_PATH],
		['Get Many', getMany, CHANNELS_PATH],
	])('%s: a dropped connection', async (_name, parameters, path) => {
		s.gw.faults.add({ path, mode: 'drop-before' });
		await expectSecondItemError(
			parameters,
			{ ref: 'ANY-4' },
			{
				message: DROPPED,
				description: 'Network error code: ECONNRESET',
			},
		);
	});

	it.each([
		['Get', get, LOOKUP_PATH],
		['Get Many', getMany, CHANNELS_PATH],
	])('%s: a time-out', async (_name, parameters, path) => {
		s.gw.faults.add({ path, mode: 'timeout-after', holdMs: 1000 });
		await expectSecondItemError(
			{ ...parameters, options: { timeoutSeconds: 0.2 } },
			{ ref: 'ANY-5' },
			{
				message:
					'No answer from the Payment Collection service (no complete answer within the Timeout): check the Base URL and your network, or raise the Timeout option',
				description: 'Network error code: DEADLINE_PASSED',
			},
		);
	});

	it('Generate: a dropped connection before any work: resent with the same reference, then reported', async () => {
		const reference = ref();
		s.gw.faults.add({ path: GENERATE_PATH, mode: 'drop-before' });
		await expectSecondItemError(
			generate('GCASH_TRN'),
			{ ref: reference, amount: 100 },
			{
				message: NO_CLEAR_ANSWER('transaction', reference, `${DROPPED}.`),
				description: CHECK_THEN_SAME_REFERENCE('transaction'),
			},
		);
		expect(s.gw.stats().attemptsByReference[reference]).toBe(3);
		expect(s.gw.stats().creationsByReference[reference]).toBeUndefined();
	});

	it('Generate: a reference already used, with a failing look-up, says it is used (not "could not confirm")', async () => {
		const reference = ref();
		await run(s, generate('GCASH_TRN'), { items: [{ ref: reference, amount: 100 }] });
		s.gw.faults.add({ method: 'GET', path: LOOKUP_PATH, mode: 'error-before', status: 503 });
		await expectSecondItemError(
			generate('GCASH_TRN'),
			{ ref: reference, amount: 100 },
			{
				message: `reference_no "${reference}" is already used, and looking the transaction up to compare it failed (The Payment Collection service answered HTTP 503. The service said: "Server Error")`,
				description:
					'Running the workflow again is safe: the same reference_no is never paid twice, and an existing one is returned as a replay.',
			},
		);
		expect(s.gw.stats().creationsByReference[reference]).toBe(1);
	});

	it('Generate: when the look-up fails too, the item says so, and the promised re-run is safe', async () => {
		const reference = ref();
		s.gw.faults.add({ method: 'POST', path: GENERATE_PATH, mode: 'drop-after' });
		s.gw.faults.add({ method: 'GET', path: LOOKUP_PATH, mode: 'error-before', status: 503 });
		await expectSecondItemError(
			generate('GCASH_TRN'),
			{ ref: reference, amount: 100 },
			{
				message: `Could not confirm whether the transaction "${reference}" was created: ${DROPPED}; the look-up failed too (The Payment Collection service answered HTTP 503. The service said: "Server Error")`,
				description:
					'Running the workflow again is safe: the same reference_no is never paid twice, and an existing one is returned as a replay.',
			},
		);
		expect(s.gw.stats().creationsByReference[reference]).toBe(1);

		s.gw.faults.clear();
		const again = await run(s, generate('GCASH_TRN'), { items: [{ ref: reference, amount: 100 }] });
		expect(again.outputs[0]).toEqual([
			{ json: { ...s.gw.getTransaction(reference), replayed: true }, pairedItem: { item: 0 } },
		]);
		expect(s.gw.stats().creationsByReference[reference]).toBe(1);
	});
});

describe('without continue-on-fail', () => {
	it("the node fails with the first failing item's error and no output", async () => {
		s.gw.faults.add({ path: LOOKUP_PATH, mode: 'error-before', status: 500 });
		const result = await run(s, get, { items: [{ ref: 'A-1' }, { ref: 'A-2' }] });
		expect(result.outputs).toEqual([]);
		expect(result.error?.message).toBe(
			'The Payment Collection service answered HTTP 500. The service said: "Server Error" (row 1)',
		);
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.context?.itemIndex).toBe(0);
	});
});

describe('the error output (On Error: Continue (using error output))', () => {
	it('sends failed items to the second output and successful ones to the first, each paired', async () => {
		const good = ref();
		const result = await run(s, generate('GCASH_TRN'), {
			items: [
				{ ref: good, amount: 100 },
				{ ref: 'BAD#1', amount: 100 },
			],
			onError: 'continueErrorOutput',
		});
		expect(result.outputs[0]).toEqual([
			{ json: { ...s.gw.getTransaction(good), replayed: false }, pairedItem: { item: 0 } },
		]);
		expect(result.outputs[1]).toHaveLength(1);
		expectErrorItem(
			result.outputs[1][0],
			1,
			{
				message:
					'Reference No "BAD#1" contains characters other than letters, digits, "-" and "_" (row 2)',
			},
			'error',
			{ ref: 'BAD#1', amount: 100 },
		);
	});
});
