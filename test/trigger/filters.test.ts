/**
 * Filters (status, interface), duplicate deliveries and "Confirm With Service", through n8n's
 * webhook path, with look-ups answered by the sandbox gateway over real HTTP.
 */
import { SANDBOX_CREDENTIALS } from '../../sandbox';
import {
	call as callSandbox,
	collectionToken,
	disbursementToken,
	txBody,
	walletPayoutBody,
} from '../harness/sandboxCalls';
import {
	COLLECTION,
	DISBURSEMENT,
	LOOKUP_COLLECTION,
	LOOKUP_PAYOUTS,
	callbackBody,
	payoutTransaction,
	serviceCallback,
	trigger,
	setUpPerFile,
} from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

const s = setUpPerFile();
beforeEach(() => {
	s.gw.faults.clear();
	s.gw.resetStats();
});

function itemOf(call: WebhookCall) {
	expect(call.executionStarted).toBe(true);
	expect(call.result?.workflowData?.[0]).toHaveLength(1);
	return call.result!.workflowData![0][0].json;
}

function expectIgnored(call: WebhookCall, message: string, logged: string): void {
	expect(call.statusCode).toBe(200);
	expect(call.body).toEqual({ message });
	expect(call.executionStarted).toBe(false);
	expect(call.result).toEqual({ noWebhookResponse: true });
	expect(
		call.logs.filter((line) => line.message.includes('ignored')).map((line) => line.message),
	).toEqual([`Payment Gateway Trigger ignored a callback: ${logged}`]);
}

async function createTransaction(referenceNo: string, amount: number): Promise<void> {
	const token = await collectionToken(s.gw);
	const res = await callSandbox(s.gw, 'POST', '/v1/biller/transactions/generate', {
		token,
		body: txBody(referenceNo, { amount }),
	});
	expect(res.status).toBe(200);
}

async function createPayout(referenceNo: string, amount: number): Promise<void> {
	const token = await disbursementToken(s.gw);
	const res = await callSandbox(s.gw, 'POST', '/v1/api/disbursement/transactions/process', {
		token,
		body: walletPayoutBody(referenceNo, { amount }),
	});
	expect(res.status).toBe(200);
}

describe('status filter', () => {
	test('pending is filtered out by default: 200, no execution', async () => {
		const h = await trigger(s);
		const call = await h.post(callbackBody('ST-1', 100, 'pending'));
		expectIgnored(
			call,
			'Ignored: status pending',
			'status "pending" is not one of the chosen statuses',
		);
	});

	test('completed and cancelled pass by default', async () => {
		const h = await trigger(s);
		expect(itemOf(await h.post(callbackBody('ST-2', 100, 'completed'))).status).toBe('completed');
		expect(itemOf(await h.post(callbackBody('ST-3', 100, 'cancelled'))).status).toBe('cancelled');
	});

	test('a chosen list is honoured: only pending', async () => {
		const h = await trigger(s, { statuses: ['pending'] });
		expect(itemOf(await h.post(callbackBody('ST-4', 100, 'pending'))).status).toBe('pending');
		expectIgnored(
			await h.post(callbackBody('ST-5', 100, 'completed')),
			'Ignored: status completed',
			'status "completed" is not one of the chosen statuses',
		);
	});

	test('a forged signature is refused (401) even when its status would be filtered out', async () => {
		const h = await trigger(s);
		const call = await h.post(
			callbackBody('ST-6', 100, 'pending', { secret: 'forger-secret-999' }),
		);
		expect(call.statusCode).toBe(401);
		expect(call.executionStarted).toBe(false);
	});
});

