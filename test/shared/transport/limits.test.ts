/**
 * The bounds of every request (nodes/shared/transport/limits.ts): a deadline from connect to the
 * last byte and a cap on an answer's size. An answer not read in full within both is dropped and
 * its connection closed, never handed on in part.
 */
import { PassThrough } from 'stream';

import {
	ANSWER_TOO_LARGE,
	DEADLINE_PASSED,
	MAX_ANSWER_BYTES,
	bounded,
	readAnswer,
	readErrorAnswer,
	redirectHost,
} from '../../../nodes/shared/transport/limits';

/** An answer stream as n8n hands it back with `encoding: 'stream'`. */
function answerStream(headers: Record<string, unknown> = {}) {
	return Object.assign(new PassThrough(), { headers });
}

const open = () => new AbortController().signal;
const passed = () => AbortSignal.abort();

describe('bounded', () => {
	test('asks n8n for the full answer as a stream, with the deadline as abort signal', () => {
		const deadline = open();
		const options = bounded({ url: 'https://api.example.ph/v1/x' }, deadline);
		expect(options).toMatchObject({ encoding: 'stream', returnFullResponse: true });
		expect(options.abortSignal).toBe(deadline);
	});

	test("a signal n8n assigns (the execution's cancel) is combined with the deadline: either aborts", () => {
		const deadline = new AbortController();
		const options = bounded({ url: 'https://api.example.ph/v1/x' }, deadline.signal);
		const cancel = new AbortController();
		options.abortSignal = cancel.signal;
		expect(options.abortSignal?.aborted).toBe(false);
		cancel.abort();
		expect(options.abortSignal?.aborted).toBe(true);

		const again = bounded({ url: 'https://api.example.ph/v1/x' }, deadline.signal);
		again.abortSignal = new AbortController().signal;
		deadline.abort();
		expect(again.abortSignal?.aborted).toBe(true);
	});

	test('assigning no signal leaves the deadline', () => {
		const deadline = open();
		const options = bounded({ url: 'https://api.example.ph/v1/x' }, deadline);
		options.abortSignal = undefined;
		expect(options.abortSignal).toBe(deadline);
	});
});

describe('readAnswer', () => {
	test.each([
		['{"message":"ok"}', { text: '{"message":"ok"}' }],
		[{ message: 'ok' }, { text: '' }],
		[undefined, { text: '' }],
		[null, { text: '' }],
	])('a body that is no stream (%j) is read as %j', async (body, read) => {
		expect(await readAnswer(body, undefined, open())).toEqual(read);
	});

	test('a stream is read to its end, chunks of text and bytes alike', async () => {
		const body = answerStream();
		const read = readAnswer(body, body.headers, open());
		body.write('{"message":');
		body.write(Buffer.from('"₱20,000"}'));
		body.end();
		expect(await read).toEqual({ text: '{"message":"₱20,000"}' });
	});

	test('an answer that declares more than the cap is dropped unread, its connection closed', async () => {
		const body = answerStream({ 'content-length': String(MAX_ANSWER_BYTES + 1) });
		expect(await readAnswer(body, body.headers, open())).toEqual({ failure: ANSWER_TOO_LARGE });
		expect(body.destroyed).toBe(true);
	});

	test('an answer of exactly the cap is read', async () => {
		const body = answerStream({ 'content-length': String(MAX_ANSWER_BYTES) });
		const read = readAnswer(body, body.headers, open());
		body.end(Buffer.alloc(MAX_ANSWER_BYTES, 'a'));
		const answer = await read;
		expect('text' in answer && answer.text.length).toBe(MAX_ANSWER_BYTES);
	});

	test.each([[{}], [{ 'content-length': '10' }], [{ 'content-length': 'not a number' }]])(
		'an answer growing past the cap is dropped whatever it declared (%j)',
		async (headers) => {
			const body = answerStream(headers);
			const read = readAnswer(body, body.headers, open());
			body.write(Buffer.alloc(MAX_ANSWER_BYTES, 'a'));
			body.write('b');
			expect(await read).toEqual({ failure: ANSWER_TOO_LARGE });
			expect(body.destroyed).toBe(true);
		},
	);

	test('a deadline already passed drops the answer unread', async () => {
		const body = answerStream();
		expect(await readAnswer(body, body.headers, passed())).toEqual({ failure: DEADLINE_PASSED });
		expect(body.destroyed).toBe(true);
	});

	test('an answer trickling past the deadline is dropped then', async () => {
		const deadline = new AbortController();
		const body = answerStream();
		const read = readAnswer(body, body.headers, deadline.signal);
		body.write('{"mess');
		deadline.abort();
		expect(await read).toEqual({ failure: DEADLINE_PASSED });
		expect(body.destroyed).toBe(true);
	});

	test('an answer that breaks off with an error is a broken answer', async () => {
		const body = answerStream();
		const read = readAnswer(body, body.headers, open());
		body.write('{"message":');
		body.destroy(new Error('aborted'));
		expect(await read).toEqual({ failure: 'ERR_BAD_RESPONSE' });
	});

	test('an answer closed without its end (a reset mid-answer) is a broken answer, not a short one', async () => {
		const body = answerStream();
		const read = readAnswer(body, body.headers, open());
		body.write('{"message":');
		body.destroy();
		expect(await read).toEqual({ failure: 'ERR_BAD_RESPONSE' });
	});
});

