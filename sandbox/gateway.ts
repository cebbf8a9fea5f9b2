/**
 * The sandbox gateway: a local HTTP server that behaves like the service (interface document
 * first, PUBLIC-FACTS.md where it is silent), with fault and latency injection for tests and
 * benchmarks. Listens on 127.0.0.1 only.
 *
 * Request pipeline: read body (413 over 1 MB) -> control surface? -> count -> latency -> fault
 * "before" -> route (404/405) -> bearer check (401) -> body check (400) -> handler -> fault
 * "after" -> send.
 */
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';
import { CallbackDispatcher } from './callbacks';
import { collectionRoutes } from './collection';
import { CONTROL_PREFIX, handleControl } from './control';
import { resolveCredentials } from './credentials';
import { disbursementRoutes } from './disbursement';
import { FaultInjector } from './faults';
import { fail, parseBody, readBody, send, serialize, unauthenticated, type ParsedBody, type Reply } from './http';
import { pageRoutes } from './paymentPage';
import { matchRoute, type RequestContext, type ResolvedConfig, type Route } from './router';
import { SandboxState } from './state';
import { Scheduler } from './timers';
import type { FaultRule, FinalStatus, SandboxGateway, SandboxOptions, SandboxStats } from './types';

const ROUTES: readonly Route[] = [...collectionRoutes, ...disbursementRoutes, ...pageRoutes];
const DEFAULT_HOLD_MS = 30000;

function bearer(header: string | undefined): string | undefined {
	const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
	return m?.[1];
}

