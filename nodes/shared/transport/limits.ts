/**
 * The bounds of every request to the service: a wall-clock deadline from connect to the last
 * byte, and a cap on the size of an answer. axios's `timeout` restarts on every byte (an answer
 * trickled a byte at a time never meets it) and n8n reads answers of any size, so each request
 * carries an abort signal as its deadline and hands back the answer as a stream that is read
 * here, byte-counted, and dropped at the cap or the deadline.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

/** An answer body as n8n hands it back with `encoding: 'stream'` (a Node.js readable stream). */
interface AnswerStream {
	on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	destroy(error?: Error): void;
	headers?: Record<string, unknown>;
}

/** Duck-typed: n8n's lint allows no import of Node's `stream` module. */
function isAnswerStream(body: unknown): body is AnswerStream {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as Partial<AnswerStream>).destroy === 'function' &&
		typeof (body as Partial<AnswerStream>).on === 'function'
	);
}

/** The largest answer read: the biggest real answer (a channel or bank list) is a few KB. */
export const MAX_ANSWER_BYTES = 1024 * 1024;
export const MAX_ANSWER_TEXT = '1 MiB';

/** Network codes of a request stopped here (see networkCodes.ts for their words). */
export const DEADLINE_PASSED = 'DEADLINE_PASSED';
export const ANSWER_TOO_LARGE = 'ANSWER_TOO_LARGE';
export type LimitCode = typeof DEADLINE_PASSED | typeof ANSWER_TOO_LARGE;

/**
 * Makes `deadline` the request's abort signal and asks n8n for the answer as a stream. n8n's
 * `httpRequestWithAuthentication` assigns the execution's cancel signal to `abortSignal` (also
 * before its resend after a 401), so the property combines whatever is assigned with the deadline.
 */
export function bounded(options: IHttpRequestOptions, deadline: AbortSignal): IHttpRequestOptions {
	let signal = deadline;
	Object.defineProperty(options, 'abortSignal', {
		enumerable: true,
		configurable: true,
		get: () => signal,
		set: (assigned: AbortSignal | undefined) => {
			signal = assigned ? AbortSignal.any([assigned, deadline]) : deadline;
		},
	});
	options.encoding = 'stream';
	options.returnFullResponse = true;
	return options;
}

/** An answer's text, or why it was not read: past the deadline, over the cap, or broken off. */
export type ReadAnswer = { text: string } | { failure: LimitCode | 'ERR_BAD_RESPONSE' };

/** Reads an answer body within the deadline and the cap; a body over either is dropped unread. */
export async function readAnswer(
	body: unknown,
	headers: Record<string, unknown> | undefined,
	deadline: AbortSignal,
): Promise<ReadAnswer> {
	if (!isAnswerStream(body)) return { text: typeof body === 'string' ? body : '' };
	const declared = Number(headers?.['content-length']);
	if (declared > MAX_ANSWER_BYTES) return dropped(body, ANSWER_TOO_LARGE);
	if (deadline.aborted) return dropped(body, DEADLINE_PASSED);
	// Stream events rather than an async iterator: this runs once per request, and the iterator's
	// promises per chunk cost measurable CPU in a bulk run.
	return await new Promise<ReadAnswer>((resolve) => {
		const parts: Buffer[] = [];
		let size = 0;
		const finish = (outcome: ReadAnswer) => {
			deadline.removeEventListener('abort', stop);
			resolve(outcome);
		};
		const stop = () => {
			body.destroy();
			finish({ failure: DEADLINE_PASSED });
		};
		deadline.addEventListener('abort', stop, { once: true });
		body.on('data', (chunk) => {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += bytes.length;
			if (size > MAX_ANSWER_BYTES) {
				body.destroy();
				finish({ failure: ANSWER_TOO_LARGE });
				return;
			}
			parts.push(bytes);
		});
		body.on('end', () => finish({ text: Buffer.concat(parts).toString('utf8') }));
		body.on('error', () =>
			finish({ failure: deadline.aborted ? DEADLINE_PASSED : 'ERR_BAD_RESPONSE' }),
		);
		// A stream destroyed without an end (the connection reset mid-answer) closes without an error.
		body.on('close', () =>
			finish({ failure: deadline.aborted ? DEADLINE_PASSED : 'ERR_BAD_RESPONSE' }),
		);
	});
}

/** Closes the connection under an answer that is not read (destroying the stream does). */
function dropped(body: AnswerStream, failure: LimitCode): ReadAnswer {
	body.destroy();
	return { failure };
}

/**
 * Where an HTTP error keeps its answer: axios's `response`, or, once n8n has wrapped the error in
 * a NodeApiError (which drops the axios error), `context.data`, the answer stream itself.
 */
function errorAnswers(
	error: unknown,
): Array<{ holder: { data?: unknown }; key: 'data'; headers?: Record<string, unknown> }> {
	const outer = (error ?? {}) as {
		cause?: { response?: ErrorResponse };
		response?: ErrorResponse;
		context?: { data?: unknown };
	};
	const found = [];
	for (const response of [outer.cause?.response, outer.response]) {
		if (isAnswerStream(response?.data))
			found.push({ holder: response, key: 'data' as const, headers: response.headers });
	}
	const data = outer.context?.data;
	if (outer.context && isAnswerStream(data)) {
		found.push({ holder: outer.context, key: 'data' as const, headers: data.headers });
	}
	return found;
}

/**
 * Reads the answer an HTTP error carries (a stream, see `bounded`) into text, in place, so the
 * service's message can be shown. Returns the limit it met, if any.
 */
export async function readErrorAnswer(
	error: unknown,
	deadline: AbortSignal,
): Promise<LimitCode | undefined> {
	let limit: LimitCode | undefined;
	for (const { holder, headers } of errorAnswers(error)) {
		const read = await readAnswer(holder.data, headers, deadline);
		holder.data = 'text' in read ? read.text : undefined;
		if ('failure' in read && read.failure !== 'ERR_BAD_RESPONSE') limit = read.failure;
	}
	return limit ?? (deadline.aborted ? DEADLINE_PASSED : undefined);
}

interface ErrorResponse {
	data?: unknown;
	headers?: Record<string, unknown>;
}

/** The host a redirect answer points to, from its `location` against the request's URL (before `readErrorAnswer`). */
export function redirectHost(error: unknown, requestUrl: string): string | undefined {
	const outer = (error ?? {}) as { response?: ErrorResponse };
	const location = [
		outer.response?.headers,
		...errorAnswers(error).map((answer) => answer.headers),
	].find((headers) => typeof headers?.location === 'string')?.location as string | undefined;
	if (!location) return undefined;
	try {
		return new URL(location, requestUrl).host;
	} catch {
		return 'an address that is not a valid URL';
	}
}
