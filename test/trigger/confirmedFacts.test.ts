/**
 * Only verified facts go out as facts. The signature covers amount and reference_no, not the
 * status: with Confirm With Service the status and amount come from the service's record and a
 * callback the record contradicts is refused; without it the item says the status is unconfirmed.
 */
import { signCallback } from '../../nodes/shared/validation/signature';
import {
	SECRET,
	callbackBody,
	paidTransaction,
	serviceCallback,
	trigger,
	setUpPerFile,
} from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

const s = setUpPerFile();

function expectRefused(call: WebhookCall, reason: string): void {
	expect(call.statusCode).toBe(401);
	expect(call.executionStarted).toBe(false);
	expect(call.logs.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
		`Payment Gateway Trigger refused a callback (HTTP 401): ${reason}`,
	]);
}

describe('Confirm With Service on', () => {
	test('status, amount, total and channel come from the record, and statusConfirmed is true', async () => {
		const record = await paidTransaction(s.gw, 'CN-1', 700.5);
		const h = await trigger(s, { confirmWithService: true });
		const call = await h.post(serviceCallback(s.gw, 'CN-1', 700.5, 'completed'));
		expect(call.statusCode).toBe(200);
		expect(call.result!.workflowData![0][0].json).toMatchObject({
			reference_no: 'CN-1',
			status: 'completed',
			statusConfirmed: true,
			amount: record.subtotal_amount,
			total_amount: record.total_amount,
			channel: (record.channel as { code: string }).code,
			transaction: record,
			verified: { signature: true, confirmedWithService: true },
		});
	});

	test('a signed amount the record does not hold is refused', async () => {
		await paidTransaction(s.gw, 'CN-2', 500);
		const h = await trigger(s, { confirmWithService: true });
		// Genuinely signed for 400 (the signature only proves the amount was signed, not that it is this payment's).
		const body = serviceCallback(s.gw, 'CN-2', 500, 'completed');
		body.data.amount = 400;
		body.data.signature = signCallback(SECRET, 400, 'CN-2');
		// The copy agrees with the signed amount, or it alone would refuse the callback (signatureForms.test.ts).
		(body.data.transaction as Record<string, unknown>).subtotal_amount = 400;
		expectRefused(await h.post(body), 'the callback says amount "400" but the service says "500"');
	});

	test('an unsigned total_amount that disagrees with the record is refused', async () => {
		const record = await paidTransaction(s.gw, 'CN-3', 500);
		const h = await trigger(s, { confirmWithService: true });
		const body = serviceCallback(s.gw, 'CN-3', 500, 'completed');
		body.data.total_amount = 5;
		expectRefused(
			await h.post(body),
			`the callback says total_amount "5" but the service says "${String(record.total_amount)}"`,
		);
	});

	test('an unsigned channel that disagrees with the record is refused', async () => {
		await paidTransaction(s.gw, 'CN-4', 500);
		const h = await trigger(s, { confirmWithService: true });
		const body = serviceCallback(s.gw, 'CN-4', 500, 'completed');
		(body.data.transaction as { channel: { code: string } }).channel.code = 'OTHER_CHANNEL';
		expectRefused(
			await h.post(body),
			'the callback says channel "OTHER_CHANNEL" but the service says "GCASH_TRN"',
		);
	});
});

describe('Confirm With Service off', () => {
	test('the status is passed on as the callback states it, marked statusConfirmed: false', async () => {
		const h = await trigger(s);
		// Nothing stops a replayed signed callback from claiming "completed": the item says so.
		const call = await h.post(callbackBody('CN-5', 100, 'completed'));
		expect(call.statusCode).toBe(200);
		expect(call.result!.workflowData![0][0].json).toMatchObject({
			status: 'completed',
			statusConfirmed: false,
			verified: { signature: true, confirmedWithService: null },
		});
	});
});