export async function startSandboxGateway(options: SandboxOptions = {}): Promise<SandboxGateway> {
	const log = options.log ?? (() => undefined);
	const config: ResolvedConfig = {
		credentials: resolveCredentials(options.credentials),
		environment: options.environment ?? 'sandbox',
		channelListShape: options.channelListShape ?? 'array',
	};
	// State timers (expiry, scripted outcomes, callback retries) are cleared by reset();
	// I/O timers (latency, held responses) only by close(), so a reset never strands a request.
	const stateTimers = new Scheduler();
	const ioTimers = new Scheduler();
	let state!: SandboxState;
	const dispatcher = new CallbackDispatcher({
		secret: config.credentials.signingSecret,
		retries: options.callbackRetries ?? 2,
		timers: stateTimers,
		log,
		onSent: () => state.stats.callbacksSent++,
	});
	state = new SandboxState(
		{
			tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
			transactionExpirySeconds: options.transactionExpirySeconds ?? 3600,
			payoutAutoSettleMs: options.payoutAutoSettleMs,
			repostLimit: options.repostLimit ?? { max: 1, windowMs: 10000 },
		},
		stateTimers,
		dispatcher,
	);
	const faults = new FaultInjector();
	let latencyMs = 0;
	let closed = false;
	let baseUrl = '';
	const sockets = new Set<Socket>();

	async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
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

		if (path.startsWith(CONTROL_PREFIX)) {
			send(res, await handleControl(gateway, method, path, parsed));
			return;
		}

		state.count(state.stats.requestsByPath, `${method} ${path}`);
		const body = parsed.kind === 'ok' ? parsed.value : undefined;
		state.recordRequest({
			method,
			path,
			query: Object.fromEntries(url.searchParams),
			headers: { ...req.headers },
			body: structuredClone(body),
		});

		const match = matchRoute(ROUTES, method, path);
		const matched = match && 'route' in match ? match : undefined;
		// Counted as they arrive, before any fault: these are what the client did.
		if (matched?.route.tokenFor) state.stats.tokenRequests[matched.route.tokenFor]++;
		if (matched?.route.creates && typeof body?.reference_no === 'string') {
			state.count(state.stats.attemptsByReference, body.reference_no);
		}

		const decision = faults.decide(method, path);
		const wait = latencyMs + decision.latencyMs;
		if (wait > 0) {
			await ioTimers.delay(wait);
			if (closed) return;
		}

		const fault = decision.fault;
		if (fault?.mode === 'error-before') return finish(errorReply(fault));
		if (fault?.mode === 'drop-before') return drop();

		let reply: Reply;
		if (!match) reply = fail(404, 'Not found.');
		else if ('methodNotAllowed' in match) reply = fail(405, `The ${method} method is not supported for this route.`);
		else reply = await run(match.route, match.params, url, req, parsed);

		switch (fault?.mode) {
			case 'error-after':
				return finish(errorReply(fault));
			case 'drop-after':
				return drop();
			case 'timeout-after':
				log(`${method} ${path} -> held (timeout-after)`);
				ioTimers.after(fault.holdMs ?? DEFAULT_HOLD_MS, () => req.socket.destroy());
				return;
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
		function drop(): void {
			log(`${method} ${path} -> connection dropped`);
			req.socket.destroy();
		}
	}

	async function run(
		route: Route,
		params: Record<string, string>,
		url: URL,
		req: http.IncomingMessage,
		parsed: ParsedBody,
	): Promise<Reply> {
		if (route.auth && !state.isValidToken(bearer(req.headers.authorization), route.auth)) return unauthenticated();
		if (route.usesBody && parsed.kind === 'bad') return fail(400, parsed.message);
		const ctx: RequestContext = {
			method: route.method,
			path: url.pathname,
			query: url.searchParams,
			headers: req.headers,
			params,
			body: parsed.kind === 'ok' ? parsed.value : {},
			hasBody: parsed.kind === 'ok',
			baseUrl,
			state,
			config,
		};
		return route.handler(ctx);
	}

	const server = http.createServer((req, res) => {
		handle(req, res).catch((err: unknown) => {
			log(`internal error: ${err instanceof Error ? err.message : String(err)}`);
			send(res, fail(500, 'Server Error'));
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('clientError', (_err, socket) => socket.destroy());

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	baseUrl = `http://127.0.0.1:${port}`;

	const gateway: SandboxGateway = {
		url: baseUrl,
		async close() {
			if (closed) return;
			closed = true;
			stateTimers.cancelAll();
			ioTimers.cancelAll();
			dispatcher.close();
			const done = new Promise<void>((resolve) => server.close(() => resolve()));
			for (const socket of sockets) socket.destroy();
			await done;
		},
		stats(): SandboxStats {
			return structuredClone(state.stats);
		},
		resetStats() {
			const counters = state.stats;
			counters.tokenRequests = { collection: 0, disbursement: 0 };
			counters.requestsByPath = {};
			counters.creationsByReference = {};
			counters.attemptsByReference = {};
			counters.callbacksSent = 0;
		},
		reset() {
			state.reset();
			faults.clear();
			latencyMs = 0;
		},
		faults: {
			add: (rule: FaultRule) => faults.add(rule),
			clear: () => faults.clear(),
		},
		setLatency(ms: number) {
			latencyMs = Math.max(0, Number(ms) || 0);
		},
		expireTokens: () => state.expireTokens(),
		settle: (referenceNo: string, status: FinalStatus) => state.settle(referenceNo, status),
		scriptOutcome: (referenceNo: string, status: FinalStatus, afterMs?: number) => state.scriptOutcome(referenceNo, status, afterMs),
		getTransaction: (referenceNo: string) => state.transactionView(referenceNo),
		getPayout: (referenceNo: string) => state.payoutView(referenceNo),
		lastRequestBody: (pathPrefix: string) => state.lastRequest(pathPrefix)?.body,
		lastRequest: (pathPrefix: string) => state.lastRequest(pathPrefix),
		callbacks: () => dispatcher.list(),
	};
	log(`sandbox gateway listening on ${baseUrl}`);
	return gateway;
}

function errorReply(rule: FaultRule): Reply {
	const reply = fail(rule.status ?? 500, 'Server Error');
	// A redirect points somewhere, as a Base URL with http instead of https would be answered.
	return rule.location ? { ...reply, headers: { ...reply.headers, Location: rule.location } } : reply;
}
