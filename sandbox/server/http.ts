/** Small HTTP helpers: the reply type handlers return, body reading with a size cap, sending. */
import type { IncomingMessage, ServerResponse } from 'http';
import { summaryMessage, type FieldErrors } from './validation';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this the request is cut off instead of drained, so a runaway client cannot hog memory or time. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES;

export interface Reply {
	status: number;
	/** Sent as JSON. */
	body?: unknown;
	/** Sent as text/html instead of `body`. */
	html?: string;
	/** Any other content, with its content-type header. */
	text?: string;
	headers?: Record<string, string>;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
	status,
	body,
	headers,
});
export const ok = (message: string, data: unknown): Reply => json(200, { message, data });
export const fail = (status: number, message: string): Reply => json(status, { message });
export const invalid = (errors: FieldErrors): Reply =>
	json(422, { message: summaryMessage(errors), errors });
export const unauthenticated = (): Reply => fail(401, 'Unauthenticated.');

export type BodyResult =
	| { kind: 'ok'; buffer: Buffer }
	| { kind: 'too-large' }
	| { kind: 'aborted' };

export function readBody(req: IncomingMessage): Promise<BodyResult> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const finish = (result: BodyResult) => {
			if (!done) {
				done = true;
				resolve(result);
			}
		};
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_DRAIN_BYTES) {
				req.socket.destroy();
				finish({ kind: 'aborted' });
			} else if (size <= MAX_BODY_BYTES) {
				chunks.push(chunk);
			}
		});
		req.on('end', () =>
			finish(
				size > MAX_BODY_BYTES
					? { kind: 'too-large' }
					: { kind: 'ok', buffer: Buffer.concat(chunks) },
			),
		);
		req.on('error', () => finish({ kind: 'aborted' }));
		req.on('close', () => finish({ kind: 'aborted' }));
	});
}

export type ParsedBody =
	| { kind: 'empty' }
	| { kind: 'ok'; value: Record<string, unknown> }
	| { kind: 'bad'; message: string };

/** JSON (any content type, as lenient servers do) or an urlencoded form; top level must be an object. */
export function parseBody(buffer: Buffer, contentType: string | undefined): ParsedBody {
	const text = buffer.toString('utf8');
	if (text.trim() === '') return { kind: 'empty' };
	if (contentType?.toLowerCase().includes('application/x-www-form-urlencoded')) {
		return { kind: 'ok', value: Object.fromEntries(new URLSearchParams(text)) };
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { kind: 'bad', message: 'The request body is not valid JSON.' };
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { kind: 'bad', message: 'The request body must be a JSON object.' };
	}
	return { kind: 'ok', value: value as Record<string, unknown> };
}

export function serialize(reply: Reply): { contentType: string; payload: string } {
	if (reply.html !== undefined)
		return { contentType: 'text/html; charset=utf-8', payload: reply.html };
	if (reply.text !== undefined)
		return {
			contentType: reply.headers?.['content-type'] ?? 'text/plain; charset=utf-8',
			payload: reply.text,
		};
	return {
		contentType: 'application/json',
		payload: reply.body === undefined ? '' : JSON.stringify(reply.body),
	};
}

export function send(res: ServerResponse, reply: Reply, override?: { payload: string }): void {
	if (res.headersSent || res.destroyed) return;
	const { contentType, payload } = serialize(reply);
	const text = override?.payload ?? payload;
	res.writeHead(reply.status, {
		...reply.headers,
		'content-type': contentType,
		'content-length': String(Buffer.byteLength(text)),
	});
	res.end(text);
}
