/**
 * One request through the gateway: read body (413 over 1 MB) -> control surface? -> count ->
 * latency -> fault "before" -> route (404/405) -> bearer check (401) -> body check (400) ->
 * handler -> fault "after" (also a trickled or oversized answer) -> send.
 */
import type { IncomingMessage, ServerResponse } from 'http';
import type { FaultInjector } from './faults';
import { faultReply } from './faultReply';
import { oversize, trickle } from './slowReplies';
import {
	fail,
	parseBody,
	readBody,
	send,
	serialize,
	unauthenticated,
	type ParsedBody,
	type Reply,
} from './http';
import { matchRoute, type RequestContext, type ResolvedConfig, type Route } from './router';
import type { SandboxState } from './state';
import { countUp } from './stats';
import type { Scheduler } from './timers';

const DEFAULT_HOLD_MS = 30000;

export interface Pipeline {
	routes: readonly Route[];
	config: ResolvedConfig;
	state: SandboxState;
	faults: FaultInjector;
	/** Latency and held responses: cleared only on close, so a reset never strands a request. */
	ioTimers: Scheduler;
	log: (line: string) => void;
	/** Read per request: these change while the gateway runs. */
	current(): { baseUrl: string; latencyMs: number; closed: boolean };
	/** The /__sandbox/ control surface. */
	control(method: string, path: string, parsed: ParsedBody): Promise<Reply> | undefined;
}

function bearer(header: string | undefined): string | undefined {
	const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
	return m?.[1];
}

export async function handleRequest(
	p: Pipeline,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const { state, log } = p;
	const started = Date.now();
	const method = (req.method ?? 'GET').toUpperCase();
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	const path = url.pathname;

	const read = await readBody(req);
	if (read.kind === 'aborted') return;
	if (read.kind === 'too-large') {
		send(res, { ...fail(413, 'The request body is too large.'), headers: { connection: 'close' } });
		return;
	}
	const parsed: ParsedBody = parseBody(read.buffer, req.headers['content-type']);

	const controlled = p.control(method, path, parsed);
	if (controlled) {
		send(res, await controlled);
		return;
	}

	countUp(state.stats.requestsByPath, `${method} ${path}`);
	const body = parsed.kind === 'ok' ? parsed.value : undefined;
	state.recordRequest({
		method,
		path,
		query: Object.fromEntries(url.searchParams),
		headers: { ...req.headers },
		body: structuredClone(body),
	});

	const match = matchRoute(p.routes, method, path);
	const matched = match && 'route' in match ? match : undefined;
	// Counted as they arrive, before any fault: these are what the client did.
	if (matched?.route.tokenFor) state.stats.tokenRequests[matched.route.tokenFor]++;
	if (matched?.route.creates && typeof body?.reference_no === 'string') {
		countUp(state.stats.attemptsByReference, body.reference_no);
	}

	// A create names its reference_no in the body, a look-up in the query.
	const namedReference =
		typeof body?.reference_no === 'string'
			? body.reference_no
			: (url.searchParams.get('reference_no') ?? undefined);
	const decision = p.faults.decide(method, path, namedReference);
	const wait = p.current().latencyMs + decision.latencyMs;
	if (wait > 0) {
		await p.ioTimers.delay(wait);
		if (p.current().closed) return;
	}

	const fault = decision.fault;
	if (fault?.mode === 'error-before') return finish(faultReply(fault, req, url, body, read.buffer));
	if (fault?.mode === 'drop-before') return drop();

	let reply: Reply;
	if (!match) reply = fail(404, 'Not found.');
	else if ('methodNotAllowed' in match)
		reply = fail(405, `The ${method} method is not supported for this route.`);
	else reply = await run(p, match.route, match.params, url, req, parsed);

	switch (fault?.mode) {
		case 'error-after':
			return finish(faultReply(fault, req, url, body, read.buffer));
		case 'drop-after':
			return fault.partialBody ? cut(reply) : drop();
		case 'timeout-after':
			log(`${method} ${path} -> held (timeout-after)`);
			p.ioTimers.after(fault.holdMs ?? DEFAULT_HOLD_MS, () => req.socket.destroy());
			return;
		case 'trickle':
			log(
				`${method} ${path} -> ${fault.status ?? reply.status}, trickled${fault.forever ? ' forever' : ''}`,
			);
			return trickle(res, reply, fault, p.ioTimers);
		case 'oversize':
			return oversize(res, reply, fault, (written, size) =>
				log(
					`${method} ${path} -> ${fault.status ?? reply.status}, oversized: ${written} of ${size} bytes written`,
				),
			);
		case 'malformed': {
			// The work is done and the status is 200, but the body breaks off mid-JSON.
			const full = serialize({ ...reply, status: 200 }).payload || '{"message":""}';
			const cut = full.slice(0, Math.max(1, Math.floor(full.length / 2)));
			return finish({ ...reply, status: 200, html: undefined, text: undefined }, cut);
		}
		default:
			return finish(reply);
	}

	function finish(r: Reply, payload?: string): void {
		send(res, r, payload === undefined ? undefined : { payload });
		log(`${method} ${path} -> ${r.status} (${Date.now() - started} ms)`);
	}
	/** The status, the headers and half the body, then the connection is reset. */
	function cut(r: Reply): void {
		const { contentType, payload } = serialize(r);
		res.writeHead(r.status, {
			...r.headers,
			'content-type': contentType,
			'content-length': String(Buffer.byteLength(payload)),
		});
		res.write(payload.slice(0, Math.floor(payload.length / 2)), () => drop());
	}
	function drop(): void {
		log(`${method} ${path} -> connection dropped`);
		req.socket.destroy();
	}
}

async function run(
	p: Pipeline,
	route: Route,
	params: Record<string, string>,
	url: URL,
	req: IncomingMessage,
	parsed: ParsedBody,
): Promise<Reply> {
	if (route.auth && !p.state.tokens.isValid(bearer(req.headers.authorization), route.auth))
		return unauthenticated();
	if (route.usesBody && parsed.kind === 'bad') return fail(400, parsed.message);
	const ctx: RequestContext = {
		method: route.method,
		path: url.pathname,
		query: url.searchParams,
		headers: req.headers,
		params,
		body: parsed.kind === 'ok' ? parsed.value : {},
		hasBody: parsed.kind === 'ok',
		baseUrl: p.current().baseUrl,
		state: p.state,
		config: p.config,
	};
	return route.handler(ctx);
}