describe('readErrorAnswer', () => {
	test("the answer an HTTP error carries is read into text in place, so the service's message can be shown", async () => {
		const body = answerStream();
		const error = { response: { status: 422, data: body, headers: body.headers } };
		const read = readErrorAnswer(error, open());
		body.end('{"message":"Invalid"}');
		expect(await read).toBeUndefined();
		expect(error.response.data).toBe('{"message":"Invalid"}');
	});

	test("once n8n has wrapped the error, the answer in `context.data` and in the cause's response is read", async () => {
		const inContext = answerStream();
		const inCause = answerStream();
		const error = {
			context: { data: inContext as unknown },
			cause: { response: { status: 500, data: inCause as unknown } },
		};
		const read = readErrorAnswer(error, open());
		inContext.end('a');
		inCause.end('b');
		expect(await read).toBeUndefined();
		expect([error.context.data, error.cause.response.data]).toEqual(['a', 'b']);
	});

	test('an answer over the cap is dropped and the limit reported', async () => {
		const body = answerStream({ 'content-length': String(MAX_ANSWER_BYTES * 2) });
		const error = { response: { status: 500, data: body as unknown, headers: body.headers } };
		expect(await readErrorAnswer(error, open())).toBe(ANSWER_TOO_LARGE);
		expect(error.response.data).toBeUndefined();
	});

	test('a broken-off answer is dropped; it is no limit of ours', async () => {
		const body = answerStream();
		const error = { response: { status: 502, data: body as unknown } };
		const read = readErrorAnswer(error, open());
		body.destroy();
		expect(await read).toBeUndefined();
		expect(error.response.data).toBeUndefined();
	});

	test.each([[{}], [{ response: { status: 500, data: 'text already' } }], [undefined], [null]])(
		'without an answer stream (%j) only the deadline counts',
		async (error) => {
			expect(await readErrorAnswer(error, open())).toBeUndefined();
			expect(await readErrorAnswer(error, passed())).toBe(DEADLINE_PASSED);
		},
	);
});

describe('redirectHost', () => {
	const url = 'https://api.example.ph/v1/api/disbursement/transactions/process';

	test.each([
		['https://evil.example/pay', 'evil.example'],
		['http://evil.example:8080/', 'evil.example:8080'],
		['/v1/other', 'api.example.ph'],
		['//other.example/x', 'other.example'],
		['http://[::1', 'an address that is not a valid URL'],
	])('location %j points to %j', (location, host) => {
		expect(redirectHost({ response: { status: 302, headers: { location } } }, url)).toBe(host);
	});

	test('the location is also found on a wrapped answer stream', () => {
		const body = answerStream({ location: 'https://evil.example/' });
		expect(redirectHost({ context: { data: body } }, url)).toBe('evil.example');
	});

	test.each([[{ response: { status: 302, headers: {} } }], [{}], [undefined], [null]])(
		'without a location (%j): undefined',
		(error) => {
			expect(redirectHost(error, url)).toBeUndefined();
		},
	);
});
