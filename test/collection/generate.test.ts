/** Transaction > Generate: the request it sends, the item it outputs, input checks, and replays. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	expectErrorItem,
	gatewayPerSuite,
	generateParameters,
	run,
	setUp,
} from '../harness/collectionRuns';
import { jsonOf } from '../harness/disbursementRuns';

const GENERATE_PATH = '/v1/biller/transactions/generate';

const s = gatewayPerSuite(setUp);

let counter = 0;
const ref = (prefix = 'GEN') => `${prefix}-${++counter}`;
const generates = () => s.gw.stats().requestsByPath[`POST ${GENERATE_PATH}`] ?? 0;
const created = (reference: string) => ({ ...s.gw.getTransaction(reference), replayed: false });

describe('a payment link per item', () => {
	it('outputs each generated transaction with replayed: false, in input order, paired with its item', async () => {
		const refs = [ref(), ref(), ref()];
		const result = await run(s, generateParameters(), {
			items: [
				{ ref: refs[0], amount: 100 },
				{ ref: refs[1], amount: '1,250.50', channel: 'BAYAD' },
				{ ref: refs[2], amount: ' ₱50,000 ' },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs).toEqual([
			refs.map((reference, index) => ({ json: created(reference), pairedItem: { item: index } })),
		]);
		expect(result.outputs[0][1].json).toMatchObject({
			subtotal_amount: 1250.5,
			reference_no: refs[1],
			status: 'pending',
			web_payment_url: `${s.gw.url}/pay/${refs[1]}`,
			channel: { code: 'BAYAD' },
			replayed: false,
		});
		for (const reference of refs) expect(s.gw.stats().creationsByReference[reference]).toBe(1);
	});

	it('sends exactly the documented body: channel_code, amount as a number, reference_no and the URLs', async () => {
		const reference = ref();
		await run(
			s,
			generateParameters({
				successRedirectUrl: 'https://shop.example.com/thanks',
				failureRedirectUrl: 'https://shop.example.com/sorry',
			}),
			{
				items: [
					{
						ref: reference,
						amount: '1,250.50',
						callback: 'https://n8n.example.com/webhook/abc/pg',
					},
				],
			},
		);
		expect(s.gw.lastRequestBody(GENERATE_PATH)).toEqual({
			channel_code: 'GCASH_TRN',
			amount: 1250.5,
			reference_no: reference,
			callback_webhook_url: 'https://n8n.example.com/webhook/abc/pg',
			success_redirect_url: 'https://shop.example.com/thanks',
			failure_redirect_url: 'https://shop.example.com/sorry',
		});
	});

	it('leaves out URLs that are not given', async () => {
		const reference = ref();
		await run(s, generateParameters(), { items: [{ ref: reference, amount: 10 }] });
		expect(s.gw.lastRequestBody(GENERATE_PATH)).toEqual({
			channel_code: 'GCASH_TRN',
			amount: 10,
			reference_no: reference,
		});
	});

	it('accepts the limits 0.01 and 50,000', async () => {
		const refs = [ref(), ref()];
		const result = await run(s, generateParameters(), {
			items: [
				{ ref: refs[0], amount: 0.01 },
				{ ref: refs[1], amount: 50000 },
			],
		});
		expect(result.outputs[0].map((item) => item.json.subtotal_amount)).toEqual([0.01, 50000]);
	});
});

describe('customer fields and extra body fields', () => {
	const card: INodeParameters = generateParameters({
		channelCode: 'PAYMAYA_CARD',
		customerFields: {
			email: 'juan@example.ph',
			mobileNumber: '0917 123 4567',
			firstName: 'Juan',
			lastName: 'Dela Cruz',
			countryCode: 'PH',
		},
	});

	it("sends the customer fields a card channel demands, under the service's names", async () => {
		const reference = ref();
		const result = await run(s, card, { items: [{ ref: reference, amount: 999 }] });
		expect(result.outputs[0]).toEqual([{ json: created(reference), pairedItem: { item: 0 } }]);
		expect(s.gw.lastRequestBody(GENERATE_PATH)).toEqual({
			email: 'juan@example.ph',
			mobile_number: '09171234567',
			first_name: 'Juan',
			last_name: 'Dela Cruz',
			country_code: 'PH',
			channel_code: 'PAYMAYA_CARD',
			amount: 999,
			reference_no: reference,
		});
	});

	it('sends extra body fields as given; customer fields win over them', async () => {
		const reference = ref();
		await run(
			s,
			{
				...card,
				options: {
					extraBodyFields:
						'{"state": "Metro Manila", "email": "other@example.ph", "notes": {"a": 1}}',
				},
			},
			{ items: [{ ref: reference, amount: 5 }] },
		);
		expect(s.gw.lastRequestBody(GENERATE_PATH)).toEqual({
			state: 'Metro Manila',
			notes: { a: 1 },
			email: 'juan@example.ph',
			mobile_number: '09171234567',
			first_name: 'Juan',
			last_name: 'Dela Cruz',
			country_code: 'PH',
			channel_code: 'PAYMAYA_CARD',
			amount: 5,
			reference_no: reference,
		});
	});

	it('refuses extra body fields that would replace the amount, channel, reference or URLs, before any request', async () => {
		const before = generates();
		const result = await run(
			s,
			generateParameters({ options: { extraBodyFields: '={{ JSON.stringify($json.extra) }}' } }),
			{
				items: [
					{ ref: ref(), amount: 5, extra: { amount: 1, reference_no: 'X' } },
					{ ref: ref(), amount: 5, extra: { callback_webhook_url: 'https://evil.example.com' } },
				],
				onError: 'continueRegularOutput',
			},
		);
		const hint = "Use the node's own fields for the channel, amount, reference and URLs";
		expectErrorItem(result.outputs[0][0], 0, {
			message: 'Extra Body Fields cannot set amount, reference_no (row 1)',
			description: hint,
		});
		expectErrorItem(result.outputs[0][1], 1, {
			message: 'Extra Body Fields cannot set callback_webhook_url (row 2)',
			description: hint,
		});
		expect(generates()).toBe(before);
	});
});

describe('input checked before any request', () => {
	const cases: Array<[string, IDataObject, INodeParameters, string, string?]> = [
		[
			'text that is not a number',
			{ amount: 'abc' },
			{},
			'Amount "abc" is not a number (row 1)',
			'Use digits with a dot for decimals, e.g. 1250.50 or 1,250.50',
		],
		[
			'a comma as decimal mark',
			{ amount: '1.000,50' },
			{},
			'Amount "1.000,50" is not a number (row 1)',
			'Use digits with a dot for decimals, e.g. 1250.50 or 1,250.50',
		],
		[
			'an empty amount',
			{ amount: '' },
			{},
			'Amount is empty (row 1)',
			'Give an amount such as 1250.50',
		],
		[
			'a missing amount',
			{ amount: undefined },
			{},
			'Amount is empty (row 1)',
			'Give an amount such as 1250.50',
		],
		['zero', { amount: 0 }, {}, 'Amount 0 is outside the allowed range 0.01 to 50,000 (row 1)'],
		[
			'over 50,000',
			{ amount: '50,000.01' },
			{},
			'Amount 50000.01 is outside the allowed range 0.01 to 50,000 (row 1)',
		],
		[
			'three decimals',
			{ amount: 10.005 },
			{},
			'Amount 10.005 has more than 2 decimal places (row 1)',
			'Round it to 2 decimals in the sheet, or in the expression with .toFixed(2)',
		],
		[
			'a reference with "#"',
			{ ref: 'INV#7' },
			{},
			'Reference No "INV#7" contains characters other than letters, digits, "-" and "_" (row 1)',
			'Characters such as "#", ":" and spaces break the hosted payment page',
		],
		[
			'a reference with ":"',
			{ ref: 'INV:7' },
			{},
			'Reference No "INV:7" contains characters other than letters, digits, "-" and "_" (row 1)',
			'Characters such as "#", ":" and spaces break the hosted payment page',
		],
		[
			'an empty reference',
			{ ref: '' },
			{},
			'Reference No is empty (row 1)',
			'Map a stable, unique value from your data, such as an invoice number',
		],
		[
			'a reference over 64 characters',
			{ ref: 'R'.repeat(65) },
			{},
			'Reference No is longer than 64 characters (row 1)',
		],
		[
			'a callback URL that is not a URL',
			{ callback: 'my webhook' },
			{},
			'Callback Webhook URL "my webhook" is not a valid URL (row 1)',
			'Use a full address such as https://example.com/path',
		],
		[
			'a success URL that is not http(s)',
			{},
			{ successRedirectUrl: 'ftp://shop.example.com' },
			'Success Redirect URL must start with https:// or http:// (row 1)',
		],
		[
			'a failure URL that is not a URL',
			{},
			{ failureRedirectUrl: 'shop.example.com/sorry' },
			'Failure Redirect URL "shop.example.com/sorry" is not a valid URL (row 1)',
			'Use a full address such as https://example.com/path',
		],
		['an empty channel', { channel: '' }, {}, 'Channel is required (row 1)'],
		[
			'an e-mail address without "@"',
			{},
			{ customerFields: { email: 'juan.example.ph' } },
			'Email "juan.example.ph" is not an email address (row 1)',
		],
		[
			'a mobile number that is not Philippine',
			{},
			{ customerFields: { mobileNumber: '12345' } },
			'Mobile Number "12345" is not a Philippine mobile number (row 1)',
			'Use 09XXXXXXXXX or +639XXXXXXXXX',
		],
		[
			'extra body fields that are not JSON',
			{},
			{ options: { extraBodyFields: '{email: x}' } },
			'Extra Body Fields is not valid JSON (row 1)',
		],
		[
			'extra body fields that are a list',
			{},
			{ options: { extraBodyFields: '[1, 2]' } },
			'Extra Body Fields must be a JSON object, e.g. {"email": "a@b.ph"} (row 1)',
		],
	];

	// Rows as one argument: jest would take a missing last argument for a `done` callback.
	it.each(cases.map((row) => [row[0], row] as const))(
		'%s',
		async (_name, [, item, parameters, message, description]) => {
			const before = generates();
			const result = await run(s, generateParameters(parameters), {
				items: [{ ref: ref('IN'), amount: 100, ...item }],
				onError: 'continueRegularOutput',
			});
			expect(result.outputs[0]).toHaveLength(1);
			expectErrorItem(result.outputs[0][0], 0, { message, description });
			expect(generates()).toBe(before);
		},
	);

	it('a bad row fails only its own item; the others are generated', async () => {
		const refs = [ref(), ref()];
		const result = await run(s, generateParameters(), {
			items: [
				{ ref: refs[0], amount: 10 },
				{ ref: 'bad ref', amount: 10 },
				{ ref: refs[1], amount: 20 },
			],
			onError: 'continueRegularOutput',
		});
		expect(result.outputs[0]).toHaveLength(3);
		expect(result.outputs[0][0]).toEqual({ json: created(refs[0]), pairedItem: { item: 0 } });
		expectErrorItem(result.outputs[0][1], 1, {
			message:
				'Reference No "bad ref" contains characters other than letters, digits, "-" and "_" (row 2)',
			description: 'Characters such as "#", ":" and spaces break the hosted payment page',
		});
		expect(result.outputs[0][2]).toEqual({ json: created(refs[1]), pairedItem: { item: 2 } });
	});

	it('without continue-on-fail, a bad row stops the node with its error', async () => {
		const result = await run(s, generateParameters(), { items: [{ ref: ref(), amount: 'ten' }] });
		expect(result.outputs).toEqual([]);
		expect(result.error?.message).toBe('Amount "ten" is not a number (row 1)');
		expect(result.error?.context?.itemIndex).toBe(0);
	});
});

describe('re-runs and retried items never create a second transaction', () => {
	it('returns the existing transaction with replayed: true for the same reference, amount and channel', async () => {
		const reference = ref('RE');
		const first = await run(s, generateParameters(), {
			items: [{ ref: reference, amount: '1,000' }],
		});
		expect(first.outputs[0]).toEqual([{ json: created(reference), pairedItem: { item: 0 } }]);

		const again = await run(s, generateParameters(), { items: [{ ref: reference, amount: 1000 }] });
		expect(again.outputs[0]).toEqual([
			{ json: { ...s.gw.getTransaction(reference), replayed: true }, pairedItem: { item: 0 } },
		]);
		expect(again.outputs[0][0].json.web_payment_url).toBe(first.outputs[0][0].json.web_payment_url);
		expect(s.gw.stats().creationsByReference[reference]).toBe(1);
	});

	it('replays the transaction whatever its status now is (here: completed)', async () => {
		const reference = ref('RE');
		await run(s, generateParameters(), { items: [{ ref: reference, amount: 20 }] });
		await s.gw.settle(reference, 'completed');
		const again = await run(s, generateParameters(), { items: [{ ref: reference, amount: 20 }] });
		expect(again.outputs[0][0].json).toEqual({ ...s.gw.getTransaction(reference), replayed: true });
		expect(again.outputs[0][0].json.status).toBe('completed');
	});

	it('refuses the reference for a different amount', async () => {
		const reference = ref('RE');
		await run(s, generateParameters(), { items: [{ ref: reference, amount: 100 }] });
		const again = await run(s, generateParameters(), {
			items: [{ ref: reference, amount: 200 }],
			onError: 'continueRegularOutput',
		});
		expectErrorItem(again.outputs[0][0], 0, {
			message: `reference_no "${reference}" is already used for a different transaction: the existing transaction is for 100, this item asks for 200`,
			description:
				'Each reference_no can be used once. Use a new reference_no for a new transaction, or the same amount and channel to get the existing one back.',
		});
		expect(s.gw.stats().creationsByReference[reference]).toBe(1);
	});

	it('refuses the reference for a different channel (and says both when both differ)', async () => {
		const reference = ref('RE');
		await run(s, generateParameters(), { items: [{ ref: reference, amount: 100 }] });
		const again = await run(s, generateParameters(), {
			items: [
				{ ref: reference, amount: 100, channel: 'BAYAD' },
				{ ref: reference, amount: 75, channel: 'PAYANDGO' },
			],
			onError: 'continueRegularOutput',
		});
		const description =
			'Each reference_no can be used once. Use a new reference_no for a new transaction, or the same amount and channel to get the existing one back.';
		expectErrorItem(again.outputs[0][0], 0, {
			message: `reference_no "${reference}" is already used for a different transaction: the existing transaction uses channel GCASH_TRN, this item asks for BAYAD`,
			description,
		});
		expectErrorItem(again.outputs[0][1], 1, {
			message: `reference_no "${reference}" is already used for a different transaction: the existing transaction is for 100, this item asks for 75, and the existing transaction uses channel GCASH_TRN, this item asks for PAYANDGO`,
			description,
		});
		expect(s.gw.stats().creationsByReference[reference]).toBe(1);
	});

	it('the same reference twice in one run: one transaction, the second item is its replay', async () => {
		const reference = ref('RE');
		const result = await run(s, generateParameters({ options: { concurrency: 1 } }), {
			items: [
				{ ref: reference, amount: 30 },
				{ ref: reference, amount: 30 },
			],
		});
		expect(result.outputs[0]).toEqual([
			{ json: created(reference), pairedItem: { item: 0 } },
			{ json: { ...s.gw.getTransaction(reference), replayed: true }, pairedItem: { item: 1 } },
		]);
		expect(s.gw.stats().creationsByReference[reference]).toBe(1);
	});
});

describe("Generate's Dry Run: where the summary goes", () => {
	const rows = [
		{ ref: 'TGEN-SUM-1', amount: 100 },
		{ ref: 'TGEN-SUM-2', amount: 250.5 },
	];

	test('version 2: the checked rows on the first output, the summary alone on the second, nothing created', async () => {
		const result = await run(s, generateParameters({ options: { dryRun: true } }), {
			items: rows,
			typeVersion: 2,
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs).toHaveLength(2);
		expect(jsonOf(result, 0).map((row) => [row.reference_no, row.wouldSend])).toEqual([
			['TGEN-SUM-1', true],
			['TGEN-SUM-2', true],
		]);
		expect(jsonOf(result, 1)).toEqual([expect.objectContaining({ rows: 2, totalAmount: 350.5 })]);
		const created = s.gw.stats().creationsByReference;
		expect([created['TGEN-SUM-1'], created['TGEN-SUM-2']]).toEqual([undefined, undefined]);
	});

	test('version 2 without Dry Run: one output, the payment links', async () => {
		const result = await run(s, generateParameters(), {
			items: [{ ref: 'TGEN-SUM-3', amount: 100 }],
			typeVersion: 2,
		});
		expect(result.outputs).toHaveLength(1);
		expect(jsonOf(result).map((row) => row.reference_no)).toEqual(['TGEN-SUM-3']);
	});

	test('version 1 keeps one output: the checked rows, then the summary as the last item', async () => {
		const result = await run(s, generateParameters({ options: { dryRun: true } }), {
			items: rows,
			typeVersion: 1,
		});
		expect(result.outputs).toHaveLength(1);
		expect(jsonOf(result).map((item) => item.reference_no ?? item.summary)).toEqual([
			'TGEN-SUM-1',
			'TGEN-SUM-2',
			true,
		]);
	});
});
