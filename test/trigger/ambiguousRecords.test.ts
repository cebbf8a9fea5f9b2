/**
 * "Confirm With Service" reads the service's record through the same two rules as the action
 * nodes: one record per reference (two are ambiguous: 503, the service retries), and the one
 * check of reference, amount, channel and recipient.
 */
import { call as callSandbox, disbursementToken, walletPayoutBody } from '../harness/sandboxCalls';
import {
	callbackBody,
	paidTransaction,
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

function refusalOf(call: WebhookCall): string {
	expect(call.executionStarted).toBe(false);
	const lines = call.logs.filter((line) => line.level === 'warn').map((line) => line.message);
	expect(lines).toHaveLength(1);
	return lines[0];
}

async function paidPayout(
	referenceNo: string,
	amount: number,
	mobileNumber: string,
): Promise<void> {
	const token = await disbursementToken(s.gw);
	const res = await callSandbox(s.gw, 'POST', '/v1/api/disbursement/transactions/process', {
		token,
		body: walletPayoutBody(referenceNo, { amount, fields: { mobile_number: mobileNumber } }),
	});
	expect(res.status).toBe(200);
	await s.gw.settle(referenceNo, 'completed');
}

describe('two records for one reference', () => {
	test('a payment completed and cancelled: 503 so the service retries, no execution', async () => {
		await paidTransaction(s.gw, 'AMB-1', 300);
		s.gw.duplicateRecord('AMB-1', 'cancelled');
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'AMB-1', 300, 'completed'));
		expect(call.statusCode).toBe(503);
		expect(refusalOf(call)).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 503): the service could not be asked: the Payment Collection service holds more than one record for this reference_no (AMBIGUOUS_LOOKUP)',
		);
	});

	test('a payout completed and cancelled: 503, no execution', async () => {
		await paidPayout('AMB-2', 250, '09171234567');
		s.gw.duplicateRecord('AMB-2', 'cancelled');
		const h = await trigger(s, { interface: 'disbursement', confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'AMB-2', 250, 'completed'));
		expect(call.statusCode).toBe(503);
		expect(refusalOf(call)).toContain(
			'the Disbursement service holds more than one record for this reference_no (AMBIGUOUS_LOOKUP)',
		);
	});
});

describe('the recipient a payout callback names', () => {
	test("another mobile number than the service's payout: 401", async () => {
		await paidPayout('RCP-1', 250, '09187654321');
		const h = await trigger(s, { interface: 'disbursement', confirmWithService: true });
		const call = await h.post(
			callbackBody('RCP-1', 250, 'completed', {
				transaction: { ...payoutTransaction('RCP-1', 250, 'completed'), total_amount: 260 },
			}),
		);
		expect(call.statusCode).toBe(401);
		expect(refusalOf(call)).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 401): the callback says mobile number "09171234567" but the service says "09187654321"',
		);
	});

	test('the same mobile number written the other way: accepted', async () => {
		await paidPayout('RCP-2', 250, '+639171234567');
		const h = await trigger(s, { interface: 'disbursement', confirmWithService: true });
		const call = await h.post(
			callbackBody('RCP-2', 250, 'completed', {
				transaction: { ...payoutTransaction('RCP-2', 250, 'completed'), total_amount: 260 },
			}),
		);
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
	});
});