describe('interface', () => {
	test('both: a collection-shaped callback is "collection", a payout-shaped one "disbursement"', async () => {
		const h = await trigger(s, { interface: 'both' });
		const payment = itemOf(await h.post(callbackBody('IF-1', 100, 'completed')));
		expect(payment).toMatchObject({ interface: 'collection', channel: 'GCASH_TRN' });
		const payout = itemOf(
			await h.post(
				callbackBody('IF-2', 250, 'completed', {
					transaction: payoutTransaction('IF-2', 250, 'completed'),
				}),
			),
		);
		expect(payout).toMatchObject({
			interface: 'disbursement',
			channel: 'GCASH',
			amount: 250,
			total_amount: 265,
		});
	});

	test('both, different secrets: the secret that verifies tells the interface apart', async () => {
		const otherSecret = 'disbursement-only-secret-7731';
		const disbursement = s.store.add(DISBURSEMENT, {
			environment: 'sandbox',
			baseUrl: s.gw.url,
			...SANDBOX_CREDENTIALS.disbursement,
			signingSecret: otherSecret,
		});
		const h = await trigger(
			s,
			{ interface: 'both' },
			{ credentials: { [COLLECTION]: s.collection, [DISBURSEMENT]: disbursement } },
		);
		// Neither body carries a transaction copy, so only the secret can tell.
		const bare = (ref: string, secret?: string) => {
			const body = callbackBody(ref, 100, 'completed', { secret });
			delete body.data.transaction;
			return body;
		};
		expect(itemOf(await h.post(bare('IF-3'))).interface).toBe('collection');
		expect(itemOf(await h.post(bare('IF-4', otherSecret))).interface).toBe('disbursement');
		const forged = await h.post(bare('IF-5', 'neither-of-them-123'));
		expect(forged.statusCode).toBe(401);
		expect(forged.logs.find((line) => line.level === 'warn')?.message).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 401): the signature does not match amount@reference_no signed with the Signing Secret of the Payment Collection and Disbursement credential',
		);
	});

	// Activation refuses this set-up (lifecycle.test.ts); a trigger running anyway still fails closed.
	test('both, one credential without a secret: an unsigned payout-shaped callback is still refused', async () => {
		const unsignedDisbursement = s.store.add(DISBURSEMENT, {
			environment: 'sandbox',
			baseUrl: s.gw.url,
			...SANDBOX_CREDENTIALS.disbursement,
		});
		const h = await trigger(
			s,
			{ interface: 'both' },
			{ credentials: { [COLLECTION]: s.collection, [DISBURSEMENT]: unsignedDisbursement } },
		);
		const call = await h.post(
			callbackBody('IF-6', 100, 'completed', {
				signature: null,
				transaction: payoutTransaction('IF-6', 100, 'completed'),
			}),
		);
		expect(call.statusCode).toBe(401);
		expect(call.executionStarted).toBe(false);
		// The interface with a secret works as before.
		expect(itemOf(await h.post(callbackBody('IF-6B', 100, 'completed'))).interface).toBe(
			'collection',
		);
	});

	test('collection only: a payout callback sent to this URL is answered 200 and ignored', async () => {
		const h = await trigger(s, { interface: 'collection' });
		const call = await h.post(
			callbackBody('IF-7', 100, 'completed', {
				transaction: payoutTransaction('IF-7', 100, 'completed'),
			}),
		);
		expectIgnored(
			call,
			'Ignored: other interface',
			'it is a disbursement callback and this trigger listens to collection',
		);
	});

	test('disbursement only: works with just the Disbursement credential', async () => {
		const h = await trigger(s, { interface: 'disbursement' });
		expect(h.node.credentials).toEqual({ [DISBURSEMENT]: s.disbursement });
		const item = itemOf(
			await h.post(
				callbackBody('IF-8', 40, 'cancelled', {
					transaction: payoutTransaction('IF-8', 40, 'cancelled'),
				}),
			),
		);
		expect(item).toMatchObject({ interface: 'disbursement', status: 'cancelled', amount: 40 });
	});
});

describe('duplicate deliveries', () => {
	test('the same reference and status start one execution; repeats get 200 and start nothing', async () => {
		const h = await trigger(s);
		const body = callbackBody('DUP-1', 100, 'completed');
		const first = await h.post(body);
		expect(first.statusCode).toBe(200);
		expect(first.executionStarted).toBe(true);
		for (let i = 0; i < 2; i++) {
			expectIgnored(await h.post(body), 'Duplicate ignored', 'duplicate delivery');
		}
		expect(h.calls.filter((c) => c.executionStarted)).toHaveLength(1);
	});

	test('a new status of the same reference is not a duplicate', async () => {
		const h = await trigger(s, { statuses: ['pending', 'completed', 'cancelled'] });
		expect((await h.post(callbackBody('DUP-2', 100, 'pending'))).executionStarted).toBe(true);
		expect((await h.post(callbackBody('DUP-2', 100, 'completed'))).executionStarted).toBe(true);
	});

	test('deliveries arriving at the same moment still start exactly one execution', async () => {
		await createTransaction('DUP-3', 300);
		await s.gw.settle('DUP-3', 'completed');
		s.gw.resetStats();
		// With confirmation each request awaits a look-up: all five are in flight together.
		const h = await trigger(s, { confirmWithService: true });
		const body = serviceCallback(s.gw, 'DUP-3', 300, 'completed');
		const calls = await Promise.all([1, 2, 3, 4, 5].map(async () => await h.post(body)));
		expect(calls.map((c) => c.statusCode)).toEqual([200, 200, 200, 200, 200]);
		expect(calls.filter((c) => c.executionStarted)).toHaveLength(1);
		expect(
			calls.filter((c) => (c.body as { message: string }).message === 'Duplicate ignored'),
		).toHaveLength(4);
	});

	test('each trigger node remembers its own deliveries', async () => {
		const a = await trigger(s);
		const b = await trigger(s);
		const body = callbackBody('DUP-4', 100, 'completed');
		expect((await a.post(body)).executionStarted).toBe(true);
		expect((await b.post(body)).executionStarted).toBe(true);
	});

	test('a refused delivery is not remembered: the genuine one still starts the workflow', async () => {
		const h = await trigger(s);
		const forged = await h.post(
			callbackBody('DUP-5', 100, 'completed', { secret: 'forger-secret-999' }),
		);
		expect(forged.statusCode).toBe(401);
		expect((await h.post(callbackBody('DUP-5', 100, 'completed'))).executionStarted).toBe(true);
	});

	test('on the test URL (manual mode) nothing is deduplicated: each test event runs', async () => {
		const h = await trigger(s, {}, { mode: 'manual' });
		expect(h.url).toContain('/webhook-test/');
		const body = callbackBody('DUP-6', 100, 'completed');
		expect((await h.post(body)).executionStarted).toBe(true);
		expect((await h.post(body)).executionStarted).toBe(true);
	});
});

