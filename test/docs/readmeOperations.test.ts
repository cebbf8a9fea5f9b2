/**
 * README.md, "Operations": every example run with the parameters as the README writes them, in
 * n8n's engine against the sandbox gateway, and checked against the output and messages it shows.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { loadOptions } from '../harness';
import * as collection from '../harness/collectionRuns';
import * as disbursement from '../harness/disbursementRuns';

const CALLBACK = 'https://n8n.example.com/webhook/abc/callback';
const jsonOf = disbursement.jsonOf;

describe('README: Payment Gateway Collection', () => {
	const s = collection.gatewayPerSuite(collection.setUp);

	/** Transaction > Generate as the README's table fills it in. */
	const generate = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'transaction',
		operation: 'generate',
		channelCode: 'GCASH_TRN',
		amount: '={{ $json.total }}',
		referenceNo: '={{ $json.invoice_id }}',
		callbackWebhookUrl: CALLBACK,
		successRedirectUrl: 'https://shop.example.com/thanks',
		...extra,
	});

	test('Generate: 1,250.50 for INV-2026-0042 gives the output the README shows', async () => {
		const result = await collection.run(s, generate(), {
			items: [{ total: '1,250.50', invoice_id: 'INV-2026-0042' }],
		});
		expect(result.error).toBeUndefined();
		const [item] = jsonOf(result);
		expect(item).toMatchObject({
			reference_no: 'INV-2026-0042',
			status: 'pending',
			subtotal_amount: 1250.5,
			service_fee: 15,
			total_amount: 1265.5,
			web_payment_url: expect.stringMatching(/\/pay\/INV-2026-0042$/),
			expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/),
			is_expired: false,
			channel: {
				code: 'GCASH_TRN',
				name: 'GCash',
				instruction: expect.any(String),
				category: { slug: 'e-wallet' },
			},
			currency: { code: 'PHP', symbol: '₱', name: 'Philippine Peso' },
			replayed: false,
		});
	});

	test('Generate with Simplify: exactly the fields the README lists, amount being the subtotal', async () => {
		const result = await collection.run(s, generate({ simplify: true }), {
			items: [{ total: '1,250.50', invoice_id: 'INV-2026-0043' }],
		});
		const [item] = jsonOf(result);
		expect(Object.keys(item)).toEqual([
			'reference_no',
			'status',
			'amount',
			'channel',
			'web_payment_url',
			'expires_at',
			'replayed',
		]);
		expect(item).toMatchObject({
			reference_no: 'INV-2026-0043',
			status: 'pending',
			amount: 1250.5,
			channel: 'GCASH_TRN',
			replayed: false,
		});
	});

	test('Customer Fields are sent in snake_case; Extra Body Fields are added, and naming a field above is refused', async () => {
		const parameters = generate({
			customerFields: {
				email: 'juan@example.ph',
				mobileNumber: '09171234567',
				firstName: 'Juan',
				zipCode: '1000',
				countryCode: 'PH',
			},
			options: { extraBodyFields: '{"remarks": "order 42"}' },
		});
		const result = await collection.run(s, parameters, {
			items: [{ total: '1,250.50', invoice_id: 'INV-2026-0044' }],
		});
		expect(result.error).toBeUndefined();
		expect(s.gw.lastRequestBody('/v1/biller/transactions/generate')).toEqual({
			remarks: 'order 42',
			email: 'juan@example.ph',
			mobile_number: '09171234567',
			first_name: 'Juan',
			zip_code: '1000',
			country_code: 'PH',
			channel_code: 'GCASH_TRN',
			amount: 1250.5,
			reference_no: 'INV-2026-0044',
			callback_webhook_url: CALLBACK,
			success_redirect_url: 'https://shop.example.com/thanks',
		});
		const clash = generate({
			options: {
				extraBodyFields:
					'{"remarks": "order 42", "amount": 1, "success_redirect_url": "https://elsewhere.example.com"}',
			},
		});
		const refused = await collection.run(s, clash, {
			items: [{ total: 100, invoice_id: 'INV-2026-0047' }],
		});
		expect(refused.error?.message).toBe(
			'Extra Body Fields cannot set amount, success_redirect_url (row 1)',
		);
		expect(s.gw.getTransaction('INV-2026-0047')).toBeUndefined();
	});

	test('the Channel dropdown lists disabled channels last, marked "(Disabled)"', async () => {
		const options = await loadOptions({
			type: collection.NODE_TYPE,
			method: 'getChannels',
			store: s.store,
		});
		const disabled = options.filter((option) => option.name.endsWith(' (Disabled)'));
		expect(disabled.length).toBeGreaterThan(0);
		expect(options.slice(-disabled.length)).toEqual(disabled);
	});

	test('Transaction > Get: the transaction with its status; On Not Found Fail (default) or Output Nothing', async () => {
		await collection.run(s, generate(), { items: [{ total: 100, invoice_id: 'INV-2026-0045' }] });
		const get = { resource: 'transaction', operation: 'get', referenceNo: '={{ $json.ref }}' };
		const found = await collection.run(s, get, { items: [{ ref: 'INV-2026-0045' }] });
		expect(jsonOf(found)).toEqual([
			expect.objectContaining({ reference_no: 'INV-2026-0045', status: 'pending' }),
		]);
		const simple = await collection.run(
			s,
			{ ...get, simplify: true },
			{ items: [{ ref: 'INV-2026-0045' }] },
		);
		expect(jsonOf(simple)[0]).toMatchObject({
			reference_no: 'INV-2026-0045',
			amount: 100,
			channel: 'GCASH_TRN',
		});
		const missing = await collection.run(s, get, { items: [{ ref: 'INV-NONE' }] });
		expect(missing.error?.message).toBe('No transaction has reference_no "INV-NONE" (row 1)');
		const nothing = await collection.run(
			s,
			{ ...get, options: { onNotFound: 'outputNothing' } },
			{ items: [{ ref: 'INV-NONE' }] },
		);
		expect(nothing.error).toBeUndefined();
		expect(nothing.outputs[0] ?? []).toEqual([]);
	});

	test('Transaction > Wait for Final Status: looks up until completed, then says so', async () => {
		await collection.run(s, generate(), { items: [{ total: 100, invoice_id: 'INV-2026-0046' }] });
		s.gw.scriptOutcome('INV-2026-0046', 'completed', 300);
		const result = await collection.run(
			s,
			{
				resource: 'transaction',
				operation: 'waitForFinalStatus',
				referenceNo: 'INV-2026-0046',
				options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
			},
			{ items: [{}] },
		);
		expect(jsonOf(result)[0]).toMatchObject({
			reference_no: 'INV-2026-0046',
			status: 'completed',
			finalStatus: true,
			lookUps: expect.any(Number),
		});
	});

	test('Channel > Get Many: Limit defaults to 50; Filters > Category and Enabled Only; code, name, is_disabled, category', async () => {
		const all = jsonOf(
			await collection.run(
				s,
				{ resource: 'channel', operation: 'getMany', filters: { enabledOnly: false } },
				{ items: [{}] },
			),
		);
		expect(all.length).toBeGreaterThan(1);
		for (const channel of all)
			expect(channel).toEqual(
				expect.objectContaining({
					code: expect.any(String),
					name: expect.any(String),
					is_disabled: expect.any(Boolean),
					category: expect.any(Object),
				}),
			);
		const eWallets = jsonOf(
			await collection.run(
				s,
				{
					resource: 'channel',
					operation: 'getMany',
					filters: { category: 'e-wallet', enabledOnly: true },
				},
				{ items: [{}] },
			),
		);
		expect(eWallets.length).toBeGreaterThan(0);
		for (const channel of eWallets)
			expect(channel).toMatchObject({ is_disabled: false, category: { slug: 'e-wallet' } });
		const limited = jsonOf(
			await collection.run(
				s,
				{ resource: 'channel', operation: 'getMany', limit: 2, filters: { enabledOnly: false } },
				{ items: [{}] },
			),
		);
		expect(limited).toEqual(all.slice(0, 2));
	});
});

