/**
 * What an error fault answers: by default {message: 'Server Error'} with its status; with a `body`,
 * that JSON instead, so a test can play a service that answers 2xx with the wrong body or echoes
 * what it was sent (`{{authorization}}`, `{{password}}`, `{{reference_no}}` in its strings), or
 * quotes the request itself as a server or proxy does in an error: its request line and query as
 * they arrived, the query re-encoded as a form or as JSON, and its body as it arrived.
 */
import type { IncomingMessage } from 'http';
import type { FaultRule } from '../types';
import { fail, json, type Reply } from './http';

const ECHOED = [
	'authorization',
	'password',
	'reference_no',
	'request_line',
	'query',
	'query_form',
	'query_json',
	'body',
] as const;
type Echo = Record<(typeof ECHOED)[number], string>;
const PLACEHOLDER = new RegExp(`\\{\\{(${ECHOED.join('|')})\\}\\}`, 'g');

export function faultReply(
	rule: FaultRule,
	req: IncomingMessage,
	url: URL,
	body: Record<string, unknown> | undefined,
	rawBody?: Buffer,
): Reply {
	if (rule.html !== undefined) return { status: rule.status ?? 500, html: rule.html };
	if (rule.body !== undefined) {
		const rawUrl = req.url ?? url.pathname;
		const echo: Echo = {
			authorization: String(req.headers.authorization ?? ''),
			password: String(url.searchParams.get('password') ?? body?.password ?? ''),
			reference_no: String(body?.reference_no ?? url.searchParams.get('reference_no') ?? ''),
			request_line: `${req.method ?? 'GET'} ${rawUrl}`,
			query: rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '',
			query_form: url.searchParams.toString(),
			query_json: JSON.stringify(Object.fromEntries(url.searchParams)),
			body: rawBody?.toString('utf8') ?? '',
		};
		return json(rule.status ?? 500, withEcho(rule.body, echo));
	}
	const reply = fail(rule.status ?? 500, 'Server Error');
	// A redirect points somewhere, as a Base URL with http instead of https would be answered.
	return rule.location
		? { ...reply, headers: { ...reply.headers, Location: rule.location } }
		: reply;
}

function withEcho(value: unknown, echo: Echo): unknown {
	if (typeof value === 'string') {
		return value.replace(PLACEHOLDER, (_, name: keyof Echo) => echo[name]);
	}
	if (Array.isArray(value)) return value.map((entry) => withEcho(entry, echo));
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, withEcho(entry, echo)]),
		);
	}
	return value;
}
