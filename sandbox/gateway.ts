/**
 * The sandbox gateway: a local HTTP server that behaves like the service (interface document
 * first, public integrations where it is silent: docs/endpoints.md), with fault and latency injection for tests and
 * benchmarks. Listens on 127.0.0.1 only. One request's path through it: server/pipeline.ts.
 */
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';
import { CallbackDispatcher } from './callbacks/dispatcher';
import { pageRoutes } from './collection/paymentPage';
import { collectionRoutes } from './collection/routes';
import { resolveCredentials } from './credentials';
import { disbursementRoutes } from './disbursement/routes';
import { CONTROL_PREFIX, handleControl } from './server/control';
import { FaultInjector } from './server/faults';
import { fail, send } from './server/http';
import { handleRequest, type Pipeline } from './server/pipeline';
import type { ResolvedConfig, Route } from './server/router';
import { SandboxState } from './server/state';
import { emptyStats } from './server/stats';
import { Scheduler } from './server/timers';
import type {
	FaultRule,
	FinalStatus,
	PayoutAnswers,
	SandboxGateway,
	SandboxOptions,
	SandboxStats,
	Status,
} from './types';

const ROUTES: readonly Route[] = [...collectionRoutes, ...disbursementRoutes, ...pageRoutes];

export async function startSandboxGateway(options: SandboxOptions = {}): Promise<SandboxGateway> {
	const log = options.log ?? (() => undefined);
	const config: ResolvedConfig = {
		credentials: resolveCredentials(options.credentials),
		environment: options.environment ?? 'sandbox',
		channelListShape: options.channelListShape ?? 'array',
		payoutAnswers: options.payoutAnswers ?? 'full',
	};
	// State timers (expiry, scripted outcomes, callback retries) are cleared by reset();
	// I/O timers (latency, held responses) only by close(), so a reset never strands a request.
	const stateTimers = new Scheduler();
	const ioTimers = new Scheduler();
	const dispatcher = new CallbackDispatcher({
		secret: config.credentials.signingSecret,
		retries: options.callbackRetries ?? 2,
		timers: stateTimers,
		log,
		onSent: () => state.stats.callbacksSent++,
		onRecorded: () => state.changed(),
	});
	const state = new SandboxState(
		{
			tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
			transactionExpirySeconds: options.transactionExpirySeconds ?? 3600,
			payoutAutoSettleMs: options.payoutAutoSettleMs,
			repostLimit: options.repostLimit ?? { max: 1, windowMs: 10000 },
			payoutAnswers: config.payoutAnswers,
			stateFile: options.stateFile,
			onSaveError: (error) => log(`the state file could not be written: ${error.message}`),
		},
		stateTimers,
		dispatcher,
	);
	const faults = new FaultInjector();
	let latencyMs = 0;
	let closed = false;
	let baseUrl = '';
	const sockets = new Set<Socket>();

	const pipeline: Pipeline = {
		routes: ROUTES,
		config,
		state,
		faults,
		ioTimers,
		log,
		current: () => ({ baseUrl, latencyMs, closed }),
		control: (method, path, parsed) =>
			path.startsWith(CONTROL_PREFIX) ? handleControl(gateway, method, path, parsed) : undefined,
	};
	const server = http.createServer((req, res) => {
		handleRequest(pipeline, req, res).catch((err: unknown) => {
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
			state.stats = emptyStats();
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
		expireTokens: () => state.tokens.expireAll(),
		settle: (referenceNo: string, status: FinalStatus) =>
			state.outcomes.settle(referenceNo, status),
		scriptOutcome: (referenceNo: string, status: FinalStatus, afterMs?: number) =>
			state.outcomes.script(referenceNo, status, afterMs),
		duplicateRecord(referenceNo: string, status: Status) {
			const duplicated =
				state.transactions.duplicate(referenceNo, { status }) ||
				state.payouts.duplicate(referenceNo, { status });
			state.changed();
			return duplicated;
		},
		backdate: (referenceNo: string, createdAt: number) => state.backdate(referenceNo, createdAt),
		answerReusedReferences(answer: 'taken' | 'existing') {
			state.reusedReferenceAnswer = answer;
		},
		answerPayouts(answers: PayoutAnswers) {
			state.payoutAnswers = answers;
		},
		getTransaction: (referenceNo: string) => state.transactions.view(referenceNo),
		getPayout: (referenceNo: string) => state.payouts.view(referenceNo),
		lastRequestBody: (pathPrefix: string) => state.lastRequest(pathPrefix)?.body,
		lastRequest: (pathPrefix: string) => state.lastRequest(pathPrefix),
		callbacks: () => dispatcher.list(),
	};
	log(`sandbox gateway listening on ${baseUrl}`);
	return gateway;
}
