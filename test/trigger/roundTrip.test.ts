/**
 * Round trips: a payment link and a payout created by this package's own nodes (in n8n's engine),
 * completed in the sandbox gateway with settle(), whose signed callback reaches the trigger's
 * webhook() through n8n's webhook path, is verified and starts the workflow exactly once.
 */
import { runNode } from '../harness';
import { COLLECTION, DISBURSEMENT, trigger, setUpPerFile } from '../harness/triggerRuns';

const s = setUpPerFile();

/** Generate (GCASH_TRN) through the collection node, its callback pointed at a trigger. */
async function generatePaymentLink(
	referenceNo: string,
	amount: number,
	callbackWebhookUrl: string,
) {
	return await runNode({
		type: 'n8n-nodes-payment-gateway.paymentCollection',
		store: s.store,
		parameters: {
			resource: 'transaction',
			operation: 'generate',
			channelCode: 'GCASH_TRN',
			amount,
			referenceNo,
			callbackWebhookUrl,
		},
		credentials: { [COLLECTION]: s.collection },
	});
}

test('payment link -> customer pays -> signed callback -> verified, confirmed, one execution', async () => {
	const h = await trigger(s, { confirmWithService: true, allowedIpAddresses: '127.0.0.1' });

	const generated = await generatePaymentLink('RT-INV-0001', 1500.75, h.url);
	expect(generated.error).toBeUndefined();
	expect(generated.outputs[0][0].json).toMatchObject({
		reference_no: 'RT-INV-0001',
		status: 'pending',
	});
	expect(s.gw.lastRequestBody('/v1/biller/transactions/generate')).toMatchObject({
		callback_webhook_url: h.url,
	});
	expect(h.calls).toHaveLength(0);

	await s.gw.settle('RT-INV-0001', 'completed');
	const [call] = await h.waitForCalls(1);

	const sent = s.gw.callbacks();
	expect(sent).toHaveLength(1);
	expect(sent[0]).toMatchObject({
		url: h.url,
		referenceNo: 'RT-INV-0001',
		status: 'completed',
		attempt: 1,
		statusCode: 200,
	});
	expect(call.statusCode).toBe(200);
	expect(call.executionStarted).toBe(true);
	const service = s.gw.getTransaction('RT-INV-0001') as Record<string, unknown>;
	const item = call.result!.workflowData![0][0].json;
	expect(item).toEqual({
		interface: 'collection',
		reference_no: 'RT-INV-0001',
		status: 'completed',
		statusConfirmed: true,
		amount: 1500.75,
		total_amount: service.total_amount,
		channel: 'GCASH_TRN',
		verified: { signature: true, sourceAddress: true, confirmedWithService: true },
		sourceAddress: '127.0.0.1',
		receivedAt: expect.any(String),
		transaction: service,
		raw: sent[0].body,
	});
	expect(call.nextStepItems?.map((entry) => entry.json)).toEqual([item]);
});

test('payout -> transferred -> signed callback -> one execution; a repost starts none', async () => {
	const h = await trigger(s, { interface: 'both', confirmWithService: true });

	const created = await runNode({
		type: 'n8n-nodes-payment-gateway.disbursement',
		store: s.store,
		parameters: {
			resource: 'payout',
			operation: 'create',
			channelType: 'eWallet',
			channel: 'GCASH',
			mappingMode: 'defineBelow',
			amount: 250,
			referenceNo: 'RT-PAYOUT-0001',
			mobileNumber: '09171234567',
			callbackWebhookUrl: h.url,
		},
		credentials: { [DISBURSEMENT]: s.disbursement },
	});
	expect(created.error).toBeUndefined();
	expect(created.outputs[0][0].json).toMatchObject({
		reference_no: 'RT-PAYOUT-0001',
		status: 'pending',
	});

	await s.gw.settle('RT-PAYOUT-0001', 'completed');
	const [first] = await h.waitForCalls(1);
	expect(first.statusCode).toBe(200);
	expect(first.executionStarted).toBe(true);
	const payout = s.gw.getPayout('RT-PAYOUT-0001') as Record<string, unknown>;
	expect(first.result!.workflowData![0][0].json).toMatchObject({
		interface: 'disbursement',
		reference_no: 'RT-PAYOUT-0001',
		status: 'completed',
		amount: 250,
		total_amount: payout.total_amount,
		channel: 'GCASH',
		verified: { signature: true, sourceAddress: null, confirmedWithService: true },
		transaction: payout,
	});

	// The sandbox's Repost re-sends the same signed callback: a duplicate, answered 200.
	const reposted = await runNode({
		type: 'n8n-nodes-payment-gateway.disbursement',
		store: s.store,
		parameters: { resource: 'payout', operation: 'repost', referenceNo: 'RT-PAYOUT-0001' },
		credentials: { [DISBURSEMENT]: s.disbursement },
	});
	expect(reposted.error).toBeUndefined();
	const calls = await h.waitForCalls(2);
	expect(calls[1].statusCode).toBe(200);
	expect(calls[1].body).toEqual({ message: 'Duplicate ignored' });
	expect(calls[1].executionStarted).toBe(false);
	expect(s.gw.callbacks().map((record) => record.statusCode)).toEqual([200, 200]);
	expect(h.calls.filter((c) => c.executionStarted)).toHaveLength(1);
});

test('a payment that expires unpaid arrives as cancelled; a trigger for completed only ignores it', async () => {
	const completedOnly = await trigger(s, { statuses: ['completed'] });
	const generated = await generatePaymentLink('RT-INV-0002', 99, completedOnly.url);
	expect(generated.error).toBeUndefined();
	await s.gw.settle('RT-INV-0002', 'cancelled');
	const [call] = await completedOnly.waitForCalls(1);
	expect(call.statusCode).toBe(200);
	expect(call.body).toEqual({ message: 'Ignored: status cancelled' });
	expect(call.executionStarted).toBe(false);
});
