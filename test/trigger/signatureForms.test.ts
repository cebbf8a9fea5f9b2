/**
 * One genuine signed callback, replayed with its signature and amount written otherwise and its
 * unsigned fields changed: only spellings of the very same signature and amount verify, they
 * count as the same delivery, and an unsigned copy may not contradict what the signature covers.
 */
import { signCallback } from '../../nodes/shared/validation/signature';
import {
	SECRET,
	callbackBody,
	collectionTransaction,
	trigger,
	setUpPerFile,
} from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

const s = setUpPerFile();

function expectUnauthorized(call: WebhookCall): void {
	expect(call.statusCode).toBe(401);
	expect(call.body).toEqual({ message: 'Unauthorized' });
	expect(call.executionStarted).toBe(false);
}

/** A genuine callback for 100 with its signature field replaced by the text given. */
function withSignature(referenceNo: string, signature: unknown): string {
	const body = callbackBody(referenceNo, 100, 'completed');
	return JSON.stringify({ data: { ...body.data, signature } });
}

describe('the signature as written', () => {
	const genuine = (referenceNo: string) => signCallback(SECRET, 100, referenceNo);

	test.each([
		['upper-case hex', 'SF-1', (sig: string) => sig.toUpperCase()],
		['surrounding spaces and a new line', 'SF-2', (sig: string) => ` ${sig}\n`],
	])(
		'%s is the same signature: accepted once, then a duplicate',
		async (_name, referenceNo, spell) => {
			const h = await trigger(s);
			const first = await h.post(withSignature(referenceNo, spell(genuine(referenceNo))));
			expect(first.statusCode).toBe(200);
			expect(first.executionStarted).toBe(true);
			const again = await h.post(withSignature(referenceNo, genuine(referenceNo)));
			expect(again.body).toEqual({ message: 'Duplicate ignored' });
		},
	);

	test.each([
		['one hex digit short', (sig: string) => sig.slice(1)],
		['one hex digit more', (sig: string) => `${sig}0`],
		['doubled', (sig: string) => sig + sig],
		['cut to 32 bytes of base64', (sig: string) => Buffer.from(sig, 'hex').toString('base64')],
		['empty', () => ''],
		['only spaces', () => '   '],
		['a number', () => 1234],
		['an array holding it', (sig: string) => [sig]],
		['a NUL inside', (sig: string) => `${sig.slice(0, 32)}\u0000${sig.slice(32)}`],
		[
			'full-width digits',
			(sig: string) =>
				sig.replace(/[0-9]/g, (digit) => String.fromCharCode(0xff10 + Number(digit))),
		],
	])('%s: 401', async (_name, spell) => {
		const h = await trigger(s);
		expectUnauthorized(await h.post(withSignature('SF-3', spell(genuine('SF-3')))));
	});
});

describe('the amount as written, signed over "100"', () => {
	const signedBody = (referenceNo: string, amountText: string) =>
		`{"data":{"reference_no":"${referenceNo}","amount":${amountText},"status":"completed","signature":"${signCallback(SECRET, '100', referenceNo)}"}}`;

	test.each([['100'], ['100.0'], ['1e2'], ['"100"'], ['" 100 "']])(
		'%s is the amount 100: accepted',
		async (amountText) => {
			const h = await trigger(s);
			const call = await h.post(signedBody('SF-4', amountText));
			expect(call.statusCode).toBe(200);
			expect(call.result?.workflowData?.[0][0].json).toMatchObject({
				reference_no: 'SF-4',
				amount: 100,
			});
		},
	);

	test('all of them are one delivery', async () => {
		const h = await trigger(s);
		const calls = [];
		for (const amountText of ['100', '100.0', '1e2', '"100"'])
			calls.push(await h.post(signedBody('SF-5', amountText)));
		expect(calls.filter((call) => call.executionStarted)).toHaveLength(1);
	});

	test.each([
		['"100.0"'],
		['100.001'],
		['-100'],
		['"1e2"', 400],
		['"0x64"', 400],
		['"100 PHP"', 400],
		['null', 400],
	])('%s is not: refused', async (amountText, code = 401) => {
		const h = await trigger(s);
		const call = await h.post(signedBody('SF-6', amountText));
		expect(call.statusCode).toBe(code);
		expect(call.executionStarted).toBe(false);
	});
});

describe('the unsigned transaction copy may not contradict the signed fields', () => {
	test.each([
		[
			'another reference_no',
			{ reference_no: 'SF-OTHER' },
			'reference_no "SF-OTHER" but the signed reference_no is "SF-7"',
		],
		[
			'another subtotal_amount',
			{ subtotal_amount: 99_000 },
			'amount "99000" but the signed amount is "100"',
		],
		[
			'an amount as text that is another number',
			{ subtotal_amount: '100.5' },
			'amount "100.5" but the signed amount is "100"',
		],
	])('%s: 401, logged', async (_name, change, reason) => {
		const h = await trigger(s);
		const body = callbackBody('SF-7', 100, 'completed', {
			transaction: { ...collectionTransaction('SF-7', 100, 'completed'), ...change },
		});
		const call = await h.post(body);
		expectUnauthorized(call);
		expect(call.logs.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
			`Payment Gateway Trigger refused a callback (HTTP 401): the transaction copy says ${reason}`,
		]);
		// Refused, so not remembered.
		expect((await h.post(callbackBody('SF-7', 100, 'completed'))).executionStarted).toBe(true);
	});

	test('a payout copy states its amount as amount', async () => {
		const h = await trigger(s, { interface: 'disbursement' });
		const transaction = {
			reference_no: 'SF-8',
			channel: 'GCASH',
			amount: 7,
			status: 'completed',
			fields: {},
		};
		expectUnauthorized(await h.post(callbackBody('SF-8', 100, 'completed', { transaction })));
	});

	test('a copy that agrees, or that leaves the fields out, is accepted', async () => {
		const h = await trigger(s);
		const agrees = await h.post(
			callbackBody('SF-9', 100, 'completed', {
				transaction: {
					...collectionTransaction('SF-9', 100, 'completed'),
					subtotal_amount: '100.00',
				},
			}),
		);
		expect(agrees.executionStarted).toBe(true);
		const bare = await h.post(
			callbackBody('SF-10', 100, 'completed', { transaction: { channel: { code: 'GCASH_TRN' } } }),
		);
		expect(bare.executionStarted).toBe(true);
	});
});