describe('confirm with the service', () => {
	test('a signed callback with a forged status is refused (401): the service says pending', async () => {
		await createTransaction('CF-1', 500);
		s.gw.resetStats();
		const h = await trigger(s, { confirmWithService: true });
		// The signature is genuine (it covers amount and reference only); the status is not.
		const call = await h.post(serviceCallback(s.gw, 'CF-1', 500, 'completed'));
		expect(call.statusCode).toBe(401);
		expect(call.body).toEqual({ message: 'Unauthorized' });
		expect(call.executionStarted).toBe(false);
		expect(call.logs.find((line) => line.level === 'warn')?.message).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 401): the callback says "completed" but the service says "pending"',
		);
		expect(s.gw.stats().requestsByPath[LOOKUP_COLLECTION]).toBe(1);
	});

	test('once the service agrees the callback starts the workflow with the service record', async () => {
		await createTransaction('CF-2', 500);
		await s.gw.settle('CF-2', 'completed');
		s.gw.resetStats();
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CF-2', 500, 'completed'));
		expect(call.statusCode).toBe(200);
		const item = itemOf(call);
		expect(item).toMatchObject({
			interface: 'collection',
			reference_no: 'CF-2',
			status: 'completed',
			verified: { signature: true, sourceAddress: null, confirmedWithService: true },
		});
		expect(item.transaction).toEqual(s.gw.getTransaction('CF-2'));
		expect(s.gw.stats().requestsByPath[LOOKUP_COLLECTION]).toBe(1);
		// A repeat is a duplicate: answered without asking the service again.
		const again = await h.post(serviceCallback(s.gw, 'CF-2', 500, 'completed'));
		expect(again.executionStarted).toBe(false);
		expect(s.gw.stats().requestsByPath[LOOKUP_COLLECTION]).toBe(1);
	});

	test('a reference the service does not know is refused (401)', async () => {
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(callbackBody('CF-UNKNOWN', 100, 'completed'));
		expect(call.statusCode).toBe(401);
		expect(call.executionStarted).toBe(false);
		expect(call.logs.find((line) => line.level === 'warn')?.message).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 401): the service does not know this reference_no',
		);
	});

	test('when the service cannot be asked the answer is 503 (so the sender retries), and a retry works', async () => {
		await createTransaction('CF-3', 120);
		await s.gw.settle('CF-3', 'cancelled');
		const h = await trigger(s, { confirmWithService: true });
		s.gw.faults.add({
			method: 'GET',
			path: '/v1/biller/transactions',
			mode: 'error-before',
			status: 500,
			times: 1,
		});
		const failed = await h.post(serviceCallback(s.gw, 'CF-3', 120, 'cancelled'));
		expect(failed.statusCode).toBe(503);
		expect(failed.body).toEqual({ message: 'Service unavailable, try again later' });
		expect(failed.executionStarted).toBe(false);
		expect(failed.logs.find((line) => line.level === 'warn')?.message).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 503): the service could not be asked: the Payment Collection service answered HTTP 500',
		);
		const retried = await h.post(serviceCallback(s.gw, 'CF-3', 120, 'cancelled'));
		expect(retried.statusCode).toBe(200);
		expect(itemOf(retried).status).toBe('cancelled');
	});

	test('a payout is confirmed through the disbursement look-up only', async () => {
		await createPayout('CF-4', 250);
		await s.gw.settle('CF-4', 'completed');
		s.gw.resetStats();
		const h = await trigger(s, { interface: 'both', confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CF-4', 250, 'completed'));
		const item = itemOf(call);
		expect(item).toMatchObject({
			interface: 'disbursement',
			status: 'completed',
			channel: 'GCASH',
		});
		expect(item.transaction).toEqual(s.gw.getPayout('CF-4'));
		expect(s.gw.stats().requestsByPath[LOOKUP_PAYOUTS]).toBe(1);
		expect(s.gw.stats().requestsByPath[LOOKUP_COLLECTION]).toBeUndefined();
	});
});
