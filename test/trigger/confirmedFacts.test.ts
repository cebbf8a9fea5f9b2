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
	payoutTransaction,
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

	test.each([
		['beside the copy and in it', 'CN-3', 5],
		// Compared with the record though the callback states it in its copy alone.
		['in the copy only', 'CN-3-COPY', undefined],
	])(
		'an unsigned total_amount stated %s that disagrees with the record is refused',
		async (_where, referenceNo, beside) => {
			const record = await paidTransaction(s.gw, referenceNo, 500);
			const h = await trigger(s, { confirmWithService: true });
			const body = serviceCallback(s.gw, referenceNo, 500, 'completed');
			// Changed wherever it is stated, or the callback contradicts itself first.
			body.data.total_amount = beside;
			(body.data.transaction as Record<string, unknown>).total_amount = 5;
			expectRefused(
				await h.post(body),
				`the callback says total_amount "5" but the service says "${String(record.total_amount)}"`,
			);
		},
	);

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

describe('what the callback states and the record does not: listed in unconfirmed, not passed on', () => {
	/** The service's record of `referenceNo`, without a total_amount: the next look-up answers it. */
	const recordWithoutTotal = (referenceNo: string) =>
		s.gw.faults.add({
			method: 'GET',
			path: '/v1/biller/transactions',
			mode: 'error-before',
			status: 200,
			times: 1,
			body: {
				data: {
					transactions: [
						{
							reference_no: referenceNo,
							subtotal_amount: 1500,
							status: 'completed',
							channel: { code: 'GCASH_TRN' },
						},
					],
				},
			},
		});

	test.each([
		['beside the copy and in it', 1530, 1530],
		['beside the copy only', 1530, undefined],
		['in the copy only', undefined, 1530],
	])(
		'a total_amount 1530 stated %s, the record stating none: total_amount null and unconfirmed ["total_amount"]',
		async (_where, beside, inCopy) => {
			const referenceNo = `UC-TOTAL-${beside ?? '-'}-${inCopy ?? '-'}`;
			recordWithoutTotal(referenceNo);
			const h = await trigger(s, { confirmWithService: true });
			const body = callbackBody(referenceNo, 1500, 'completed');
			const copy = body.data.transaction as Record<string, unknown>;
			body.data.total_amount = beside;
			copy.total_amount = inCopy;
			const call = await h.post(body);
			expect([call.statusCode, call.executionStarted]).toEqual([200, true]);
			expect(call.result!.workflowData![0][0].json).toMatchObject({
				statusConfirmed: true,
				amount: 1500,
				total_amount: null,
				channel: 'GCASH_TRN',
				unconfirmed: ['total_amount'],
			});
		},
	);

	test('a top-level channel PAYMAYA beside a copy saying GCASH_TRN, which the record confirms: refused', async () => {
		await paidTransaction(s.gw, 'UC-TWO-CHANNELS', 500);
		const h = await trigger(s, { confirmWithService: true });
		const body = serviceCallback(s.gw, 'UC-TWO-CHANNELS', 500, 'completed');
		body.data.channel = 'PAYMAYA';
		expectRefused(
			await h.post(body),
			'the transaction copy says channel "GCASH_TRN" but the callback says "PAYMAYA"',
		);
	});
});

describe('a fact stated beside the copy and in it: compared in both places, a disagreement refused', () => {
	const payoutCallback = (referenceNo: string) =>
		callbackBody(referenceNo, 250, 'completed', {
			transaction: payoutTransaction(referenceNo, 250, 'completed'),
		});

	test.each<
		[string, (data: Record<string, unknown>, copy: Record<string, unknown>) => void, string]
	>([
		[
			'a channel PAYMAYA beside a copy saying GCASH',
			(data) => (data.channel = 'PAYMAYA'),
			'the transaction copy says channel "GCASH" but the callback says "PAYMAYA"',
		],
		[
			'a status completed beside a copy saying cancelled',
			(_data, copy) => (copy.status = 'cancelled'),
			'the transaction copy says status "cancelled" but the callback says "completed"',
		],
		[
			'a total_amount 1530 beside a copy saying 265',
			(data) => (data.total_amount = 1530),
			'the transaction copy says total_amount "265" but the callback says "1530"',
		],
		[
			'a mobile number beside a copy naming another',
			(data) => (data.fields = { mobile_number: '09187654321' }),
			'the transaction copy says mobile number "09171234567" but the callback says "09187654321"',
		],
	])('signed, Confirm With Service off: %s is refused (401)', async (_name, change, reason) => {
		const h = await trigger(s, { interface: 'disbursement' });
		const body = payoutCallback('UC-TWICE');
		change(body.data, body.data.transaction as Record<string, unknown>);
		expectRefused(await h.post(body), reason);
	});

	test('the same facts written the same way in both places: accepted, the total from wherever it is stated', async () => {
		const h = await trigger(s, { interface: 'disbursement' });
		const body = payoutCallback('UC-AGREE');
		Object.assign(body.data, {
			channel: 'GCASH',
			// Statuses are read exactly (only the three documented values), so this one is as the copy's.
			status: 'completed',
			total_amount: '265.00',
			fields: { mobile_number: '+63 917 123 4567' },
		});
		const accepted = await h.post(body);
		expect([accepted.statusCode, accepted.executionStarted]).toEqual([200, true]);
		const copyOnly = payoutCallback('UC-COPY-ONLY');
		delete copyOnly.data.total_amount;
		const call = await h.post(copyOnly);
		expect(call.result!.workflowData![0][0].json).toMatchObject({
			channel: 'GCASH',
			total_amount: 265,
		});
	});
});
