/**
 * Send and Wait for Final Status in n8n's engine: Generate and Payout Create park the execution,
 * the sandbox's signed callback to the resume URL resumes it once, a forged, unsigned,
 * other-reference or pending callback leaves it waiting, the time limit ends it with the reference
 * and `finalStatus: false`, and more than one item is refused with nothing sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../../sandbox';
import {
	setUp as setUpCollection,
	NODE_TYPE as COLLECTION_TYPE,
} from '../../harness/collectionRuns';
import { setUp as setUpDisbursement } from '../../harness/disbursementRuns';
import {
	callbackBody,
	paidTransaction,
	payoutTransaction,
	serviceCallback,
} from '../../harness/triggerRuns';
import { startWaitingRun, type WaitingRun } from '../../harness/waitingRuns';
import type { Setup } from '../../harness/nodeRun';

const DISBURSEMENT_TYPE = 'n8n-nodes-payment-gateway.disbursement';
const GENERATE = 'POST /v1/biller/transactions/generate';

/** The hints of the waiting run's task data (n8n's output pane shows them while it waits). */
function waitingHints(run: WaitingRun): string[] {
	return Object.values(run.first.data.resultData.runData)
		.flat()
		.flatMap((task) => task.hints ?? [])
		.map((hint) => hint.message);
}

function generateAndWait(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'transaction',
		operation: 'generate',
		channelCode: 'GCASH_TRN',
		amount: '={{ $json.amount }}',
		referenceNo: '={{ $json.ref }}',
		sendAndWait: true,
		...extra,
	};
}

