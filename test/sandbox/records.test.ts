/** The sandbox's broken-record modes, each off until asked for: two records for one reference, an old record, an idempotent 200. */
import { startSandboxGateway, type SandboxGateway } from '../../sandbox';
import {
	call,
	collectionToken,
	disbursementToken,
	txBody,
	walletPayoutBody,
} from '../harness/sandboxCalls';
import { PAYOUT_PROCESS } from '../harness/servicePaths';

const GENERATE = '/v1/biller/transactions/generate';

describe('sandbox gateway: records a broken or idempotent service would show', () => {
	let gw: SandboxGateway;
	beforeAll(async () => {
		gw = await startSandboxGateway();
	});
	afterAll(() => gw.close());
	beforeEach(() => gw.reset());

	it('shows one record per reference until a duplicate is asked for, then both (over HTTP too)', async () => {
		const token = await disbursementToken(gw);
		await call(gw, 'POST', PAYOUT_PROCESS, { token, body: walletPayoutBody('DUP-1') });
		const lookUp = async () =>
			(await call(gw, 'GET', '/v1/api/disbursement/transactions?reference_no=DUP-1', { token }))
				.body as { data: { transactions: Array<{ status: string }> } };
		expect((await lookUp()).data.transactions.map((t) => t.status)).toEqual(['pending']);
		expect(
			(
				await call(gw, 'POST', '/__sandbox/duplicate', {
					body: { reference_no: 'DUP-1', status: 'cancelled' },
				})
			).status,
		).toBe(200);
		expect((await lookUp()).data.transactions.map((t) => t.status)).toEqual([
			'pending',
			'cancelled',
		]);
		expect(
			(
				await call(gw, 'POST', '/__sandbox/duplicate', {
					body: { reference_no: 'NONE', status: 'cancelled' },
				})
			).status,
		).toBe(404);
		expect(
			(
				await call(gw, 'POST', '/__sandbox/duplicate', {
					body: { reference_no: 'DUP-1', status: 'lost' },
				})
			).status,
		).toBe(422);
		gw.reset();
		expect(gw.duplicateRecord('DUP-1', 'completed')).toBe(false);
	});

	it("backdates a record: a payout's created_at, a transaction's date", async () => {
		await call(gw, 'POST', PAYOUT_PROCESS, {
			token: await disbursementToken(gw),
			body: walletPayoutBody('OLD-1'),
		});
		await call(gw, 'POST', GENERATE, { token: await collectionToken(gw), body: txBody('OLD-2') });
		expect(
			(
				await call(gw, 'POST', '/__sandbox/backdate', {
					body: { reference_no: 'OLD-1', created_at: '2026-01-02T03:04:05Z' },
				})
			).status,
		).toBe(200);
		expect(gw.backdate('OLD-2', Date.parse('2026-01-02T03:04:05Z'))).toBe(true);
		expect(gw.getPayout('OLD-1')).toMatchObject({ created_at: '2026-01-02T11:04:05+08:00' });
		expect(gw.getTransaction('OLD-2')).toMatchObject({ date: '2026-01-02T11:04:05+08:00' });
		expect(
			(
				await call(gw, 'POST', '/__sandbox/backdate', {
					body: { reference_no: 'OLD-1', created_at: 'yesterday' },
				})
			).status,
		).toBe(422);
	});

	it('answers a reused reference with 422 "taken" by default, and with the existing record when asked', async () => {
		const token = await disbursementToken(gw);
		await call(gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: walletPayoutBody('IDEM-1', { amount: 100 }),
		});
		const again = () =>
			call(gw, 'POST', PAYOUT_PROCESS, {
				token,
				body: walletPayoutBody('IDEM-1', { amount: 100 }),
			});
		expect((await again()).status).toBe(422);
		expect(
			(await call(gw, 'POST', '/__sandbox/reused-references', { body: { answer: 'existing' } }))
				.status,
		).toBe(200);
		const idempotent = await again();
		expect(idempotent.status).toBe(200);
		expect((idempotent.body as { data: unknown }).data).toEqual(gw.getPayout('IDEM-1'));
		expect(gw.stats().creationsByReference['IDEM-1']).toBe(1);
		gw.reset();
		await call(gw, 'POST', PAYOUT_PROCESS, {
			token: await disbursementToken(gw),
			body: walletPayoutBody('IDEM-1', { amount: 100 }),
		});
		expect(
			(
				await call(gw, 'POST', PAYOUT_PROCESS, {
					token: await disbursementToken(gw),
					body: walletPayoutBody('IDEM-1', { amount: 100 }),
				})
			).status,
		).toBe(422);
	});
});
