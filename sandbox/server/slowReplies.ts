/**
 * Answers of a hostile network: a body trickled a byte at a time (status and headers at once),
 * and a body far larger than any real answer, streamed as JSON padding. Both stop as soon as the
 * client goes away; every timer goes through the gateway's Scheduler.
 */
import type { ServerResponse } from 'http';
import type { FaultRule } from '../types';
import { serialize, type Reply } from './http';
import type { Scheduler } from './timers';

const DEFAULT_INTERVAL_MS = 200;
const DEFAULT_OVERSIZE_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** The reply's own bytes one at a time; with `forever`, padding after them that never ends. */
export function trickle(
	res: ServerResponse,
	reply: Reply,
	rule: FaultRule,
	timers: Scheduler,
): void {
	const status = rule.status ?? reply.status;
	const { contentType, payload } = serialize(reply);
	// Forever: an object whose padding string never closes, so the body is never complete JSON.
	const bytes = Buffer.from(rule.forever ? `{"message":"${' '.repeat(16)}` : payload);
	res.writeHead(status, {
		...reply.headers,
		'content-type': contentType,
		...(rule.forever ? {} : { 'content-length': String(bytes.length) }),
	});
	let sent = 0;
	const next = () => {
		if (res.destroyed) return;
		if (sent < bytes.length) res.write(bytes.subarray(sent, ++sent));
		else if (rule.forever) res.write(' ');
		else return void res.end();
		timers.after(rule.intervalMs ?? DEFAULT_INTERVAL_MS, next);
	};
	next();
}

/**
 * `{"message":"...","data":{"padding":"xxxx..."}}` of `sizeBytes`, written as the client reads it;
 * `report` learns how many bytes went out before the answer ended or the client went away.
 */
export function oversize(
	res: ServerResponse,
	reply: Reply,
	rule: FaultRule,
	report: (written: number, size: number) => void,
): void {
	const head = `{"message":"Oversized answer","data":{"padding":"`;
	const tail = '"}}';
	const size = Math.max(rule.sizeBytes ?? DEFAULT_OVERSIZE_BYTES, head.length + tail.length);
	res.writeHead(rule.status ?? reply.status, {
		'content-type': 'application/json',
		'content-length': String(size),
	});
	res.write(head);
	let left = size - head.length - tail.length;
	res.once('close', () => report(size - tail.length - left, size));
	const chunk = Buffer.alloc(CHUNK_BYTES, 'x');
	const pump = () => {
		while (left > 0 && !res.destroyed) {
			const piece = chunk.subarray(0, Math.min(left, CHUNK_BYTES));
			left -= piece.length;
			if (!res.write(piece)) return void res.once('drain', pump);
		}
		if (!res.destroyed) res.end(tail);
	};
	pump();
}
