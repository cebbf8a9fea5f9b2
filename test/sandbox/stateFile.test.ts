import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startSandboxGateway, type SandboxGateway } from '../../sandbox';
import {
	bankPayoutBody,
	call,
	collectionToken,
	disbursementToken,
	sleep,
	startReceiver,
	txBody,
	walletPayoutBody,
} from '../harness/sandboxCalls';
import { PAYOUT_PROCESS } from '../harness/servicePaths';

const PAYOUTS = '/v1/api/disbursement/transactions';
const GENERATE = '/v1/biller/transactions/generate';
const TRANSACTIONS = '/v1/biller/transactions';

describe('sandbox gateway: records kept in a state file', () => {
	let folder: string;
	let stateFile: string;
	const open: SandboxGateway[] = [];
	const start = async (options: Parameters<typeof startSandboxGateway>[0] = {}) => {
		const gw = await startSandboxGateway({ stateFile, ...options });
		open.push(gw);
		return gw;
	};
	beforeEach(() => {
		folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-sandbox-state-'));
		stateFile = path.join(folder, 'sandbox-state.json');
	});
	afterEach(async () => {
		await Promise.all(open.splice(0).map((gw) => gw.close()));
		fs.rmSync(folder, { recursive: true, force: true });
	});

	it('writes every record, and a new gateway on the file answers the same look-ups and refuses taken references', async () => {
		const receiver = await startReceiver();
		try {
			const first = await start();
			const collection = await collectionToken(first);
			const disbursement = await disbursementToken(first);
			expect(
				(await call(first, 'POST', GENERATE, { token: collection, body: txBody('INV-1') })).status,
			).toBe(200);
			const payout = walletPayoutBody('PO-1', { callback_webhook_url: receiver.url });
			expect(
				(await call(first, 'POST', PAYOUT_PROCESS, { token: disbursement, body: payout })).status,
			).toBe(200);
			expect(
				(
					await call(first, 'POST', PAYOUT_PROCESS, {
						token: disbursement,
						body: bankPayoutBody('PO-2'),
					})
				).status,
			).toBe(200);
			await first.settle('PO-1', 'completed');
			await receiver.waitFor(1);

			const written = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as object;
			expect(JSON.stringify(written)).toContain('PO-2');
			expect(fs.readdirSync(folder)).toEqual(['sandbox-state.json']);
			const payoutsBefore = await call(first, 'GET', PAYOUTS, { token: disbursement });
			const transactionBefore = await call(first, 'GET', `${TRANSACTIONS}?reference_no=INV-1`, {
				token: collection,
			});
			const walletsBefore = await call(first, 'GET', '/v1/api/wallets', { token: disbursement });
			const callbacksBefore = first.callbacks();
			await first.close();

			const second = await start();
			const disbursement2 = await disbursementToken(second);
			const collection2 = await collectionToken(second);
			expect((await call(second, 'GET', PAYOUTS, { token: disbursement2 })).body).toEqual(
				payoutsBefore.body,
			);
			expect(
				(await call(second, 'GET', `${TRANSACTIONS}?reference_no=INV-1`, { token: collection2 }))
					.body,
			).toEqual(transactionBefore.body);
			expect((await call(second, 'GET', '/v1/api/wallets', { token: disbursement2 })).body).toEqual(
				walletsBefore.body,
			);
			expect(second.callbacks()).toEqual(callbacksBefore);
			expect(second.getPayout('PO-1')).toMatchObject({ status: 'completed' });

			const again = await call(second, 'POST', PAYOUT_PROCESS, {
				token: disbursement2,
				body: payout,
			});
			expect(again.status).toBe(422);
			expect(again.body.errors.reference_no).toEqual(['The reference no has already been taken.']);
			const againTx = await call(second, 'POST', GENERATE, {
				token: collection2,
				body: txBody('INV-1'),
			});
			expect(againTx.status).toBe(422);
			// A settled payout sends no second callback after the reload.
			await sleep(300);
			expect(receiver.received).toHaveLength(1);
		} finally {
			await receiver.close();
		}
	});

	it('settles a pending payout as scheduled after a reload: at once when its time passed while stopped, else at its time', async () => {
		const receiver = await startReceiver();
		try {
			const first = await start({ payoutAutoSettleMs: 400 });
			const token = await disbursementToken(first);
			const overdue = walletPayoutBody('PO-LATE', { callback_webhook_url: receiver.url });
			expect((await call(first, 'POST', PAYOUT_PROCESS, { token, body: overdue })).status).toBe(
				200,
			);
			await first.close();
			await sleep(500);

			const second = await start({ payoutAutoSettleMs: 400 });
			const received = await receiver.waitFor(1, 1000);
			expect(received[0].body.data.reference_no).toBe('PO-LATE');
			expect(second.getPayout('PO-LATE')).toMatchObject({ status: 'completed' });

			const token2 = await disbursementToken(second);
			const onTime = walletPayoutBody('PO-ON-TIME', { callback_webhook_url: receiver.url });
			expect(
				(await call(second, 'POST', PAYOUT_PROCESS, { token: token2, body: onTime })).status,
			).toBe(200);
			await second.close();

			const third = await start({ payoutAutoSettleMs: 400 });
			expect(third.getPayout('PO-ON-TIME')).toMatchObject({ status: 'pending' });
			await receiver.waitFor(2, 1500);
			expect(third.getPayout('PO-ON-TIME')).toMatchObject({ status: 'completed' });
			expect(receiver.received.map((r) => r.body.data.reference_no)).toEqual([
				'PO-LATE',
				'PO-ON-TIME',
			]);
		} finally {
			await receiver.close();
		}
	});

	it('refuses a state file it cannot read, naming the file and what to do', async () => {
		fs.writeFileSync(stateFile, '{"version": 1, "payouts": [');
		const refused = startSandboxGateway({ stateFile });
		await expect(refused).rejects.toThrow(stateFile);
		await expect(refused).rejects.toThrow(/cannot be read.*Delete it to start/s);
		expect(fs.readFileSync(stateFile, 'utf8')).toBe('{"version": 1, "payouts": [');

		fs.writeFileSync(stateFile, JSON.stringify({ version: 99 }));
		await expect(startSandboxGateway({ stateFile })).rejects.toThrow(/not a sandbox state file/);
	});

	it('starts empty and writes the file when it does not exist yet; reset() empties it', async () => {
		const gw = await start();
		expect(fs.existsSync(stateFile)).toBe(false);
		const token = await disbursementToken(gw);
		await call(gw, 'POST', PAYOUT_PROCESS, { token, body: walletPayoutBody('PO-R') });
		expect(fs.readFileSync(stateFile, 'utf8')).toContain('PO-R');
		gw.reset();
		expect(fs.readFileSync(stateFile, 'utf8')).not.toContain('PO-R');
	});
});
