import { bankSchema, envelopeSchema } from '../../nodes/shared/validation/schemas';
import { payoutSchema } from '../harness/sandboxSchemas';
import { BANKS, startSandboxGateway, type SandboxGateway } from '../../sandbox';
import {
	bankPayoutBody,
	call,
	collectionToken,
	disbursementToken,
	startReceiver,
	walletPayoutBody,
} from '../harness/sandboxCalls';
import { PAYOUT_PROCESS } from '../harness/servicePaths';

const REPOST = '/v1/api/disbursement/transactions/repost';

describe('sandbox gateway: disbursement interface', () => {
	let gw: SandboxGateway;
	let token: string;
	beforeAll(async () => {
		gw = await startSandboxGateway({ repostLimit: { max: 1, windowMs: 60_000 } });
	});
	afterAll(() => gw.close());
	beforeEach(async () => {
		gw.reset();
		token = await disbursementToken(gw);
	});

	it('accepts a bank-transfer payout as pending and echoes its fields', async () => {
		const body = bankPayoutBody('PO-1001', { callback_webhook_url: 'http://127.0.0.1:9/hook' });
		const res = await call(gw, 'POST', PAYOUT_PROCESS, { token, body });
		expect(res.status).toBe(200);
		expect(envelopeSchema.parse(res.body).message).toBe('Disbursement request accepted.');
		const payout = payoutSchema.parse(res.body.data);
		expect(payout).toEqual({
			reference_no: 'PO-1001',
			channel: 'INSTAPAY',
			amount: 1500.5,
			status: 'pending',
			fields: body.fields,
			callback_webhook_url: 'http://127.0.0.1:9/hook',
			fee: 15,
			total_amount: 1515.5,
			created_at: expect.stringMatching(/\+08:00$/),
		});
		expect(gw.lastRequestBody(PAYOUT_PROCESS)).toEqual(body);
		expect(gw.getPayout('PO-1001')).toMatchObject({ status: 'pending' });
	});

	it('accepts an e-wallet payout with a Philippine mobile number in either form', async () => {
		expect(
			(await call(gw, 'POST', PAYOUT_PROCESS, { token, body: walletPayoutBody('PO-W1') })).status,
		).toBe(200);
		const intl = await call(gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: walletPayoutBody('PO-W2', {
				channel: 'PAYMAYA',
				fields: { mobile_number: '+639171234567' },
			}),
		});
		expect(intl.status).toBe(200);
		const bad = await call(gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: walletPayoutBody('PO-W3', { fields: { mobile_number: '12345' } }),
		});
		expect(bad.status).toBe(422);
		expect(bad.body.errors).toEqual({
			'fields.mobile_number': ['The fields.mobile number format is invalid.'],
		});
	});

	it('lists every invalid bank-transfer field with dotted keys', async () => {
		const res = await call(gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: {
				channel: 'PESONET',
				amount: 0,
				reference_no: 'PO-BAD',
				fields: {
					bank_code: 'XYZ',
					sender: { first_name: 'A' },
					receiver: { account_name: 'B', type: 'ROBOT', gender: 'OTHER', email: 'nope' },
				},
			},
		});
		expect(res.status).toBe(422);
		expect(res.body.errors).toEqual({
			amount: ['The amount must be between 0.01 and 50000.'],
			'fields.bank_code': ['The selected fields.bank code is invalid.'],
			'fields.sender.last_name': ['The fields.sender.last name field is required.'],
			'fields.receiver.account_number': ['The fields.receiver.account number field is required.'],
			'fields.receiver.type': ['The selected fields.receiver.type is invalid.'],
			'fields.receiver.gender': ['The selected fields.receiver.gender is invalid.'],
			'fields.receiver.email': ['The fields.receiver.email must be a valid email address.'],
		});
		expect(res.body.message).toBe('The amount must be between 0.01 and 50000. (and 6 more errors)');
	});

	it('lists the nested required fields even when fields is missing', async () => {
		const res = await call(gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: { channel: 'INSTAPAY', amount: 10, reference_no: 'PO-NOF' },
		});
		expect(Object.keys(res.body.errors)).toEqual([
			'fields',
			'fields.bank_code',
			'fields.sender.first_name',
			'fields.sender.last_name',
			'fields.receiver.account_name',
			'fields.receiver.account_number',
			'fields.receiver.type',
		]);
		const unknown = await call(gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: { channel: 'CARRIER_PIGEON', amount: 10, reference_no: 'PO-X', fields: {} },
		});
		expect(unknown.body.errors).toEqual({ channel: ['The selected channel is invalid.'] });
	});

	it('uses each payout reference_no once, separately from collection references', async () => {
		expect(
			(await call(gw, 'POST', PAYOUT_PROCESS, { token, body: walletPayoutBody('SHARED-1') }))
				.status,
		).toBe(200);
		const again = await call(gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: walletPayoutBody('SHARED-1'),
		});
		expect(again.status).toBe(422);
		expect(again.body.errors.reference_no).toEqual(['The reference no has already been taken.']);
		const col = await collectionToken(gw);
		const collection = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token: col,
			body: { channel_code: 'BAYAD', amount: 5, reference_no: 'SHARED-1' },
		});
		expect(collection.status).toBe(200);
		expect(gw.stats().creationsByReference).toEqual({ 'SHARED-1': 2 });
		expect(gw.stats().attemptsByReference).toEqual({ 'SHARED-1': 3 });
	});

	it('looks payouts up in data.transactions', async () => {
		await call(gw, 'POST', PAYOUT_PROCESS, { token, body: walletPayoutBody('PO-L1') });
		const found = await call(gw, 'GET', '/v1/api/disbursement/transactions?reference_no=PO-L1', {
			token,
		});
		expect(found.body.message).toBe('');
		expect(found.body.data.transactions).toEqual([
			expect.objectContaining({ reference_no: 'PO-L1', status: 'pending' }),
		]);
		const none = await call(gw, 'GET', '/v1/api/disbursement/transactions?reference_no=NOPE', {
			token,
		});
		expect(none.body.data.transactions).toEqual([]);
	});

	it('reposts the callback of the current status; 422, 404 and 429 otherwise', async () => {
		const receiver = await startReceiver();
		try {
			await call(gw, 'POST', PAYOUT_PROCESS, {
				token,
				body: walletPayoutBody('PO-R1', { callback_webhook_url: receiver.url }),
			});
			const missing = await call(gw, 'POST', REPOST, { token, body: {} });
			expect(missing.status).toBe(422);
			expect(missing.body.errors).toEqual({
				reference_no: ['The reference no field is required.'],
			});
			const unknown = await call(gw, 'POST', REPOST, { token, body: { reference_no: 'NOPE' } });
			expect([unknown.status, unknown.body]).toEqual([404, { message: 'Transaction not found.' }]);

			const first = await call(gw, 'POST', REPOST, { token, body: { reference_no: 'PO-R1' } });
			expect(first.status).toBe(200);
			expect(first.body.data).toEqual({ reference_no: 'PO-R1', status: 'pending' });
			const [pending] = await receiver.waitFor(1);
			expect(pending.body.data).toMatchObject({
				reference_no: 'PO-R1',
				status: 'pending',
				amount: 250,
			});

			const limited = await call(gw, 'POST', REPOST, { token, body: { reference_no: 'PO-R1' } });
			expect(limited.status).toBe(429);
			expect(limited.body).toEqual({
				message: expect.stringMatching(/^Too many repost requests\. Try again in \d+ seconds\.$/),
			});
			expect(limited.body.errors).toBeUndefined();
		} finally {
			await receiver.close();
		}
	});

	it('answers 403 to repost in the production environment', async () => {
		const prod = await startSandboxGateway({ environment: 'production' });
		try {
			const t = await disbursementToken(prod);
			await call(prod, 'POST', PAYOUT_PROCESS, { token: t, body: walletPayoutBody('PO-P1') });
			const res = await call(prod, 'POST', REPOST, { token: t, body: { reference_no: 'PO-P1' } });
			expect(res.status).toBe(403);
			expect(Object.keys(res.body)).toEqual(['message']);
		} finally {
			await prod.close();
		}
	});

	it('resolves fixture authorization codes and 404s others', async () => {
		const res = await call(gw, 'POST', '/v1/api/authorization/AUTH-1001', { token, body: {} });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			code: 'AUTH-1001',
			status: 'approved',
			description: expect.any(String),
		});
		const noBody = await call(gw, 'POST', '/v1/api/authorization/AUTH-1002', { token });
		expect(noBody.body.data.code).toBe('AUTH-1002');
		const missing = await call(gw, 'POST', '/v1/api/authorization/AUTH-9999', { token, body: {} });
		expect([missing.status, missing.body]).toEqual([
			404,
			{ message: 'Authorization code not found.' },
		]);
	});

	it('lists wallets, filtered by status; 422 on an unknown status', async () => {
		const all = await call(gw, 'GET', '/v1/api/wallets', { token });
		expect(all.body.message).toBe('');
		expect(all.body.data.wallets.length).toBeGreaterThanOrEqual(3);
		for (const w of all.body.data.wallets) {
			expect(w).toEqual({
				id: expect.any(String),
				name: expect.any(String),
				currency: 'PHP',
				balance: expect.any(Number),
				status: expect.stringMatching(/^(pending|completed|cancelled)$/),
			});
		}
		const completed = await call(gw, 'GET', '/v1/api/wallets?status=completed', { token });
		expect(
			completed.body.data.wallets.every((w: { status: string }) => w.status === 'completed'),
		).toBe(true);
		const bad = await call(gw, 'GET', '/v1/api/wallets?status=failed', { token });
		expect([bad.status, bad.body.errors]).toEqual([
			422,
			{ status: ['The selected status is invalid.'] },
		]);
	});

	it('lists the wallet ledger with an entry per payout, filtered by status', async () => {
		const before = await call(gw, 'GET', '/v1/api/wallets/transactions', { token });
		expect(before.body.data.transactions).toHaveLength(30);
		await call(gw, 'POST', PAYOUT_PROCESS, { token, body: walletPayoutBody('PO-LED') });
		const pending = await call(gw, 'GET', '/v1/api/wallets/transactions?status=pending', { token });
		const refs = pending.body.data.transactions.map(
			(t: { reference_no: string }) => t.reference_no,
		);
		expect(refs).toContain('PO-LED');
		expect(
			pending.body.data.transactions.every((t: { status: string }) => t.status === 'pending'),
		).toBe(true);
		await gw.settle('PO-LED', 'completed');
		const done = await call(gw, 'GET', '/v1/api/wallets/transactions?status=completed', { token });
		expect(done.body.data.transactions).toContainEqual(
			expect.objectContaining({ reference_no: 'PO-LED', type: 'debit', amount: 260 }),
		);
		expect(
			(await call(gw, 'GET', '/v1/api/wallets/transactions?status=nope', { token })).status,
		).toBe(422);
	});

	it('lists about ten Philippine banks', async () => {
		const res = await call(gw, 'GET', '/v1/api/banks', { token });
		expect(res.body.message).toBe('');
		const banks = res.body.data.banks.map((b: unknown) => bankSchema.parse(b));
		expect(banks.length).toBeGreaterThanOrEqual(10);
		expect(banks).toEqual(BANKS);
		expect(banks.map((b: { code: string }) => b.code)).toEqual(
			expect.arrayContaining(['BDO', 'BPI', 'LBP']),
		);
	});
});
