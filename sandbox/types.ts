/** Public types of the sandbox gateway (tests, the demo and benchmarks depend on these names). */

export interface SandboxCredentials {
	collection: { username: string; password: string };
	disbursement: { username: string; password: string };
	signingSecret: string;
}

/** The two interfaces; each has its own token endpoint and its own tokens (docs/endpoints.md, Tokens). */
export type ApiInterface = 'collection' | 'disbursement';

/**
 * How much a payout's answers (Process Disbursement, a look-up) state. The interface document shows
 * no payout's shape: 'documented' states only what it names for every record (reference_no, amount,
 * channel, status) and the time made; 'documented-untimed' leaves the time out too; 'full' (the
 * default) also repeats the request's fields, fee, total and callback URL.
 */
export type PayoutAnswers = 'full' | 'documented' | 'documented-untimed';
export const PAYOUT_ANSWERS: readonly PayoutAnswers[] = [
	'full',
	'documented',
	'documented-untimed',
];

/** The three status values of transactions, payouts and wallet filters (docs/endpoints.md, Answers). */
export type Status = 'pending' | 'completed' | 'cancelled';
export type FinalStatus = Exclude<Status, 'pending'>;

export interface SandboxOptions {
	/** Default 0 (a random free port). The gateway always listens on 127.0.0.1 only. */
	port?: number;
	/** Lifetime of issued tokens of both interfaces, in seconds. Default 3600. */
	tokenLifetimeSeconds?: number;
	/** Overrides of the default test credentials (SANDBOX_CREDENTIALS). */
	credentials?: Partial<SandboxCredentials>;
	/** Default 'sandbox'. In 'production' the repost endpoint answers 403. */
	environment?: 'sandbox' | 'production';
	/** A pending collection transaction turns cancelled (expired) after this. Default 3600. */
	transactionExpirySeconds?: number;
	/** When set, payouts complete this long after creation; otherwise they stay pending. */
	payoutAutoSettleMs?: number;
	/** Repost rate limit per reference_no. Default { max: 1, windowMs: 10000 }. */
	repostLimit?: { max: number; windowMs: number };
	/** 'array' (data is the array, public integrations) or 'object' (data.channels, the document). */
	channelListShape?: 'array' | 'object';
	/** How much payout answers state (PayoutAnswers); default 'full'. reset() comes back to it. */
	payoutAnswers?: PayoutAnswers;
	/** Extra delivery attempts after a non-2xx answer or connection error, 200 ms apart. Default 2. */
	callbackRetries?: number;
	/**
	 * Keeps transactions, payouts (and so wallet balances), scripted outcomes and callbacks sent in
	 * this JSON file, rewritten after each change and read at start, so a restarted gateway refuses
	 * a reference it was given before. Default none (in memory). A file that cannot be read makes
	 * the start fail, naming it. Tokens are not kept: clients fetch new ones.
	 */
	stateFile?: string;
	/** One line per request and callback; default silent. Never receives bodies or secrets. */
	log?: (line: string) => void;
}

export type FaultMode =
	| 'error-before'
	| 'error-after'
	| 'drop-before'
	| 'drop-after'
	| 'timeout-after'
	| 'malformed'
	| 'latency'
	| 'trickle'
	| 'oversize';

