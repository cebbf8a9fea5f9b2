/**
 * Payout > Create: the exact body per channel type, every problem of a row reported at once
 * before any request, the safety limit, replays and conflicts, and the service's own refusals.
 */
import {
	addCredential,
	bankRow,
	bankTransferParameters,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	pairs,
	run,
	setUp,
} from '../harness/disbursementRuns';
import { PAYOUT_PROCESS, PAYOUT_PROCESS_KEY } from '../harness/servicePaths';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

describe('bank transfer', () => {
	test('sends exactly the documented body, every field from a spreadsheet-like row', async () => {
		const row = bankRow('BT-FULL-1', {
			amount: '12,500.75',
			callback: 'http://127.0.0.1:9/hook',
			senderMiddle: 'Reyes',
			senderSuffix: 'Jr.',
			receiverType: 'individual',
			receiverMobile: '0917 123 4567',
			receiverEmail: 'juan@example.ph',
			address: '12 Rizal St.',
			barangay: 'San Antonio',
			city: 'Pasig',
			zip: 1600,
			gender: 'male',
		});
		const result = await run(s, bankTransferParameters(), { items: [row] });

		const body = s.gw.lastRequestBody(PAYOUT_PROCESS) as Record<string, Record<string, unknown>>;
		expect(Object.keys(body)).toEqual([
			'channel',
			'amount',
			'reference_no',
			'callback_webhook_url',
			'fields',
		]);
		expect(body.channel).toBe('INSTAPAY');
		expect(body.amount).toBe(12500.75);
		expect(body.reference_no).toBe('BT-FULL-1');
		expect(body.callback_webhook_url).toBe('http://127.0.0.1:9/hook');
		expect(Object.keys(body.fields)).toEqual(['bank_code', 'sender', 'receiver']);
		expect(body.fields.bank_code).toBe('BDO');
		expect(body.fields.sender).toEqual({
			first_name: 'Maria',
			middle_name: 'Reyes',
			last_name: 'Santos',
			suffix: 'Jr.',
		});
		expect(body.fields.receiver).toEqual({
			account_name: 'Juan Dela Cruz',
			account_number: '001234567890',
			type: 'INDIVIDUAL',
			mobile_number: '09171234567',
			email: 'juan@example.ph',
			address: '12 Rizal St.',
			barangay: 'San Antonio',
			city: 'Pasig',
			zip_code: '1600',
			gender: 'MALE',
		});

		expect(result.error).toBeUndefined();
		expect(result.outputs).toHaveLength(1);
		expect(result.outputs[0]).toEqual([
			{
				json: {
					reference_no: 'BT-FULL-1',
					channel: 'INSTAPAY',
					amount: 12500.75,
					status: 'pending',
					fields: body.fields,
					callback_webhook_url: 'http://127.0.0.1:9/hook',
					fee: 15,
					total_amount: 12515.75,
					created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/),
					replayed: false,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(s.gw.stats().creationsByReference).toEqual({ 'BT-FULL-1': 1 });
	});

	test('leaves empty optional fields out, and receiver type falls back to INDIVIDUAL', async () => {
		await run(s, bankTransferParameters({ receiverType: '={{ "" }}' }), {
			items: [bankRow('BT-MIN-1')],
		});
		expect(s.gw.lastRequestBody(PAYOUT_PROCESS)).toEqual({
			channel: 'INSTAPAY',
			amount: 1500,
			reference_no: 'BT-MIN-1',
			fields: {
				bank_code: 'BDO',
				sender: { first_name: 'Maria', last_name: 'Santos' },
				receiver: {
					account_name: 'Juan Dela Cruz',
					account_number: '001234567890',
					type: 'INDIVIDUAL',
				},
			},
		});
	});

	test('extra channel fields are merged into fields and never replace the form', async () => {
		const extra = JSON.stringify({
			bank_code: 'BPI',
			purpose: 'SALARY',
			receiver: { account_name: 'Someone Else', nationality: 'PH' },
		});
		await run(s, bankTransferParameters({ extraChannelFields: extra }), {
			items: [bankRow('BT-EXTRA-1')],
		});
		expect(s.gw.lastRequestBody(PAYOUT_PROCESS)).toEqual({
			channel: 'INSTAPAY',
			amount: 1500,
			reference_no: 'BT-EXTRA-1',
			fields: {
				bank_code: 'BDO',
				sender: { first_name: 'Maria', last_name: 'Santos' },
				receiver: {
					account_name: 'Juan Dela Cruz',
					account_number: '001234567890',
					type: 'INDIVIDUAL',
					nationality: 'PH',
				},
				purpose: 'SALARY',
			},
		});
	});

	test('a row missing fields fails with every missing or invalid field named at once, before any request', async () => {
		const result = await run(s, bankTransferParameters(), {
			items: [
				{
					ref: 'BT-BAD#1',
					amount: '0',
					bank: 'BDO',
					senderFirst: 'Maria',
					receiverEmail: 'not-an-email',
					receiverMobile: '12345',
				},
			],
			onError: 'continueRegularOutput',
		});
		expect(jsonOf(result)).toEqual([
			{
				error:
					'7 fields to fix: Amount 0 is outside the allowed range 0.01 to 50,000; ' +
					'Reference No "BT-BAD#1" contains characters other than letters, digits, "-" and "_"; ' +
					'Sender Last Name is required; Receiver Account Name is required; Receiver Account Number is required; ' +
					'Receiver Mobile Number "12345" is not a Philippine mobile number; Receiver Email "not-an-email" is not an email address (row 1)',
				itemIndex: 0,
				errorDetails: expect.stringContaining(
					'- Receiver Mobile Number "12345" is not a Philippine mobile number (Use 09XXXXXXXXX or +639XXXXXXXXX)',
				),
			},
		]);
		expect(pairs(result)).toEqual([0]);
		expect(s.gw.stats().requestsByPath).toEqual({});
	});

	test('without continue-on-fail the run stops with the same message', async () => {
		const result = await run(s, bankTransferParameters(), {
			items: [bankRow('BT-STOP-1', { bank: '' })],
		});
		expect(result.error?.message).toBe('Bank is required (row 1)');
		expect(s.gw.stats().requestsByPath).toEqual({});
	});

	test('a 422 from the service lists its field errors', async () => {
		const result = await run(s, bankTransferParameters(), {
			items: [bankRow('BT-422-1', { bank: 'NOPE', receiverType: 'ALIEN' })],
			onError: 'continueRegularOutput',
		});
		expect(jsonOf(result)).toEqual([
			{
				error:
					'The service rejected the request: fields.bank_code: The selected fields.bank code is invalid.; fields.receiver.type: The selected fields.receiver.type is invalid. (row 1)',
				itemIndex: 0,
				errorDetails:
					'fields.bank_code: The selected fields.bank code is invalid.\nfields.receiver.type: The selected fields.receiver.type is invalid.',
				httpCode: 422,
				fieldErrors: {
					'fields.bank_code': ['The selected fields.bank code is invalid.'],
					'fields.receiver.type': ['The selected fields.receiver.type is invalid.'],
				},
			},
		]);
		expect(s.gw.stats().creationsByReference).toEqual({});
	});
});

describe('e-wallet', () => {
	test('sends exactly the documented body, both mobile formats accepted', async () => {
		const result = await run(s, eWalletParameters(), {
			items: [
				{ ref: 'EW-1', amount: 250, mobile: '09171234567', callback: 'https://example.com/cb' },
				{ ref: 'EW-2', amount: '99.5', mobile: '+63 917-765-4321', channel: 'PAYMAYA' },
			],
		});
		expect(result.error).toBeUndefined();
		expect(
			jsonOf(result).map((j) => [j.reference_no, j.channel, j.amount, j.status, j.replayed]),
		).toEqual([
			['EW-1', 'GCASH', 250, 'pending', false],
			['EW-2', 'PAYMAYA', 99.5, 'pending', false],
		]);
		expect(pairs(result)).toEqual([0, 1]);
		const body = s.gw.lastRequestBody(PAYOUT_PROCESS) as Record<string, Record<string, unknown>>;
		expect(Object.keys(body)).toEqual(['channel', 'amount', 'reference_no', 'fields']);
		expect(body.channel).toBe('PAYMAYA');
		expect(body.amount).toBe(99.5);
		expect(body.reference_no).toBe('EW-2');
		expect(body.fields).toEqual({ mobile_number: '+639177654321' });
		expect((s.gw.getPayout('EW-1') as Record<string, unknown>).fields).toEqual({
			mobile_number: '09171234567',
		});
		expect((s.gw.getPayout('EW-1') as Record<string, unknown>).callback_webhook_url).toBe(
			'https://example.com/cb',
		);
	});

	test('a missing or malformed mobile number is named, with the formats to use', async () => {
		const result = await run(s, eWalletParameters(), {
			items: [
				{ ref: 'EW-M1', amount: 10 },
				{ ref: 'EW-M2', amount: 10, mobile: '9171234567' },
				{ ref: 'EW-M3', amount: 10, mobile: '09171234567' },
			],
			onError: 'continueRegularOutput',
		});
		const out = jsonOf(result);
		expect(out[0]).toEqual({ error: 'Mobile Number is required (row 1)', itemIndex: 0 });
		expect(out[1]).toEqual({
			error: 'Mobile Number "9171234567" is not a Philippine mobile number (row 2)',
			itemIndex: 1,
			errorDetails: 'Use 09XXXXXXXXX or +639XXXXXXXXX',
		});
		expect(out[2]).toMatchObject({ reference_no: 'EW-M3', status: 'pending', replayed: false });
		expect(pairs(result)).toEqual([0, 1, 2]);
		expect(s.gw.stats().attemptsByReference).toEqual({ 'EW-M3': 1 });
	});
});

describe('safety limit', () => {
	test('Maximum per Payout refuses a larger payout before any request', async () => {
		const limited = await run(s, eWalletParameters({ options: { maxAmountPerPayout: 1000 } }), {
			items: [
				{ ref: 'LIM-1', amount: 1000, mobile: '09171234567' },
				{ ref: 'LIM-2', amount: '1,000.01', mobile: '09171234567' },
			],
			onError: 'continueRegularOutput',
		});
		expect(jsonOf(limited)[1]).toEqual({
			error:
				"Amount 1000.01 is above the Maximum per Payout (1,000) set in this node's options (row 2)",
			itemIndex: 1,
			errorDetails: 'Lower the amount, or raise the limit if a payout this large is intended',
		});
		expect(jsonOf(limited)[0]).toMatchObject({ reference_no: 'LIM-1', amount: 1000 });
		expect(s.gw.stats().attemptsByReference).toEqual({ 'LIM-1': 1 });
	});
});

describe('replays', () => {
	test('the same reference_no and amount returns the existing payout as a replay', async () => {
		await run(s, bankTransferParameters(), { items: [bankRow('RP-1')] });
		const again = await run(s, bankTransferParameters(), { items: [bankRow('RP-1')] });
		expect(again.error).toBeUndefined();
		expect(jsonOf(again)).toEqual([
			expect.objectContaining({
				reference_no: 'RP-1',
				amount: 1500,
				channel: 'INSTAPAY',
				status: 'pending',
				replayed: true,
			}),
		]);
		expect(s.gw.stats().creationsByReference).toEqual({ 'RP-1': 1 });
		expect(s.gw.stats().attemptsByReference).toEqual({ 'RP-1': 2 });
	});

	test('the same reference_no with another amount or channel fails clearly and creates nothing', async () => {
		await run(s, bankTransferParameters(), { items: [bankRow('RP-2')] });
		const result = await run(s, bankTransferParameters(), {
			items: [bankRow('RP-2', { amount: 2000 }), bankRow('RP-2', { channel: 'PESONET' })],
			onError: 'continueRegularOutput',
		});
		const description =
			'Each reference_no can be used once. Use a new reference_no for a new payout, or the same amount, channel and recipient to get the existing one back.';
		expect(jsonOf(result)).toEqual([
			{
				error:
					'reference_no "RP-2" is already used for a different payout: the existing payout is for 1500, this item asks for 2000 (row 1)',
				itemIndex: 0,
				errorDetails: description,
			},
			{
				error:
					'reference_no "RP-2" is already used for a different payout: the existing payout uses channel INSTAPAY, this item asks for PESONET (row 2)',
				itemIndex: 1,
				errorDetails: description,
			},
		]);
		expect(s.gw.stats().creationsByReference).toEqual({ 'RP-2': 1 });
		expect(s.gw.getPayout('RP-2')).toMatchObject({ amount: 1500, channel: 'INSTAPAY' });
	});
	test('the same row twice in one run makes one payout; the other item is its replay', async () => {
		const result = await run(s, eWalletParameters(), {
			items: [
				{ ref: 'RP-DUP', amount: 75, mobile: '09171234567' },
				{ ref: 'RP-DUP', amount: 75, mobile: '09171234567' },
			],
		});
		expect(result.error).toBeUndefined();
		expect(
			jsonOf(result)
				.map((payout) => [payout.reference_no, payout.amount, payout.replayed])
				.sort(),
		).toEqual([
			['RP-DUP', 75, false],
			['RP-DUP', 75, true],
		]);
		expect(pairs(result)).toEqual([0, 1]);
		expect(s.gw.stats().creationsByReference).toEqual({ 'RP-DUP': 1 });
	});
});

describe('endpoint path and credential', () => {
	test('the Endpoint Path option replaces the assumed path', async () => {
		const result = await run(
			s,
			eWalletParameters({ options: { endpointPath: '/v1/api/payouts' } }),
			{
				items: [{ ref: 'PATH-1', amount: 10, mobile: '09171234567' }],
				onError: 'continueRegularOutput',
			},
		);
		expect(s.gw.stats().requestsByPath['POST /v1/api/payouts']).toBe(1);
		expect(s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY]).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				error: 'Not found (HTTP 404). The service said: "Not found." (row 1)',
				httpCode: 404,
			}),
		]);
	});

	test('a wrong password gives the credential message and sends no payout', async () => {
		const wrong = addCredential(s, { password: 'wrong-password-123' });
		const result = await run(s, eWalletParameters(), {
			items: [{ ref: 'CRED-1', amount: 10, mobile: '09171234567' }],
			credentialId: wrong,
		});
		expect(result.error?.message).toMatch(
			/^The Disbursement credential was refused: check Username and Password/,
		);
		expect(s.gw.stats().attemptsByReference).toEqual({});
	});
});
