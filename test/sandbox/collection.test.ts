import { pickList } from '../../nodes/shared/validation/schemas';
import { envelopeSchema } from '../../nodes/shared/validation/schemas';
import { channelListEntrySchema, generatedTransactionSchema } from '../harness/sandboxSchemas';
import { startSandboxGateway, type SandboxGateway } from '../../sandbox';
import { call, collectionToken, txBody } from '../harness/sandboxCalls';

describe('sandbox gateway: collection interface', () => {
	let gw: SandboxGateway;
	let token: string;
	beforeAll(async () => {
		gw = await startSandboxGateway();
	});
	afterAll(() => gw.close());
	beforeEach(async () => {
		gw.reset();
		token = await collectionToken(gw);
	});

	it('generates a pending transaction in exactly the 2.2 shape', async () => {
		const body = txBody('INV-1001', {
			callback_webhook_url: 'http://127.0.0.1:9/hook',
			success_redirect_url: 'https://shop.example/ok',
		});
		const res = await call(gw, 'POST', '/v1/biller/transactions/generate', { token, body });
		expect(res.status).toBe(200);
		const env = envelopeSchema.parse(res.body);
		expect(env.message).toBe('Transaction generated successfully.');
		const tx = generatedTransactionSchema.parse(env.data);
		expect(tx).toMatchObject({
			subtotal_amount: 100,
			service_fee: 15,
			total_amount: 115,
			reference_no: 'INV-1001',
			provider_reference_no: null,
			other_reference_no: null,
			status: 'pending',
			barcode_url: null,
			qrcode_url: null,
			link_url: null,
			is_web_payment: true,
			web_payment_url: `${gw.url}/pay/INV-1001`,
			qrcode: null,
			is_expired: false,
			items: [],
			currency: { name: 'Philippine Peso', code: 'PHP', symbol: '₱' },
		});
		expect(Number.isInteger(tx.service_fee)).toBe(true);
		expect(tx.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
		expect(tx.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
		expect(Date.parse(tx.expires_at) - Date.parse(tx.date)).toBe(3600_000);
		expect(Object.keys(tx.channel).sort()).toEqual([
			'category',
			'code',
			'desciption',
			'instruction',
			'logo',
			'name',
			'slug',
		]);
		expect(tx.channel).toMatchObject({
			code: 'GCASH_TRN',
			category: { name: 'E-Wallet', slug: 'e-wallet' },
		});
		expect(tx.channel.instruction).toContain('\n');
		expect(tx.channel.instruction).toContain(tx.web_payment_url);
		expect(Object.keys(res.body)).toEqual(['message', 'data']);
		expect(gw.lastRequestBody('/v1/biller/transactions/generate')).toEqual(body);
		// the logo URL resolves
		expect((await fetch(tx.channel.logo)).status).toBe(200);
	});

	it('charges no service fee on OTC channels', async () => {
		const res = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: txBody('OTC-1', { channel_code: 'BAYAD', amount: 99.99 }),
		});
		expect(res.body.data).toMatchObject({
			subtotal_amount: 99.99,
			service_fee: 0,
			total_amount: 99.99,
		});
		expect(res.body.data.channel.category).toEqual({
			name: 'OTC',
			description: expect.any(String),
			slug: 'otc',
		});
	});

	it('lists every invalid field at once (422, Laravel style)', async () => {
		const res = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: {
				amount: 'abc',
				reference_no: 'x'.repeat(65),
				success_redirect_url: 'not a url',
				failure_redirect_url: 'ftp://x.y/z',
				callback_webhook_url: 'javascript:alert(1)',
			},
		});
		expect(res.status).toBe(422);
		expect(res.body.data).toBeUndefined();
		expect(res.body).toEqual({
			message: 'The channel code field is required. (and 5 more errors)',
			errors: {
				channel_code: ['The channel code field is required.'],
				amount: ['The amount must be a number.'],
				reference_no: ['The reference no must not be greater than 64 characters.'],
				success_redirect_url: ['The success redirect url must be a valid URL.'],
				failure_redirect_url: ['The failure redirect url must be a valid URL.'],
				callback_webhook_url: ['The callback webhook url must be a valid URL.'],
			},
		});
		expect(envelopeSchema.parse(res.body).errors).toBeDefined();
		expect(gw.stats().creationsByReference).toEqual({});
	});

	it('rejects an empty body with each required field listed', async () => {
		const res = await call(gw, 'POST', '/v1/biller/transactions/generate', { token, body: {} });
		expect(res.status).toBe(422);
		expect(Object.keys(res.body.errors)).toEqual(['channel_code', 'amount', 'reference_no']);
		expect(res.body.message).toBe('The channel code field is required. (and 2 more errors)');
	});

	it('enforces amount 0.01..50000 inclusive', async () => {
		const post = (ref: string, amount: unknown) =>
			call(gw, 'POST', '/v1/biller/transactions/generate', {
				token,
				body: txBody(ref, { amount }),
			});
		expect((await post('A-1', 0.01)).status).toBe(200);
		expect((await post('A-2', 50000)).status).toBe(200);
		expect((await post('A-3', '250.75')).body.data.subtotal_amount).toBe(250.75);
		for (const [i, bad] of [0, 0.009, 50000.01, -5].entries()) {
			const res = await post(`B-${i}`, bad);
			expect(res.status).toBe(422);
			expect(res.body.errors).toEqual({ amount: ['The amount must be between 0.01 and 50000.'] });
		}
	});

	it('refuses unknown and disabled channels', async () => {
		const unknown = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: txBody('C-1', { channel_code: 'NOPE' }),
		});
		expect(unknown.body.errors).toEqual({
			channel_code: ['The selected channel code is invalid.'],
		});
		const disabled = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: txBody('C-2', { channel_code: 'COINS_PH' }),
		});
		expect(disabled.status).toBe(422);
		expect(disabled.body.errors.channel_code).toEqual([
			'The selected channel code is currently unavailable.',
		]);
	});

	it('demands the customer fields of the card channel', async () => {
		const res = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: txBody('CARD-1', { channel_code: 'PAYMAYA_CARD', first_name: 'Ana' }),
		});
		expect(res.status).toBe(422);
		expect(res.body.errors).toEqual({
			email: ['The email field is required.'],
			mobile_number: ['The mobile number field is required.'],
			last_name: ['The last name field is required.'],
		});
		const ok = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: txBody('CARD-2', {
				channel_code: 'PAYMAYA_CARD',
				email: 'ana@example.com',
				mobile_number: '09171234567',
				first_name: 'Ana',
				last_name: 'Reyes',
			}),
		});
		expect(ok.status).toBe(200);
		expect(ok.body.data.channel.category.slug).toBe('card');
	});

	it('uses each reference_no once', async () => {
		expect(
			(
				await call(gw, 'POST', '/v1/biller/transactions/generate', {
					token,
					body: txBody('ONCE-1'),
				})
			).status,
		).toBe(200);
		const again = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: txBody('ONCE-1', { amount: 5 }),
		});
		expect(again.status).toBe(422);
		expect(again.body).toEqual({
			message: 'The reference no has already been taken.',
			errors: { reference_no: ['The reference no has already been taken.'] },
		});
		expect(gw.stats().creationsByReference).toEqual({ 'ONCE-1': 1 });
		expect(gw.stats().attemptsByReference).toEqual({ 'ONCE-1': 2 });
		expect(gw.getTransaction('ONCE-1')).toMatchObject({ subtotal_amount: 100 });
	});

	it('looks a transaction up by reference_no in data.transactions', async () => {
		await call(gw, 'POST', '/v1/biller/transactions/generate', { token, body: txBody('LOOK-1') });
		await call(gw, 'POST', '/v1/biller/transactions/generate', { token, body: txBody('LOOK-2') });
		const found = await call(gw, 'GET', '/v1/biller/transactions?reference_no=LOOK-1', { token });
		expect(found.status).toBe(200);
		expect(found.body.message).toBe('');
		expect(found.body.data.transactions).toHaveLength(1);
		expect(generatedTransactionSchema.parse(found.body.data.transactions[0]).reference_no).toBe(
			'LOOK-1',
		);

		await gw.settle('LOOK-1', 'completed');
		const after = await call(gw, 'GET', '/v1/biller/transactions?reference_no=LOOK-1', { token });
		expect(after.body.data.transactions[0].status).toBe('completed');

		const none = await call(gw, 'GET', '/v1/biller/transactions?reference_no=NOPE', { token });
		expect(none.body).toEqual({ message: '', data: { transactions: [] } });
		const all = await call(gw, 'GET', '/v1/biller/transactions', { token });
		expect(all.body.data.transactions.map((t: { reference_no: string }) => t.reference_no)).toEqual(
			['LOOK-1', 'LOOK-2'],
		);
	});

	it('lists channels with data as the array (default)', async () => {
		const res = await call(gw, 'GET', '/v1/biller/channels', { token });
		expect(res.status).toBe(200);
		expect(res.body.message).toBe('');
		expect(Array.isArray(res.body.data)).toBe(true);
		const entries = res.body.data.map((c: unknown) => channelListEntrySchema.parse(c));
		expect(entries.map((c: { code: string }) => c.code)).toEqual(
			expect.arrayContaining([
				'GCASH_TRN',
				'PAYMAYA_QR',
				'PAYMAYA_CARD',
				'BAYAD',
				'PAYANDGO',
				'PALAWANPAY_OTC',
				'COINS_PH',
			]),
		);
		for (const entry of res.body.data) {
			expect(Object.keys(entry).sort()).toEqual([
				'category',
				'code',
				'currencies',
				'description',
				'is_disabled',
				'is_web_payment',
				'logo',
				'name',
				'slug',
			]);
			expect(entry.currencies).toEqual(['PHP']);
		}
		expect(
			res.body.data
				.filter((c: { is_disabled: boolean }) => c.is_disabled)
				.map((c: { code: string }) => c.code),
		).toEqual(['COINS_PH']);
	});

	it("lists channels as data.channels with channelListShape 'object'", async () => {
		const other = await startSandboxGateway({ channelListShape: 'object' });
		try {
			const t = await collectionToken(other);
			const res = await call(other, 'GET', '/v1/biller/channels', { token: t });
			expect(Array.isArray(res.body.data.channels)).toBe(true);
			expect(pickList(res.body.data, 'channels')).toHaveLength(7);
		} finally {
			await other.close();
		}
	});

	it('previews the fee with /channels/calculate', async () => {
		const res = await call(
			gw,
			'GET',
			'/v1/biller/channels/calculate?channel_code=GCASH_TRN&amount=100.5',
			{ token },
		);
		expect(res.body).toEqual({
			message: '',
			data: { subtotal_amount: 100.5, service_fee: 15, total_amount: 115.5 },
		});
		const bad = await call(gw, 'GET', '/v1/biller/channels/calculate?channel_code=NOPE', { token });
		expect(bad.status).toBe(422);
		expect(Object.keys(bad.body.errors)).toEqual(['channel_code', 'amount']);
	});

	it('answers 404, 405, 400 and 413 with a message only', async () => {
		const notFound = await call(gw, 'GET', '/v1/biller/nothing', { token });
		expect([notFound.status, notFound.body]).toEqual([404, { message: 'Not found.' }]);
		const wrongMethod = await call(gw, 'GET', '/v1/biller/transactions/generate', { token });
		expect(wrongMethod.status).toBe(405);
		const badJson = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			rawBody: '{"amount": 1,',
			headers: { 'content-type': 'application/json' },
		});
		expect([badJson.status, Object.keys(badJson.body)]).toEqual([400, ['message']]);
		const tooBig = await call(gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: txBody('BIG', { padding: 'x'.repeat(1024 * 1024 + 10) }),
		});
		expect([tooBig.status, Object.keys(tooBig.body)]).toEqual([413, ['message']]);
		expect(gw.getTransaction('BIG')).toBeUndefined();
	});

	it('checks the token before validating (401 beats 422)', async () => {
		const res = await call(gw, 'POST', '/v1/biller/transactions/generate', { body: {} });
		expect(res.status).toBe(401);
	});
});
