import { callbackPayloadSchema } from '../harness/sandboxSchemas';
import { signCallback, verifySignature } from '../../nodes/shared/validation/signature';
import {
	SANDBOX_CREDENTIALS,
	isLoopbackHost,
	startSandboxGateway,
	type SandboxGateway,
} from '../../sandbox';
import {
	call,
	collectionToken,
	disbursementToken,
	sleep,
	startReceiver,
	txBody,
	walletPayoutBody,
} from '../harness/sandboxCalls';
import { PAYOUT_PROCESS } from '../harness/servicePaths';

const SECRET = SANDBOX_CREDENTIALS.signingSecret;
const GENERATE = '/v1/biller/transactions/generate';

describe('sandbox gateway: statuses and signed callbacks', () => {
	let gw: SandboxGateway;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	let col: string;
	let dis: string;
	beforeAll(async () => {
		gw = await startSandboxGateway();
	});
	afterAll(() => gw.close());
	beforeEach(async () => {
		gw.reset();
		receiver = await startReceiver();
		col = await collectionToken(gw);
		dis = await disbursementToken(gw);
	});
	afterEach(() => receiver.close());

	it('settle() completes a transaction and sends ONE signed callback in the public shape', async () => {
		await call(gw, 'POST', GENERATE, {
			token: col,
			body: txBody('CB-1', { amount: 100, callback_webhook_url: receiver.url }),
		});
		await gw.settle('CB-1', 'completed');
		const [hit] = await receiver.waitFor(1);
		expect(hit.headers['content-type']).toBe('application/json');
		expect(Object.keys(hit.body)).toEqual(['data']);
		const data = callbackPayloadSchema.parse(hit.body.data);
		expect(data).toMatchObject({
			reference_no: 'CB-1',
			amount: 100,
			status: 'completed',
			total_amount: 115,
		});
		expect(data.transaction).toMatchObject({
			reference_no: 'CB-1',
			status: 'completed',
			channel: expect.objectContaining({ code: 'GCASH_TRN' }),
		});
		expect(data.signature).toMatch(/^[0-9a-f]{64}$/);
		expect(verifySignature(SECRET, data.amount, data.reference_no, data.signature)).toBe(true);
		expect(data.signature).toBe(signCallback(SECRET, '100', 'CB-1'));
		// a final status never changes, and no second callback goes out
		await expect(gw.settle('CB-1', 'cancelled')).rejects.toThrow(/already completed/);
		await sleep(50);
		expect(receiver.received).toHaveLength(1);
		expect(gw.stats().callbacksSent).toBe(1);
		expect(gw.callbacks()).toEqual([
			expect.objectContaining({
				url: receiver.url,
				statusCode: 200,
				attempt: 1,
				referenceNo: 'CB-1',
				status: 'completed',
			}),
		]);
	});

	it('signs the amount exactly as sent, decimals included', async () => {
		await call(gw, 'POST', PAYOUT_PROCESS, {
			token: dis,
			body: walletPayoutBody('CB-DEC', { amount: 1234.5, callback_webhook_url: receiver.url }),
		});
		await gw.settle('CB-DEC', 'cancelled');
		const [hit] = await receiver.waitFor(1);
		expect(hit.body.data).toMatchObject({
			amount: 1234.5,
			status: 'cancelled',
			total_amount: 1244.5,
		});
		expect(hit.body.data.transaction).toMatchObject({
			channel: 'GCASH',
			fields: { mobile_number: '09171234567' },
		});
		expect(verifySignature(SECRET, hit.body.data.amount, 'CB-DEC', hit.body.data.signature)).toBe(
			true,
		);
		expect(verifySignature(SECRET, 1234.51, 'CB-DEC', hit.body.data.signature)).toBe(false);
		expect(verifySignature('other-secret', 1234.5, 'CB-DEC', hit.body.data.signature)).toBe(false);
	});

	it('applies a scripted outcome set before creation, after afterMs', async () => {
		gw.scriptOutcome('CB-S1', 'cancelled', 100);
		const created = await call(gw, 'POST', GENERATE, {
			token: col,
			body: txBody('CB-S1', { callback_webhook_url: receiver.url }),
		});
		expect(created.body.data.status).toBe('pending');
		expect(receiver.received).toHaveLength(0);
		const [hit] = await receiver.waitFor(1);
		expect(hit.body.data.status).toBe('cancelled');
		expect(gw.getTransaction('CB-S1')).toMatchObject({ status: 'cancelled', is_expired: false });
	});

	it('applies a scripted outcome set after creation to a payout', async () => {
		await call(gw, 'POST', PAYOUT_PROCESS, {
			token: dis,
			body: walletPayoutBody('CB-S2', { callback_webhook_url: receiver.url }),
		});
		gw.scriptOutcome('CB-S2', 'completed');
		const [hit] = await receiver.waitFor(1);
		expect(hit.body.data).toMatchObject({ reference_no: 'CB-S2', status: 'completed' });
		expect(gw.getPayout('CB-S2')).toMatchObject({ status: 'completed' });
	});

	it('retries a failed delivery (non-2xx) 200 ms apart, then stops on success', async () => {
		const flaky = await startReceiver([500, 503]);
		try {
			await call(gw, 'POST', GENERATE, {
				token: col,
				body: txBody('CB-R1', { callback_webhook_url: flaky.url }),
			});
			const started = Date.now();
			await gw.settle('CB-R1', 'completed');
			expect(Date.now() - started).toBeGreaterThanOrEqual(380);
			expect(flaky.received).toHaveLength(3);
			expect(gw.callbacks().map((c) => [c.attempt, c.statusCode])).toEqual([
				[1, 500],
				[2, 503],
				[3, 200],
			]);
			expect(gw.stats().callbacksSent).toBe(1);
		} finally {
			await flaky.close();
		}
	});

	it('records connection errors and gives up after the retries', async () => {
		const dead = await startReceiver();
		const url = dead.url;
		await dead.close();
		await call(gw, 'POST', PAYOUT_PROCESS, {
			token: dis,
			body: walletPayoutBody('CB-R2', { callback_webhook_url: url }),
		});
		await gw.settle('CB-R2', 'completed');
		expect(gw.callbacks()).toEqual(
			[1, 2, 3].map((attempt) => expect.objectContaining({ attempt, error: 'ECONNREFUSED' })),
		);
	});

	it('never contacts a non-loopback host', async () => {
		await call(gw, 'POST', GENERATE, {
			token: col,
			body: txBody('CB-EXT', { callback_webhook_url: 'https://merchant.example.com/hook' }),
		});
		await gw.settle('CB-EXT', 'completed');
		expect(gw.callbacks()).toEqual([
			expect.objectContaining({ url: 'https://merchant.example.com/hook', skipped: true }),
		]);
		expect(gw.stats().callbacksSent).toBe(0);
		expect(['localhost', '127.0.0.1', '127.8.9.10', '[::1]', '::1'].every(isLoopbackHost)).toBe(
			true,
		);
		expect(
			[
				'10.0.0.1',
				'128.0.0.1',
				'localhost.evil.com',
				'127.0.0.1.nip.io',
				'0.0.0.0',
				'[::ffff:8.8.8.8]',
			].some(isLoopbackHost),
		).toBe(false);
	});

	it('delivers to a localhost URL', async () => {
		const url = receiver.url.replace('127.0.0.1', 'localhost');
		await call(gw, 'POST', GENERATE, {
			token: col,
			body: txBody('CB-LH', { callback_webhook_url: url }),
		});
		await gw.settle('CB-LH', 'completed');
		expect((await receiver.waitFor(1))[0].body.data.reference_no).toBe('CB-LH');
	});

	it('settles via the hosted payment page and redirects the browser', async () => {
		const created = await call(gw, 'POST', GENERATE, {
			token: col,
			body: txBody('CB-PAGE', {
				callback_webhook_url: receiver.url,
				success_redirect_url: 'https://shop.example/thanks',
				failure_redirect_url: 'https://shop.example/sorry',
			}),
		});
		const page = await fetch(created.body.data.web_payment_url);
		const html = await page.text();
		expect(page.headers.get('content-type')).toMatch(/text\/html/);
		expect(html).toContain('115.00');
		expect(html).toContain('GCash');
		expect(html).toContain('action="/pay/CB-PAGE/complete"');
		expect(html).toContain('action="/pay/CB-PAGE/cancel"');

		const pay = await fetch(`${gw.url}/pay/CB-PAGE/complete`, {
			method: 'POST',
			redirect: 'manual',
		});
		expect(pay.status).toBe(303);
		expect(pay.headers.get('location')).toBe('https://shop.example/thanks');
		expect((await receiver.waitFor(1))[0].body.data.status).toBe('completed');

		// a second click changes nothing and shows the result page
		const again = await fetch(`${gw.url}/pay/CB-PAGE/cancel`, {
			method: 'POST',
			redirect: 'manual',
		});
		expect(again.status).toBe(200);
		expect(await again.text()).toContain('Payment received');
		expect(gw.getTransaction('CB-PAGE')).toMatchObject({ status: 'completed' });
		expect((await fetch(`${gw.url}/pay/NOPE`)).status).toBe(404);
	});

	it('cancel on the page without a failure URL shows a result page', async () => {
		await call(gw, 'POST', GENERATE, {
			token: col,
			body: txBody('CB-PAGE2', { callback_webhook_url: receiver.url }),
		});
		const res = await fetch(`${gw.url}/pay/CB-PAGE2/cancel`, {
			method: 'POST',
			redirect: 'manual',
		});
		expect(res.status).toBe(200);
		expect(await res.text()).toContain('Payment cancelled');
		expect((await receiver.waitFor(1))[0].body.data.status).toBe('cancelled');
	});

	it('rejects settle() for unknown references', async () => {
		await expect(gw.settle('NOPE', 'completed')).rejects.toThrow(/NOPE/);
	});
});

