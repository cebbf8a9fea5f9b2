/** Route table types and matching. Paths use `:name` placeholders as the interface document does. */
import type { IncomingHttpHeaders } from 'http';
import type { ApiInterface, PayoutAnswers, SandboxCredentials } from '../types';
import type { Reply } from './http';
import type { SandboxState } from './state';

export interface ResolvedConfig {
	credentials: SandboxCredentials;
	environment: 'sandbox' | 'production';
	channelListShape: 'array' | 'object';
	/** How much payout answers state at start and after a reset. */
	payoutAnswers: PayoutAnswers;
}

export interface RequestContext {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	params: Record<string, string>;
	/** Parsed body; {} when the request had none. */
	body: Record<string, unknown>;
	/** True when the body was present (JSON or form), false when empty. */
	hasBody: boolean;
	baseUrl: string;
	state: SandboxState;
	config: ResolvedConfig;
}

export interface Route {
	method: 'GET' | 'POST';
	template: string;
	pattern: RegExp;
	keys: string[];
	/** Interface whose bearer token the route demands; undefined = open (token endpoints, pages). */
	auth?: ApiInterface;
	/** Token endpoint of this interface: counted in stats.tokenRequests. */
	tokenFor?: ApiInterface;
	/** Creates a transaction or payout keyed by body.reference_no: counted in attemptsByReference. */
	creates?: boolean;
	/** Whether the body is read as JSON (a bad body gives 400). */
	usesBody?: boolean;
	handler: (ctx: RequestContext) => Reply | Promise<Reply>;
}

export function route(
	method: Route['method'],
	template: string,
	options: Pick<Route, 'auth' | 'tokenFor' | 'creates' | 'usesBody'>,
	handler: Route['handler'],
): Route {
	const keys: string[] = [];
	const source = template
		.split('/')
		.map((part) => {
			if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
			keys.push(part.slice(1));
			return '([^/]+)';
		})
		.join('/');
	return { method, template, pattern: new RegExp(`^${source}/?$`), keys, ...options, handler };
}

export type Match =
	| { route: Route; params: Record<string, string> }
	| { methodNotAllowed: true }
	| undefined;

export function matchRoute(routes: readonly Route[], method: string, path: string): Match {
	let pathKnown = false;
	for (const r of routes) {
		const m = r.pattern.exec(path);
		if (!m) continue;
		pathKnown = true;
		if (r.method !== method) continue;
		const params: Record<string, string> = {};
		r.keys.forEach((key, i) => {
			try {
				params[key] = decodeURIComponent(m[i + 1]);
			} catch {
				params[key] = m[i + 1];
			}
		});
		return { route: r, params };
	}
	return pathKnown ? { methodNotAllowed: true } : undefined;
}