describe('README: Payment Gateway Disbursement', () => {
	const s = disbursement.gatewayPerSuite(disbursement.setUp, {
		beforeEach: disbursement.freshStart,
	});

	/** Payout > Create, bank transfer, as the README's table and body example fill it in. */
	const bankTransfer = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'payout',
		operation: 'create',
		channelType: 'bankTransfer',
		channel: 'INSTAPAY',
		amount: '={{ $json.amount }}',
		referenceNo: '={{ $json.payout_id }}',
		callbackWebhookUrl: CALLBACK,
		bankCode: 'BDO',
		senderFirstName: 'Andrea',
		senderMiddleName: '',
		senderLastName: 'Villanueva',
		senderSuffix: '',
		receiverAccountName: '={{ $json.name }}',
		receiverAccountNumber: '={{ $json.account_number }}',
		...extra,
	});
	const row = (payoutId: string, extra: IDataObject = {}): IDataObject => ({
		payout_id: payoutId,
		amount: 1500,
		name: 'Juan Dela Cruz',
		account_number: '001234567890',
		...extra,
	});

	test('Create sends exactly the body the README shows and outputs the payout with replayed', async () => {
		const result = await disbursement.run(s, bankTransfer(), { items: [row('PAYOUT-0001')] });
		expect(result.error).toBeUndefined();
		expect(s.gw.lastRequestBody('/')).toEqual({
			channel: 'INSTAPAY',
			amount: 1500,
			reference_no: 'PAYOUT-0001',
			callback_webhook_url: CALLBACK,
			fields: {
				bank_code: 'BDO',
				sender: { first_name: 'Andrea', last_name: 'Villanueva' },
				receiver: {
					account_name: 'Juan Dela Cruz',
					account_number: '001234567890',
					type: 'INDIVIDUAL',
				},
			},
		});
		expect(jsonOf(result)[0]).toMatchObject({
			reference_no: 'PAYOUT-0001',
			status: 'pending',
			channel: 'INSTAPAY',
			amount: 1500,
			created_at: expect.stringMatching(/[+-]\d\d:\d\d$/),
			replayed: false,
		});
	});

	test("Create with Simplify gives the README's output exactly", async () => {
		const result = await disbursement.run(s, bankTransfer({ simplify: true }), {
			items: [row('PAYOUT-0002')],
		});
		expect(jsonOf(result)).toEqual([
			{
				reference_no: 'PAYOUT-0002',
				status: 'pending',
				amount: 1500,
				channel: 'INSTAPAY',
				replayed: false,
			},
		]);
	});

	test('every missing field of a row at once, with the row counted from 1', async () => {
		const items = Array.from({ length: 18 }, (_, index) => row(`PAYOUT-R${index + 1}`));
		items[17] = { payout_id: 'PAYOUT-R18', amount: 1500, name: 'Juan Dela Cruz' };
		const result = await disbursement.run(
			s,
			bankTransfer({ senderLastName: '={{ $json.last ?? "" }}' }),
			{ items, onError: 'continueRegularOutput' },
		);
		expect(jsonOf(result)[17].error).toBe(
			'2 fields to fix: Sender Last Name is required; Receiver Account Number is required (row 18)',
		);
	});

	test('a channel refused for the Channel Type names the type and its codes', async () => {
		const items = [row('PAYOUT-C1'), row('PAYOUT-C2'), row('PAYOUT-C3', { channel: 'GCASH' })];
		const result = await disbursement.run(
			s,
			bankTransfer({ channel: '={{ $json.channel ?? "INSTAPAY" }}' }),
			{ items, onError: 'continueRegularOutput' },
		);
		expect(jsonOf(result)[2].error).toBe(
			'Channel "GCASH" is for E-Wallet payouts, but Channel Type is Bank Transfer; Bank Transfer channels: INSTAPAY, PESONET (row 3)',
		);
	});

	test('the Channel dropdown names each channel with its type: those of the chosen Channel Type (version 1: those first)', async () => {
		const listed = async (typeVersion?: number) =>
			(
				await loadOptions({
					type: disbursement.NODE_TYPE,
					method: 'getPayoutChannels',
					store: s.store,
					parameters: { resource: 'payout', operation: 'create', channelType: 'eWallet' },
					path: 'parameters.channel',
					typeVersion,
				})
			).map((option) => `${option.name}=${option.value}`);
		expect(await listed()).toEqual(['GCash (E-Wallet)=GCASH', 'Maya (E-Wallet)=PAYMAYA']);
		expect(await listed(1)).toEqual([
			'GCash (E-Wallet)=GCASH',
			'Maya (E-Wallet)=PAYMAYA',
			'InstaPay (Bank Transfer)=INSTAPAY',
			'PESONet (Bank Transfer)=PESONET',
		]);
	});

	test('optional receiver fields are left out when empty; Channel Fields (JSON) never override the form', async () => {
		await disbursement.run(
			s,
			bankTransfer({
				receiverCity: '',
				receiverGender: 'MALE',
				extraChannelFields: '{"purpose": "salary", "bank_code": "BPI"}',
			}),
			{ items: [row('PAYOUT-X1')] },
		);
		const fields = (s.gw.lastRequestBody('/') as IDataObject).fields as IDataObject;
		expect(fields).toMatchObject({ purpose: 'salary', bank_code: 'BDO' });
		expect(fields.receiver).toEqual({
			account_name: 'Juan Dela Cruz',
			account_number: '001234567890',
			type: 'INDIVIDUAL',
			gender: 'MALE',
		});
	});

	test('E-Wallet Mobile Number: 09171234567 or +639171234567', async () => {
		const result = await disbursement.run(
			s,
			{
				resource: 'payout',
				operation: 'create',
				channelType: 'eWallet',
				channel: 'GCASH',
				amount: 100,
				referenceNo: '={{ $json.ref }}',
				mobileNumber: '={{ $json.mobile }}',
			},
			{
				items: [
					{ ref: 'PAYOUT-E1', mobile: '09171234567' },
					{ ref: 'PAYOUT-E2', mobile: '+639171234567' },
				],
			},
		);
		expect(jsonOf(result).map((item) => item.status)).toEqual(['pending', 'pending']);
	});

	test.each(['20,000', '₱20,000', 'abc', '0', '-1', '={{ $json.none }}'])(
		'Maximum per Payout %s stops the node before any payout is sent',
		async (limit) => {
			const result = await disbursement.run(
				s,
				bankTransfer({ options: { maxAmountPerPayout: limit } }),
				{ items: [row('PAYOUT-L1')] },
			);
			expect(result.error?.message).toMatch(
				/^Maximum per Payout is .*, not a positive number: nothing was sent/,
			);
			expect(s.gw.getPayout('PAYOUT-L1')).toBeUndefined();
		},
	);

	test('Payout > Wait for Final Status: the pending record with finalStatus false and a message when the limit passes', async () => {
		await disbursement.run(s, bankTransfer(), { items: [row('PAYOUT-W1')] });
		const result = await disbursement.run(
			s,
			{
				resource: 'payout',
				operation: 'waitForFinalStatus',
				referenceNo: '={{ $json.reference_no }}',
				timeLimitMinutes: 0.01,
				options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
			},
			{ items: [{ reference_no: 'PAYOUT-W1' }] },
		);
		expect(jsonOf(result)[0]).toMatchObject({
			reference_no: 'PAYOUT-W1',
			status: 'pending',
			finalStatus: false,
			waitedSeconds: expect.any(Number),
			lookUps: expect.any(Number),
			message: expect.stringMatching(/^Still pending after/),
		});
	});

	test('Payout > Wait for Final Status: a payout that takes 10 minutes costs about 13 look-ups (timings scaled down 200 times)', async () => {
		await disbursement.run(s, bankTransfer(), { items: [row('PAYOUT-W2')] });
		s.gw.scriptOutcome('PAYOUT-W2', 'completed', 2990);
		const scaled = { firstPollSeconds: 5 / 200, maxPollSeconds: 60 / 200 };
		const result = await disbursement.run(
			s,
			{
				resource: 'payout',
				operation: 'waitForFinalStatus',
				referenceNo: 'PAYOUT-W2',
				timeLimitMinutes: 10 / 200,
				options: scaled,
			},
			{ items: [{}] },
		);
		const [item] = jsonOf(result);
		expect(item).toMatchObject({ status: 'completed', finalStatus: true });
		// 5, 15, 35, 75 s, then every 60 s: 12 look-ups before minute 10 and one at it, fewer when a busy machine slows them.
		expect(item.lookUps).toBeGreaterThanOrEqual(11);
		expect(item.lookUps).toBeLessThanOrEqual(13);
	});

	test("Repost Callback is refused before any request unless the credential's Environment is Sandbox; a 429 says to wait", async () => {
		await disbursement.run(s, bankTransfer(), { items: [row('PAYOUT-P1')] });
		const production = disbursement.addCredential(s, { environment: 'production' });
		disbursement.freshStart(s);
		const repost = { resource: 'payout', operation: 'repost', referenceNo: 'PAYOUT-P1' };
		const refused = await disbursement.run(s, repost, { items: [{}], credentialId: production });
		expect(refused.error?.message).toMatch(/^Repost Callback is available in the sandbox only/);
		expect(
			Object.keys(s.gw.stats().requestsByPath).filter((path) => path.includes('repost')),
		).toEqual([]);
		const first = await disbursement.run(s, repost, { items: [{}] });
		expect(first.error).toBeUndefined();
		const second = await disbursement.run(s, repost, { items: [{}] });
		expect(second.error?.message).toMatch(/HTTP 429\): wait a few seconds/);
	});

	test('Wallet > Get Many / Get Transactions with Status; Bank > Get Many gives code and name', async () => {
		const completed = jsonOf(
			await disbursement.run(
				s,
				{ resource: 'wallet', operation: 'getTransactions', status: 'completed', returnAll: true },
				{ items: [{}] },
			),
		);
		expect(completed.length).toBeGreaterThan(0);
		for (const entry of completed) expect(entry.status).toBe('completed');
		const wallets = jsonOf(
			await disbursement.run(
				s,
				{ resource: 'wallet', operation: 'getMany', status: 'all' },
				{ items: [{}] },
			),
		);
		expect(wallets.length).toBeGreaterThan(0);
		const banks = jsonOf(
			await disbursement.run(
				s,
				{ resource: 'bank', operation: 'getMany', limit: 3 },
				{ items: [{}] },
			),
		);
		expect(banks).toHaveLength(3);
		for (const bank of banks)
			expect(bank).toEqual(
				expect.objectContaining({ code: expect.any(String), name: expect.any(String) }),
			);
	});

	test('Authorization > Get: AUTH-1001 is found; an unknown code gives a clear "not found"', async () => {
		const found = await disbursement.run(
			s,
			{ resource: 'authorization', operation: 'get', code: 'AUTH-1001' },
			{ items: [{}] },
		);
		expect(jsonOf(found)[0]).toMatchObject({ code: 'AUTH-1001' });
		const unknown = await disbursement.run(
			s,
			{ resource: 'authorization', operation: 'get', code: 'AUTH-0000' },
			{ items: [{}] },
		);
		expect(unknown.error?.message).toMatch(
			/^Authorization code "AUTH-0000" was not found \(HTTP 404\)/,
		);
	});
});
