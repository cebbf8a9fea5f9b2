/**
 * "Confirm With Service" against a broken service (a 2xx look-up with the wrong record, another
 * amount, a token echoed back, a cut-off body) and against a callback of the other interface:
 * the trigger starts nothing it cannot stand behind and shows no secret.
 */
import { call as callSandbox, disbursementToken, walletPayoutBody } from '../harness/sandboxCalls';
import {
	LOOKUP_COLLECTION,
	LOOKUP_PAYOUTS,
	paidTransaction,
	serviceCallback,
	trigger,
	setUpPerFile,
} from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

/** The collection look-up's path, where a fault makes the service answer wrongly. */
const LOOKUP_PATH = '/v1/biller/transactions';

const s = setUpPerFile();
beforeEach(() => {
	s.gw.faults.clear();
	s.gw.resetStats();
});

/** The look-up answers 200 with these records instead of the service's own. */
function lookupAnswers(...records: Record<string, unknown>[]): void {
	s.gw.faults.add({
		method: 'GET',
		path: LOOKUP_PATH,
		mode: 'error-before',
		status: 200,
		body: { message: 'OK', data: { transactions: records } },
	});
}

function refusalOf(call: WebhookCall): string {
	expect(call.executionStarted).toBe(false);
	const lines = call.logs.filter((line) => line.level === 'warn').map((line) => line.message);
	expect(lines).toHaveLength(1);
	return lines[0];
}

describe('a look-up that answers 2xx wrongly', () => {
	// Other records only: the service ignored the filter, which says nothing about this reference.
	test('with the record of another reference only: 503 (the sender retries), no execution', async () => {
		const record = await paidTransaction(s.gw, 'CA-1', 300);
		lookupAnswers({ ...record, reference_no: 'CA-SOMEONE-ELSE' });
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CA-1', 300, 'completed'));
		expect(call.statusCode).toBe(503);
		expect(refusalOf(call)).toContain(
			"the Payment Collection service's answer proves nothing about this reference_no (UNREADABLE_LOOKUP)",
		);
	});

	test('with an empty list: 401, the service does not know it', async () => {
		await paidTransaction(s.gw, 'CA-EMPTY', 300);
		lookupAnswers();
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CA-EMPTY', 300, 'completed'));
		expect(call.statusCode).toBe(401);
		expect(refusalOf(call)).toContain('the service does not know this reference_no');
	});

	test('with another record first and the right one second: the right one is used', async () => {
		const record = await paidTransaction(s.gw, 'CA-2', 300);
		lookupAnswers({ ...record, reference_no: 'CA-2-OTHER', subtotal_amount: 1 }, record);
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CA-2', 300, 'completed'));
		expect(call.statusCode).toBe(200);
		expect(call.result?.workflowData?.[0][0].json).toMatchObject({
			reference_no: 'CA-2',
			amount: 300,
			transaction: record,
		});
	});

	test.each([
		[
			'another amount',
			'CA-3A',
			{ subtotal_amount: 3000 },
			'the callback says amount "300" but the service says "3000"',
		],
		[
			'a status that is not final nor known',
			'CA-3B',
			{ status: 'refunded' },
			'the service record states status "refunded", which is none of pending, completed, cancelled',
		],
		['no status', 'CA-3C', { status: null }, 'the service record has no status'],
		[
			'an amount it cannot read',
			'CA-3D',
			{ subtotal_amount: '300 PHP' },
			'the service record has no readable amount',
		],
	])('with %s: 401', async (_name, referenceNo, change, reason) => {
		const record = await paidTransaction(s.gw, referenceNo, 300);
		lookupAnswers({ ...record, ...change });
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, referenceNo, 300, 'completed'));
		expect(call.statusCode).toBe(401);
		expect(refusalOf(call)).toBe(
			`Payment Gateway Trigger refused a callback (HTTP 401): ${reason}`,
		);
	});

	test('echoing the bearer token in its status: 401, and the log shows it hidden', async () => {
		const record = await paidTransaction(s.gw, 'CA-4', 300);
		lookupAnswers({ ...record, status: '{{authorization}}' });
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CA-4', 300, 'completed'));
		expect(call.statusCode).toBe(401);
		// The harness's secret guard checks the answer, the result and every log line for the token.
		expect(refusalOf(call)).toContain('the service record states status "Bearer [hidden]"');
	});

	test('echoing the bearer token in a field of a record that agrees: the item holds it hidden', async () => {
		const record = await paidTransaction(s.gw, 'CA-5', 300);
		lookupAnswers({ ...record, note: 'sent with {{authorization}}' });
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CA-5', 300, 'completed'));
		expect(call.statusCode).toBe(200);
		const item = call.result!.workflowData![0][0].json as { transaction: { note: string } };
		expect(item.transaction.note).toBe('sent with Bearer [hidden]');
	});

	test('with a body cut off mid-JSON: 503 (the sender retries), and the retry is accepted', async () => {
		await paidTransaction(s.gw, 'CA-6', 300);
		s.gw.faults.add({ method: 'GET', path: LOOKUP_PATH, mode: 'malformed', times: 1 });
		const h = await trigger(s, { confirmWithService: true });
		const body = serviceCallback(s.gw, 'CA-6', 300, 'completed');
		const first = await h.post(body);
		expect(first.statusCode).toBe(503);
		expect(first.executionStarted).toBe(false);
		expect((await h.post(body)).executionStarted).toBe(true);
	});
});

describe('a callback of the other interface', () => {
	async function paidPayout(referenceNo: string, amount: number): Promise<void> {
		const token = await disbursementToken(s.gw);
		const res = await callSandbox(s.gw, 'POST', '/v1/api/disbursement/transactions/process', {
			token,
			body: walletPayoutBody(referenceNo, { amount }),
		});
		expect(res.status).toBe(200);
		await s.gw.settle(referenceNo, 'completed');
	}

	test('a genuine payout callback, its copy dressed as a payment, to a collection trigger: 401', async () => {
		await paidPayout('CA-7', 250);
		s.gw.resetStats();
		const h = await trigger(s, { interface: 'collection', confirmWithService: true });
		const body = serviceCallback(s.gw, 'CA-7', 250, 'completed');
		body.data.transaction = {
			reference_no: 'CA-7',
			subtotal_amount: 250,
			channel: { code: 'GCASH_TRN' },
		};
		const call = await h.post(body);
		expect(call.statusCode).toBe(401);
		expect(refusalOf(call)).toContain('the service does not know this reference_no');
		expect(s.gw.stats().requestsByPath[LOOKUP_COLLECTION]).toBe(1);
		expect(s.gw.stats().requestsByPath[LOOKUP_PAYOUTS]).toBeUndefined();
	});

	test('the same callback with its payout shape: 200, ignored before any look-up', async () => {
		await paidPayout('CA-8', 250);
		s.gw.resetStats();
		const h = await trigger(s, { interface: 'collection', confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CA-8', 250, 'completed'));
		expect(call.statusCode).toBe(200);
		expect(call.body).toEqual({ message: 'Ignored: other interface' });
		expect(s.gw.stats().requestsByPath[LOOKUP_COLLECTION]).toBeUndefined();
	});
});