export interface FaultRule {
	method?: string;
	/** Matched as a prefix of the URL path (no query). */
	path: string;
	/** Only requests whose JSON body (or, for a look-up, query) names this reference_no (to slow or fail one row of a batch). */
	referenceNo?: string;
	mode: FaultMode;
	/** For error-*: default 500 (body {message: 'Server Error'}). */
	status?: number;
	/** For error-* with a 3xx status: the Location header sent. */
	location?: string;
	/** How many matching requests it hits; default unlimited. */
	times?: number;
	/** 0..1: chance that a matching request is hit; with `seed` the hits are reproducible. */
	probability?: number;
	seed?: number;
	/** For 'latency'. */
	latencyMs?: number;
	/** For 'timeout-after': hold the response this long, then destroy the socket. Default 30000. */
	holdMs?: number;
	/**
	 * For error-*: the JSON body sent instead of {message: 'Server Error'}; with a 2xx status it plays
	 * a service that answers success with the wrong body. Strings may hold `{{authorization}}`,
	 * `{{password}}` and `{{reference_no}}`, replaced by the request's own values, to play a
	 * service that echoes what it was sent; and, to play one that quotes the request in an error,
	 * `{{request_line}}` (`POST /path?query` as it arrived), `{{query}}` (as it arrived),
	 * `{{query_form}}` (re-encoded as a form: `+` for a space), `{{query_json}}` (its parameters as
	 * JSON) and `{{body}}` (the body as it arrived).
	 */
	body?: unknown;
	/** For error-*: this text sent as an HTML page instead of any JSON (a proxy's or a maintenance page). */
	html?: string;
	/** For 'drop-after': the status, the headers and half the body are sent before the connection is reset. */
	partialBody?: boolean;
	/**
	 * For 'trickle' (the work is done, then the status and headers go at once and the body follows
	 * one byte every `intervalMs`, default 200) and 'oversize': the status sent instead of the
	 * handler's own.
	 */
	intervalMs?: number;
	/** For 'trickle': after the answer's bytes, JSON-looking padding keeps trickling and never ends. */
	forever?: boolean;
	/** For 'oversize' (the work is done, then a JSON body this large is streamed): default 8 MiB. */
	sizeBytes?: number;
}

export interface CallbackRecord {
	url: string;
	body: unknown;
	referenceNo: string;
	status: string;
	/** 1 for the first delivery attempt, 2.. for retries. */
	attempt: number;
	statusCode?: number;
	error?: string;
	/** True when the host was not loopback: recorded, never contacted. */
	skipped?: boolean;
	/** Epoch milliseconds of the attempt. */
	time: number;
}

export interface SandboxStats {
	tokenRequests: { collection: number; disbursement: number };
	/** Key 'METHOD /path' without query. */
	requestsByPath: Record<string, number>;
	/** Successful creations (work done) per reference_no, both interfaces. */
	creationsByReference: Record<string, number>;
	/** Create attempts per reference_no, rejected ones and fault-hit ones included. */
	attemptsByReference: Record<string, number>;
	/** Callback events delivered to a loopback URL (one per status change or repost; retries not counted). */
	callbacksSent: number;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

export interface SandboxGateway {
	/** 'http://127.0.0.1:<port>' */
	url: string;
	/** Closes the server and all sockets, clears all timers. */
	close(): Promise<void>;
	stats(): SandboxStats;
	resetStats(): void;
	/** Clears all state: transactions, payouts, tokens, faults, stats, callbacks, latency. */
	reset(): void;
	faults: { add(rule: FaultRule): void; clear(): void };
	/** Added to every request (0 = none). */
	setLatency(ms: number): void;
	/** Every issued token becomes invalid. */
	expireTokens(): void;
	/** Final status plus signed callback, for collection transactions and payouts alike. */
	settle(referenceNo: string, status: FinalStatus): Promise<void>;
	/** Applied `afterMs` after creation (default 0); may be set before or after creation. */
	scriptOutcome(referenceNo: string, status: FinalStatus, afterMs?: number): void;
	/** Look-ups of this reference show two records: the record, and a copy with this status. False when none exists. */
	duplicateRecord(referenceNo: string, status: Status): boolean;
	/** Sets when a record was made (a transaction's `date`, a payout's `created_at`), as an earlier run would have. */
	backdate(referenceNo: string, createdAt: number): boolean;
	/**
	 * What creating with a reference that exists answers: 'taken' (default, 422) or 'existing' (200
	 * with the existing record, as an idempotent service would). Back to 'taken' on reset.
	 */
	answerReusedReferences(answer: 'taken' | 'existing'): void;
	/** How much payout answers state from now on (PayoutAnswers); back to the start option on reset. */
	answerPayouts(answers: PayoutAnswers): void;
	getTransaction(referenceNo: string): object | undefined;
	getPayout(referenceNo: string): object | undefined;
	/** The parsed JSON body of the last request whose path starts with `pathPrefix`. */
	lastRequestBody(pathPrefix: string): unknown;
	/** The last request whose path starts with `pathPrefix`: method, path, query, headers, body. */
	lastRequest(pathPrefix: string): RecordedRequest | undefined;
	/** Every callback delivery attempt, oldest first. */
	callbacks(): CallbackRecord[];
}
