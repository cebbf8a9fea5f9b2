/**
 * Bodies an attacker holding one genuine signed callback can build from it: re-encoded (a JSON
 * string, a form), nested deep, with keys repeated or with control and look-alike characters.
 * Each is answered by the trigger and what the workflow gets is what was verified.
 */
import { readCallback } from '../../nodes/shared/callbacks/payload';
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

function expectAnswer(call: WebhookCall, code: number, message: string): void {
	expect(call.statusCode).toBe(code);
	expect(call.body).toEqual({ message });
	expect(call.executionStarted).toBe(false);
	expect(call.result).toEqual({ noWebhookResponse: true });
}

/** A flat genuine callback as `key=value` pairs. */
function formEncoded(referenceNo: string): string {
	const { data } = callbackBody(referenceNo, 100, 'completed');
	const fields = {
		reference_no: data.reference_no,
		amount: '100',
		status: 'completed',
		signature: data.signature,
	};
	return new URLSearchParams(fields as Record<string, string>).toString();
}

describe('a body that is not a JSON object is refused (400)', () => {
	test('a genuine callback wrapped in a JSON string (encoded twice)', async () => {
		const h = await trigger(s);
		const text = JSON.stringify(JSON.stringify(callbackBody('BA-1', 100, 'completed')));
		expectAnswer(await h.post(text), 400, 'Bad request: the body is not a JSON object');
	});

	test.each([['null'], ['100'], ['true'], ['"completed"']])('the JSON value %s', async (text) => {
		const h = await trigger(s);
		expectAnswer(await h.post(text), 400, 'Bad request: the body is not a JSON object');
	});

	test('a genuine callback sent form-encoded', async () => {
		const h = await trigger(s);
		const call = await h.post(formEncoded('BA-2'), {
			contentType: 'application/x-www-form-urlencoded',
		});
		expectAnswer(call, 400, 'Bad request: the body is not valid JSON');
	});

	test('a multipart form (n8n reads no raw bytes for one) is not read from what n8n parsed', () => {
		const { data } = callbackBody('BA-2', 100, 'completed');
		expect(readCallback({ headers: {}, body: { data } })).toEqual({
			ok: false,
			reason: 'the body is not JSON',
		});
	});

	test("a byte order mark before the JSON is allowed, as n8n 2.x's own parser allows it", async () => {
		const h = await trigger(s);
		const text = `\uFEFF${JSON.stringify(callbackBody('BA-12', 100, 'completed'))}`;
		const call = await h.post(text, { contentType: 'text/plain' });
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
	});

	test('a JSON callback under a form content type is read as the JSON it is', async () => {
		const h = await trigger(s);
		const call = await h.post(callbackBody('BA-3', 100, 'completed'), {
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(call.statusCode).toBe(200);
		expect(call.result?.workflowData?.[0][0].json).toMatchObject({
			reference_no: 'BA-3',
			amount: 100,
		});
	});
});

// n8n's deepCopy and JSON.stringify overflow the stack on such data: the execution would fail after
// the delivery was remembered, and the genuine callback would then be ignored as a duplicate.
describe('a deeply nested body is refused (400) before anything reads it', () => {
	test.each([
		['an unsigned field of a genuine callback', true],
		['an unsigned request', false],
	])('nesting in %s', async (_name, signed) => {
		const h = await trigger(s);
		const body = callbackBody(
			signed ? 'BA-4' : 'BA-5',
			100,
			'completed',
			signed ? {} : { signature: null },
		);
		const depth = 5_000;
		const text = JSON.stringify(body).replace(
			/}}$/,
			`,"extra":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
		);
		expectAnswer(await h.post(text), 400, 'Bad request: the body is nested deeper than 32 levels');
		// Refused, so not remembered: the genuine callback still starts the workflow.
		if (signed) expect((await h.post(body)).executionStarted).toBe(true);
	});

	test("the service's own nesting (data.transaction.channel.category) is far within the limit", async () => {
		const h = await trigger(s);
		expect((await h.post(callbackBody('BA-6', 100, 'completed'))).executionStarted).toBe(true);
	});
});

describe('repeated keys: the verifier reads the value the workflow gets (the last one)', () => {
	test('a second reference_no after the signed one is what is verified: 401', async () => {
		const h = await trigger(s);
		const text = JSON.stringify(callbackBody('BA-7', 100, 'completed')).replace(
			/}}$/,
			',"reference_no":"BA-OTHER"}}',
		);
		expectAnswer(await h.post(text), 401, 'Unauthorized');
	});

	test('a second amount after the signed one is what is verified: 401', async () => {
		const h = await trigger(s);
		const text = JSON.stringify(callbackBody('BA-8', 100, 'completed')).replace(
			/}}$/,
			',"amount":100000}}',
		);
		expectAnswer(await h.post(text), 401, 'Unauthorized');
	});

	test('a second status: the item and its raw body both state the last one', async () => {
		const h = await trigger(s, { statuses: ['completed'] });
		// The copy states the status the workflow gets: only the repeated key is under test.
		const copy = collectionTransaction('BA-9', 100, 'completed');
		const text = JSON.stringify(
			callbackBody('BA-9', 100, 'pending', { transaction: copy }),
		).replace(/}}$/, ',"status":"completed"}}');
		const call = await h.post(text);
		expect(call.statusCode).toBe(200);
		const item = call.result!.workflowData![0][0].json as {
			status: string;
			raw: { data: { status: string } };
		};
		expect(item.status).toBe('completed');
		expect(item.raw.data.status).toBe('completed');
	});
});

describe('control and look-alike characters', () => {
	test.each([
		['a NUL after the status', 'completed\u0000'],
		['a Cyrillic o in the status', 'c\u043empleted'],
		['a zero-width space in the status', 'completed\u200b'],
		['a full-width status', '\uff43\uff4f\uff4d\uff50\uff4c\uff45\uff54\uff45\uff44'],
	])('%s: 400, the status escaped in the answer', async (_name, status) => {
		const h = await trigger(s);
		const call = await h.post(callbackBody('BA-10', 100, status));
		expect(call.statusCode).toBe(400);
		expect(call.executionStarted).toBe(false);
		expect((call.body as { message: string }).message).not.toContain('\u0000');
	});

	test.each([
		['a NUL after the reference', 'BA-11\u0000'],
		['a Cyrillic A in the reference', 'B\u0410-11'],
		['a trailing space', 'BA-11 '],
	])('%s, signed for the plain reference: 401', async (_name, referenceNo) => {
		const h = await trigger(s);
		const body = callbackBody(referenceNo, 100, 'completed');
		body.data.signature = signCallback(SECRET, 100, 'BA-11');
		expectAnswer(await h.post(body), 401, 'Unauthorized');
	});
});
