/**
 * Headers never vouch for a callback, whatever their case or number; and copies of one callback
 * arriving at the same moment in one process start exactly one execution, with or without
 * "Confirm With Service", under one interface or Both.
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

const started = (calls: WebhookCall[]) => calls.filter((call) => call.executionStarted).length;
const messages = (calls: WebhookCall[]) =>
	calls.map((call) => (call.body as { message: string }).message).sort();

describe('headers', () => {
	test('two content types, or one in odd case: the body is read as the JSON it is', async () => {
		const h = await trigger(s);
		const twice = { 'content-type': ['text/plain', 'application/json'] } as unknown as Record<
			string,
			string
		>;
		const first = await h.post(callbackBody('HR-1', 100, 'completed'), {
			contentType: null,
			headers: twice,
		});
		expect(first.executionStarted).toBe(true);
		const odd = await h.post(callbackBody('HR-2', 100, 'completed'), {
			contentType: 'APPLICATION/JSON; Charset=UTF-8',
		});
		expect(odd.executionStarted).toBe(true);
	});

	test('a genuine signature in a header, none in the body: 401', async () => {
		const h = await trigger(s);
		const signature = signCallback(SECRET, 100, 'HR-3');
		const headers = {
			'X-Signature': signature,
			Signature: signature,
			'x-callback-signature': signature,
		};
		const call = await h.post(callbackBody('HR-3', 100, 'completed', { signature: null }), {
			headers,
		});
		expect(call.statusCode).toBe(401);
		expect(call.executionStarted).toBe(false);
	});
});

describe('copies arriving at the same moment', () => {
	test('without confirmation, spelt differently: one execution, the others duplicates', async () => {
		const h = await trigger(s);
		const genuine = callbackBody('HR-4', 100, 'completed');
		const upper = {
			data: { ...genuine.data, signature: (genuine.data.signature as string).toUpperCase() },
		};
		const transaction = { ...(genuine.data.transaction as object), total_amount: 1 };
		const otherTotal = { data: { ...genuine.data, total_amount: 1, transaction } };
		const exponent = JSON.stringify(genuine).replace('"amount":100,', '"amount":1e2,');
		const calls = await Promise.all(
			[genuine, upper, otherTotal, exponent, genuine].map(async (body) => await h.post(body)),
		);
		expect(calls.map((call) => call.statusCode)).toEqual([200, 200, 200, 200, 200]);
		expect(started(calls)).toBe(1);
		expect(messages(calls)).toEqual([
			...Array<string>(4).fill('Duplicate ignored'),
			'Workflow was started',
		]);
	});

	test('with confirmation, a forged status racing the genuine one: the forgery refused, one execution', async () => {
		await paidTransaction(s.gw, 'HR-5', 200);
		const h = await trigger(s, { confirmWithService: true });
		const genuine = serviceCallback(s.gw, 'HR-5', 200, 'completed');
		const forged = serviceCallback(s.gw, 'HR-5', 200, 'cancelled');
		const calls = await Promise.all(
			[forged, genuine, forged, genuine].map(async (body) => await h.post(body)),
		);
		expect(calls.map((call) => call.statusCode)).toEqual([401, 200, 401, 200]);
		expect(started(calls)).toBe(1);
	});

	test('Both with one shared secret and confirmation (the interface known only after the look-up): one execution', async () => {
		await paidTransaction(s.gw, 'HR-6', 300);
		const h = await trigger(s, { interface: 'both', confirmWithService: true });
		const body = serviceCallback(s.gw, 'HR-6', 300, 'completed');
		const calls = await Promise.all([1, 2, 3, 4].map(async () => await h.post(body)));
		expect(started(calls)).toBe(1);
		expect(
			calls.find((call) => call.executionStarted)?.result?.workflowData?.[0][0].json,
		).toMatchObject({ interface: 'collection' });
	});
});