describe('sandbox gateway: timed transitions', () => {
	it('expires a pending collection transaction: cancelled, is_expired, one callback', async () => {
		const receiver = await startReceiver();
		const gw = await startSandboxGateway({ transactionExpirySeconds: 0.3 });
		try {
			const col = await collectionToken(gw);
			const created = await call(gw, 'POST', GENERATE, {
				token: col,
				body: txBody('EXP-1', { callback_webhook_url: receiver.url }),
			});
			expect(
				Date.parse(created.body.data.expires_at) - Date.parse(created.body.data.date),
			).toBeLessThanOrEqual(1000);
			const [hit] = await receiver.waitFor(1);
			expect(hit.body.data).toMatchObject({
				reference_no: 'EXP-1',
				status: 'cancelled',
				transaction: { is_expired: true },
			});
			const look = await call(gw, 'GET', '/v1/biller/transactions?reference_no=EXP-1', {
				token: col,
			});
			expect(look.body.data.transactions[0]).toMatchObject({
				status: 'cancelled',
				is_expired: true,
			});
			await sleep(100);
			expect(receiver.received).toHaveLength(1);
		} finally {
			await gw.close();
			await receiver.close();
		}
	});

	it('auto-settles payouts after payoutAutoSettleMs', async () => {
		const receiver = await startReceiver();
		const gw = await startSandboxGateway({ payoutAutoSettleMs: 100 });
		try {
			const dis = await disbursementToken(gw);
			const created = await call(gw, 'POST', PAYOUT_PROCESS, {
				token: dis,
				body: walletPayoutBody('AUTO-1', { callback_webhook_url: receiver.url }),
			});
			expect(created.body.data.status).toBe('pending');
			const [hit] = await receiver.waitFor(1);
			expect(hit.body.data).toMatchObject({ reference_no: 'AUTO-1', status: 'completed' });
		} finally {
			await gw.close();
			await receiver.close();
		}
	});

	it('leaves payouts pending by default', async () => {
		const gw = await startSandboxGateway();
		try {
			const dis = await disbursementToken(gw);
			await call(gw, 'POST', PAYOUT_PROCESS, { token: dis, body: walletPayoutBody('STAY-1') });
			await sleep(150);
			expect(gw.getPayout('STAY-1')).toMatchObject({ status: 'pending' });
		} finally {
			await gw.close();
		}
	});
});