function collectionCredentials(setup: Setup) {
	return {
		paymentCollectionApi: {
			id: setup.credentialId,
			name: setup.store.get('paymentCollectionApi', setup.credentialId).name,
		},
	};
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

describe('Transaction > Generate with Send and Wait for Final Status', () => {
	let setup: Setup;
	const runs: WaitingRun[] = [];
	beforeAll(async () => {
		setup = await setUpCollection();
	});
	afterAll(async () => {
		for (const run of runs) await run.close();
		await setup.gw.close();
	});

	async function waitFor(ref: string, amount = 250, extra: INodeParameters = {}) {
		const run = await startWaitingRun({
			type: COLLECTION_TYPE,
			parameters: generateAndWait(extra),
			credentials: collectionCredentials(setup),
			store: setup.store,
			items: [{ ref, amount }],
		});
		runs.push(run);
		return run;
	}

	test("waits holding the link, with this execution's resume URL as the callback URL", async () => {
		const run = await waitFor('WAIT-001');
		expect(run.first.status).toBe('waiting');
		expect(run.first.data.resultData.error).toBeUndefined();
		expect(setup.gw.getTransaction('WAIT-001')).toMatchObject({ status: 'pending' });
		// Until the link expires (an hour in the sandbox) plus 15 minutes.
		const expiresAt = Date.parse(
			String((setup.gw.getTransaction('WAIT-001') as IDataObject).expires_at),
		);
		const waitTill = new Date(run.first.waitTill!).getTime();
		expect(waitTill - expiresAt).toBeGreaterThanOrEqual(14 * 60_000);
		expect(waitTill - expiresAt).toBeLessThanOrEqual(16 * 60_000);
		expect(run.nodeOutput()[0].json).toMatchObject({ reference_no: 'WAIT-001', status: 'pending' });
		// The editor shows a waiting node's hints, not its output: the link to open is in one.
		const link = String((setup.gw.getTransaction('WAIT-001') as IDataObject).web_payment_url);
		expect(waitingHints(run)).toEqual([
			expect.stringContaining(`the customer pays at <a href="${link}" target="_blank"`),
		]);
	});

	test("the sandbox's Pay resumes it once with completed and the service's record", async () => {
		const run = await waitFor('WAIT-002', 300);
		await setup.gw.settle('WAIT-002', 'completed');
		expect(setup.gw.callbacks().filter((sent) => sent.referenceNo === 'WAIT-002')).toEqual([
			expect.objectContaining({ url: run.resumeUrl, status: 'completed', statusCode: 200 }),
		]);
		await until(() => run.resumes === 1, 'the resume');
		const [item, ...more] = run.nodeOutput();
		expect(more).toEqual([]);
		expect(item.json).toMatchObject({
			reference_no: 'WAIT-002',
			status: 'completed',
			finalStatus: true,
			waitEnded: 'callback',
			statusConfirmed: true,
			subtotal_amount: 300,
		});
		expect(run.current().status).toBe('success');
		// A repeated callback after the execution went on starts nothing.
		const again = await run.post(serviceCallback(setup.gw, 'WAIT-002', 300, 'completed'));
		expect(again.status).toBe(409);
		expect(run.resumes).toBe(1);
	});

	test('a cancelled link resumes it with cancelled', async () => {
		const run = await waitFor('WAIT-003');
		await setup.gw.settle('WAIT-003', 'cancelled');
		await until(() => run.resumes === 1, 'the resume');
		expect(run.nodeOutput()[0].json).toMatchObject({
			reference_no: 'WAIT-003',
			status: 'cancelled',
			finalStatus: true,
		});
	});

	test('forged, unsigned, other-reference and pending callbacks are refused; the execution keeps waiting', async () => {
		const run = await waitFor('WAIT-004', 400);
		await waitFor('WAIT-004-OTHER', 400);
		const refused: Array<[string, unknown, number]> = [
			[
				'wrong secret',
				callbackBody('WAIT-004', 400, 'completed', { secret: 'not-the-secret' }),
				401,
			],
			['unsigned', callbackBody('WAIT-004', 400, 'completed', { signature: null }), 401],
			['other reference', serviceCallback(setup.gw, 'WAIT-004-OTHER', 400, 'completed'), 403],
			['pending', serviceCallback(setup.gw, 'WAIT-004', 400, 'pending'), 409],
			// Signed, but the service's record is still pending: Confirm With Service refuses it.
			[
				'status the service contradicts',
				serviceCallback(setup.gw, 'WAIT-004', 400, 'completed'),
				401,
			],
			['no reference_no', { data: { amount: 400, status: 'completed' } }, 400],
		];
		for (const [what, body, status] of refused) {
			const answer = await run.post(body);
			expect({ what, status: answer.status }).toEqual({ what, status });
		}
		expect(run.resumes).toBe(0);
		expect(run.current().waitTill).toBeDefined();
		expect(run.current().status).toBe('waiting');
		// The genuine one still resumes it.
		await setup.gw.settle('WAIT-004', 'completed');
		await until(() => run.resumes === 1, 'the resume');
		expect(run.nodeOutput()[0].json).toMatchObject({
			reference_no: 'WAIT-004',
			status: 'completed',
		});
	});

	test('the time limit ends the wait with the reference, still pending, finalStatus false', async () => {
		const run = await waitFor('WAIT-005', 500, { waitTimeLimitMinutes: 5 });
		const waitTill = new Date(run.first.waitTill!).getTime();
		expect(waitTill - Date.now()).toBeGreaterThan(4 * 60_000);
		expect(waitTill - Date.now()).toBeLessThanOrEqual(5 * 60_000);
		const ended = await run.timeLimit();
		expect(ended.status).toBe('success');
		const [item, ...more] = run.nodeOutput();
		expect(more).toEqual([]);
		expect(item.json).toMatchObject({
			reference_no: 'WAIT-005',
			status: 'pending',
			finalStatus: false,
			waitEnded: 'timeLimit',
			waitedUntil: new Date(waitTill).toISOString(),
			web_payment_url: expect.any(String),
		});
		// A callback after the time limit starts nothing.
		expect((await run.post(serviceCallback(setup.gw, 'WAIT-005', 500, 'completed'))).status).toBe(
			409,
		);
	});

	test('several items are refused with the alternatives named, nothing sent and no item dropped', async () => {
		const before = setup.gw.stats().requestsByPath[GENERATE] ?? 0;
		const run = await startWaitingRun({
			type: COLLECTION_TYPE,
			parameters: generateAndWait(),
			credentials: collectionCredentials(setup),
			store: setup.store,
			items: [
				{ ref: 'WAIT-006-A', amount: 100 },
				{ ref: 'WAIT-006-B', amount: 100 },
			],
		});
		runs.push(run);
		expect(run.first.waitTill).toBeUndefined();
		const error = run.first.data.resultData.error;
		expect(error?.message).toBe(
			'Send and Wait for Final Status takes one item per execution, and 2 came in: nothing was sent',
		);
		expect(error?.description).toContain('Loop Over Items');
		expect(error?.description).toContain('Payment Gateway Trigger');
		expect(setup.gw.stats().requestsByPath[GENERATE] ?? 0).toBe(before);
	});

	test('a credential without a Signing Secret is refused before anything is sent', async () => {
		const noSecret = setup.store.add('paymentCollectionApi', {
			environment: 'sandbox',
			baseUrl: setup.gw.url,
			...SANDBOX_CREDENTIALS.collection,
			signingSecret: '',
		}).id;
		const before = setup.gw.stats().requestsByPath[GENERATE] ?? 0;
		const run = await startWaitingRun({
			type: COLLECTION_TYPE,
			parameters: generateAndWait(),
			credentials: {
				paymentCollectionApi: {
					id: noSecret,
					name: setup.store.get('paymentCollectionApi', noSecret).name,
				},
			},
			store: setup.store,
			items: [{ ref: 'WAIT-007', amount: 100 }],
		});
		runs.push(run);
		expect(run.first.data.resultData.error?.message).toBe(
			'Send and Wait for Final Status needs the Signing Secret of the credential: nothing was sent',
		);
		expect(setup.gw.stats().requestsByPath[GENERATE] ?? 0).toBe(before);
	});

	test('a link already paid (a replay) does not wait: the full record, finalStatus true, whatever Simplify says', async () => {
		await paidTransaction(setup.gw, 'WAIT-009', 250);
		const run = await waitFor('WAIT-009', 250, { simplify: true });
		expect(run.first.waitTill).toBeUndefined();
		expect(run.first.status).toBe('success');
		expect(run.nodeOutput()[0].json).toMatchObject({
			reference_no: 'WAIT-009',
			status: 'completed',
			replayed: true,
			finalStatus: true,
			waitEnded: 'finalBeforeWaiting',
			web_payment_url: expect.any(String),
			subtotal_amount: 250,
		});
	});

	test('ten copies of the genuine callback at once resume it once; the rest are answered with a conflict', async () => {
		const run = await waitFor('WAIT-010', 320);
		// The look-ups of Confirm With Service take a while, so all ten are checked at the same time.
		setup.gw.faults.add({
			path: '/v1/biller/transactions',
			method: 'GET',
			mode: 'latency',
			latencyMs: 300,
		});
		try {
			const body = serviceCallback(setup.gw, 'WAIT-010', 320, 'completed');
			const settled = setup.gw.settle('WAIT-010', 'completed');
			const answers = await Promise.all(
				Array.from({ length: 9 }, async () => await run.post(body)),
			);
			await settled;
			const fromService = setup.gw
				.callbacks()
				.filter((sent) => sent.referenceNo === 'WAIT-010')
				.map((sent) => sent.statusCode);
			const codes = [...answers.map((answer) => answer.status), ...fromService].sort();
			expect(codes).toEqual([200, ...Array(9).fill(409)]);
			// A conflict from the node's claim, or from n8n once the resumed run was stored.
			const conflicts = answers.filter((answer) => answer.status === 409);
			for (const answer of conflicts)
				expect((answer.body as IDataObject).message).toMatch(
					/^(This execution was resumed by an earlier callback|The execution ".+" (has finished|is running) already\.)$/,
				);
		} finally {
			setup.gw.faults.clear();
		}
		await until(() => run.current().status === 'success', 'the resumed run');
		expect(run.resumes).toBe(1);
		expect(run.nodeOutput()).toHaveLength(1);
	});

	describe('a final status for another payment than was sent does not go on as paid', () => {
		/** The service's record as its look-up answers it, changed; the signed callback saying the same. */
		function paidOtherwise(ref: string, change: IDataObject) {
			const record: IDataObject = {
				...(setup.gw.getTransaction(ref) as IDataObject),
				status: 'completed',
				...change,
			};
			setup.gw.faults.add({
				path: '/v1/biller/transactions',
				method: 'GET',
				mode: 'error-before',
				status: 200,
				body: { message: '', data: { transactions: [record] } },
			});
			return callbackBody(ref, Number(record.subtotal_amount), 'completed', {
				transaction: record,
				totalAmount: record.total_amount as number,
			});
		}
		afterEach(() => setup.gw.faults.clear());

		test('PHP 10 paid on a PHP 1,000 link: finalStatus false, waitEnded differs, both differences listed', async () => {
			const run = await waitFor('WAIT-012', 1000);
			const answer = await run.post(
				paidOtherwise('WAIT-012', { subtotal_amount: 10, total_amount: 20 }),
			);
			expect(answer.status).toBe(200);
			await until(() => run.resumes === 1, 'the resume');
			const [item] = run.nodeOutput();
			expect(item.json).toMatchObject({
				reference_no: 'WAIT-012',
				status: 'completed',
				finalStatus: false,
				waitEnded: 'differs',
				statusConfirmed: true,
				differences: [
					{ fact: 'amount', sent: '1000', stated: '10', by: 'callback' },
					{ fact: 'amount', sent: '1000', stated: '10', by: 'service' },
				],
			});
			expect(item.json.message).toContain('Do not treat it as paid');
		});

		test('paid on PAYMAYA_QR where GCASH_TRN was sent: differs by channel', async () => {
			const run = await waitFor('WAIT-013', 400);
			const channel = {
				name: 'Maya QR',
				code: 'PAYMAYA_QR',
				slug: 'maya',
				category: { name: 'QR', slug: 'qr' },
			};
			expect((await run.post(paidOtherwise('WAIT-013', { channel }))).status).toBe(200);
			await until(() => run.resumes === 1, 'the resume');
			expect(run.nodeOutput()[0].json).toMatchObject({
				finalStatus: false,
				waitEnded: 'differs',
				differences: [
					{ fact: 'channel', sent: 'GCASH_TRN', stated: 'PAYMAYA_QR', by: 'callback' },
					{ fact: 'channel', sent: 'GCASH_TRN', stated: 'PAYMAYA_QR', by: 'service' },
				],
			});
		});

		test('without Confirm With Service, the signed callback alone for another amount differs', async () => {
			const run = await waitFor('WAIT-014', 1000, { waitConfirmWithService: false });
			const record = setup.gw.getTransaction('WAIT-014') as IDataObject;
			const body = callbackBody('WAIT-014', 10, 'completed', {
				transaction: { ...record, status: 'completed', subtotal_amount: 10 },
			});
			expect((await run.post(body)).status).toBe(200);
			await until(() => run.resumes === 1, 'the resume');
			expect(run.nodeOutput()[0].json).toMatchObject({
				finalStatus: false,
				waitEnded: 'differs',
				statusConfirmed: false,
				differences: [{ fact: 'amount', sent: '1000', stated: '10', by: 'callback' }],
			});
		});
	});

	test('a retry of a link another execution waits for looks its status up and ends with it, within seconds of the payment', async () => {
		const first = await waitFor('WAIT-015', 450);
		// The first execution is stopped: nothing answers at its resume URL any more.
		await first.close();
		const retry = startWaitingRun({
			type: COLLECTION_TYPE,
			parameters: generateAndWait(),
			credentials: collectionCredentials(setup),
			store: setup.store,
			items: [{ ref: 'WAIT-015', amount: 450 }],
		});
		await new Promise((resolve) => setTimeout(resolve, 500));
		await setup.gw.settle('WAIT-015', 'completed');
		const paidAt = Date.now();
		const run = await retry;
		runs.push(run);
		expect(Date.now() - paidAt).toBeLessThan(10_000);
		expect(run.first.waitTill).toBeUndefined();
		expect(run.first.status).toBe('success');
		expect(run.nodeOutput()[0].json).toMatchObject({
			reference_no: 'WAIT-015',
			status: 'completed',
			replayed: true,
			finalStatus: true,
			waitEnded: 'lookedUp',
			waitedFor: expect.stringContaining('sent before'),
		});
	});

	test('Check Only still sends nothing and does not wait', async () => {
		const run = await waitFor('WAIT-008', 100, { options: { dryRun: true } });
		expect(run.first.waitTill).toBeUndefined();
		expect(setup.gw.getTransaction('WAIT-008')).toBeUndefined();
	});
});

describe('Payout > Create with Send and Wait for Final Status', () => {
	let setup: Setup;
	const runs: WaitingRun[] = [];
	beforeAll(async () => {
		setup = await setUpDisbursement();
	});
	afterAll(async () => {
		for (const run of runs) await run.close();
		await setup.gw.close();
	});

	function payoutAndWait(extra: IDataObject = {}): INodeParameters {
		return {
			resource: 'payout',
			operation: 'create',
			mappingMode: 'defineBelow',
			channelType: 'eWallet',
			channel: 'GCASH',
			amount: '={{ $json.amount }}',
			referenceNo: '={{ $json.ref }}',
			mobileNumber: '09171234567',
			sendAndWait: true,
			...extra,
		} as INodeParameters;
	}

	async function waitFor(ref: string, amount: number, extra: IDataObject = {}) {
		const run = await startWaitingRun({
			type: DISBURSEMENT_TYPE,
			typeVersion: 2,
			parameters: payoutAndWait(extra),
			credentials: {
				disbursementApi: {
					id: setup.credentialId,
					name: setup.store.get('disbursementApi', setup.credentialId).name,
				},
			},
			store: setup.store,
			items: [{ ref, amount }],
		});
		runs.push(run);
		return run;
	}

	test('waits a day by default and resumes with completed on the payout callback', async () => {
		const run = await waitFor('PWAIT-001', 700);
		expect(run.first.status).toBe('waiting');
		const waitTill = new Date(run.first.waitTill!).getTime();
		expect(waitTill - Date.now()).toBeGreaterThan(1439 * 60_000);
		expect(waitTill - Date.now()).toBeLessThanOrEqual(1440 * 60_000);
		expect(setup.gw.getPayout('PWAIT-001')).toMatchObject({ callback_webhook_url: run.resumeUrl });
		expect(waitingHints(run)).toEqual([
			expect.stringMatching(
				/^Waiting for the final status of payout PWAIT-001 \(status: pending\)/,
			),
		]);
		await setup.gw.settle('PWAIT-001', 'completed');
		await until(() => run.resumes === 1, 'the resume');
		expect(run.nodeOutput()[0].json).toMatchObject({
			reference_no: 'PWAIT-001',
			status: 'completed',
			finalStatus: true,
			waitEnded: 'callback',
		});
	});

	test('a callback signed for the payout with a forged status keeps it waiting', async () => {
		const run = await waitFor('PWAIT-002', 800);
		const forged = callbackBody('PWAIT-002', 800, 'completed', {
			transaction: payoutTransaction('PWAIT-002', 800, 'completed'),
		});
		expect((await run.post(forged)).status).toBe(401);
		expect(run.current().status).toBe('waiting');
		const ended = await run.timeLimit();
		expect(ended.status).toBe('success');
		expect(run.nodeOutput()[0].json).toMatchObject({
			reference_no: 'PWAIT-002',
			finalStatus: false,
			waitEnded: 'timeLimit',
		});
	});

	test('a signed callback paying another mobile number than was sent differs by recipient', async () => {
		const run = await waitFor('PWAIT-004', 700, { waitConfirmWithService: false });
		const elsewhere = {
			...payoutTransaction('PWAIT-004', 700, 'completed'),
			fields: { mobile_number: '09179999999' },
		};
		expect(
			(await run.post(callbackBody('PWAIT-004', 700, 'completed', { transaction: elsewhere })))
				.status,
		).toBe(200);
		await until(() => run.resumes === 1, 'the resume');
		expect(run.nodeOutput()[0].json).toMatchObject({
			finalStatus: false,
			waitEnded: 'differs',
			differences: [
				{ fact: 'mobile number', sent: '09171234567', stated: '09179999999', by: 'callback' },
			],
		});
	});

	test("a retry the service answers with the existing payout, its callback URL the first execution's, looks the status up", async () => {
		const first = await waitFor('PWAIT-005', 750);
		await first.close();
		setup.gw.answerReusedReferences('existing');
		try {
			const retry = startWaitingRun({
				type: DISBURSEMENT_TYPE,
				typeVersion: 2,
				parameters: payoutAndWait(),
				credentials: {
					disbursementApi: {
						id: setup.credentialId,
						name: setup.store.get('disbursementApi', setup.credentialId).name,
					},
				},
				store: setup.store,
				items: [{ ref: 'PWAIT-005', amount: 750 }],
			});
			await new Promise((resolve) => setTimeout(resolve, 500));
			await setup.gw.settle('PWAIT-005', 'completed');
			const run = await retry;
			runs.push(run);
			expect(run.first.waitTill).toBeUndefined();
			expect(run.nodeOutput()[0].json).toMatchObject({
				reference_no: 'PWAIT-005',
				status: 'completed',
				callback_webhook_url: first.resumeUrl,
				finalStatus: true,
				waitEnded: 'lookedUp',
			});
		} finally {
			setup.gw.answerReusedReferences('taken');
		}
	});

	test('Maximum per Payout still refuses, with nothing sent and no wait', async () => {
		const run = await waitFor('PWAIT-003', 900, { options: { maxAmountPerPayout: 500 } });
		expect(run.first.waitTill).toBeUndefined();
		expect(run.first.data.resultData.error?.message).toContain('Maximum per Payout');
		expect(setup.gw.getPayout('PWAIT-003')).toBeUndefined();
	});
});
