/**
 * What an error fault answers: by default {message: 'Server Error'} with its status; with a `body`,
 * that JSON instead, so a test can play a service that answers 2xx with the wrong body or echoes
 * what it was sent (`{{authorization}}`, `{{password}}`, `{{reference_no}}` in its strings).
 */
import type { IncomingMessage } from 'http';
import type { FaultRule } from '../types';
import { fail, json, type Reply } from './http';

type Echo = Record<'authorization' | 'password' | 'reference_no', string>;

export function faultReply(
	rule: FaultRule,
	req: IncomingMessage,
	url: URL,
	body: Record<string, unknown> | undefined,
): Reply {
	if (rule.html !== undefined) return { status: rule.status ?? 500, html: rule.html };
	if (rule.body !== undefined) {
		const echo: Echo = {
			authorization: String(req.headers.authorization ?? ''),
			password: String(url.searchParams.get('password') ?? body?.password ?? ''),
			reference_no: String(body?.reference_no ?? url.searchParams.get('reference_no') ?? ''),
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
		return value.replace(
			/\{\{(authorization|password|reference_no)\}\}/g,
			(_, name: keyof Echo) => echo[name],
		);
	}
	if (Array.isArray(value)) return value.map((entry) => withEcho(entry, echo));
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, withEcho(entry, echo)]),
		);
	}
	return value;
}
