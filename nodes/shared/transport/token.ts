/**
 * Fetching bearer tokens for the credentials' `preAuthentication`.
 *
 * n8n calls `preAuthentication` for every request that finds the stored token empty, and again
 * after a 401. Items processed in parallel would therefore each fetch a token at the start of a
 * run and again when the token expires mid-run. The service asks for at most one token request per
 * 55 minutes, so concurrent fetches for the same credential share one request, and a token fetched
 * moments ago is handed to callers that still hold a token it replaced.
 *
 * Only a token it replaced: in queue mode each worker process fetches its own, and the database
 * keeps the last one stored, so a caller may hold another worker's token. When the service drops
 * every token, this process's recent one is as dead as that one; the caller gets a new token.
 */
import { createHash } from 'crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { DEFAULT_TIMEOUT_MS, ENDPOINTS, INTERFACE_LABEL, type ApiInterface } from './endpoints';
import { CREDENTIAL_UNUSABLE, TOKEN_STEP_FAILED, TokenStepError, safeJson } from './errors';
import { DEADLINE_PASSED, bounded, readAnswer, readErrorAnswer, redirectHost } from './limits';
import { describeNetworkCode } from './networkCodes';
import { outcomeOf } from './outcome';
import { envelopeSchema, tokenSchema } from '../validation/schemas';
import { scrubText, secretsOf } from './secrets';
import { baseUrlProblem, joinUrl } from './url';

/** A token this fresh is reused by callers that hit a 401 with an older token. */
const REUSE_FRESH_TOKEN_MS = 30_000;

/**
 * A credential the token endpoint refused is not asked about again for this long: with
 * continue-on-fail every item would otherwise send the same wrong password again. Editing the
 * credential changes its key, so a corrected password is tried at once.
 */
const REMEMBER_REFUSAL_MS = 30_000;

/**
 * A token request's own deadline, connect to last byte: n8n gives the token step neither the
 * node's Timeout nor a deadline (and the credential test has none), so it is stated here.
 */
export const TOKEN_DEADLINE_MS = DEFAULT_TIMEOUT_MS;

/**
 * The deadline of the request that needs the token, keyed by the credential data n8n hands to
 * `preAuthentication` (transport.ts gives each request its own copy): a token step never
 * outlasts the node's Timeout.
 */
const requestDeadlines = new WeakMap<object, { signal: AbortSignal; ms: number }>();

export function bindTokenDeadline(credentials: ICredentialDataDecryptedObject, signal: AbortSignal, ms: number): void {
	requestDeadlines.set(credentials, { signal, ms });
}

/** A token request in flight, and the tokens its callers held (empty: none stored yet). */
const inFlight = new Map<string, { token: Promise<string>; replacing: Set<string> }>();
const recent = new Map<string, { token: string; fetchedAt: number; replaced: Set<string> }>();
const refused = new Map<string, { message: string; refusedAt: number }>();

/** Identifies a credential without keeping its password in memory as plain text. */
function credentialKey(api: ApiInterface, credentials: ICredentialDataDecryptedObject): string {
	return createHash('sha256')
		.update([api, credentials.baseUrl, credentials.username, credentials.password].join('\u0000'))
		.digest('hex');
}

export async function obtainToken(
	helper: IHttpRequestHelper,
	api: ApiInterface,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const key = credentialKey(api, credentials);
	const held = String(credentials.sessionToken ?? '');
	const fresh = recent.get(key);
	if (fresh && fresh.replaced.has(held) && Date.now() - fresh.fetchedAt < REUSE_FRESH_TOKEN_MS) {
		return { sessionToken: fresh.token };
	}
	const refusal = refused.get(key);
	if (refusal && Date.now() - refusal.refusedAt < REMEMBER_REFUSAL_MS) {
		throw new TokenStepError(refusal.message);
	}
	let pending = inFlight.get(key);
	if (!pending) {
		const replacing = new Set<string>();
		const token = requestToken(helper, api, credentials).then(
			(fetched) => {
				recent.set(key, { token: fetched, fetchedAt: Date.now(), replaced: replacing });
				refused.delete(key);
				return fetched;
			},
			(error: Error & { refused?: boolean }) => {
				if (error.refused) refused.set(key, { message: error.message, refusedAt: Date.now() });
				throw error;
			},
		);
		pending = { token, replacing };
		inFlight.set(key, pending);
		const forget = () => inFlight.delete(key);
		token.then(forget, forget);
	}
	pending.replacing.add(held);
	return { sessionToken: await pending.token };
}

/**
 * The credentials' `authenticate`: puts the stored token on a request. A function rather than the
 * generic `Bearer {{$credentials.sessionToken}}` form, because n8n evaluates that expression (a
 * full expression context) for every request, which measured 8% of a bulk payout run's CPU.
 */
export async function addBearerToken(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.headers = {
		...requestOptions.headers,
		Authorization: `Bearer ${String(credentials.sessionToken ?? '')}`,
	};
	return requestOptions;
}

async function requestToken(
	helper: IHttpRequestHelper,
	api: ApiInterface,
	credentials: ICredentialDataDecryptedObject,
): Promise<string> {
	const username = String(credentials.username ?? '');
	const password = String(credentials.password ?? '');
	const label = INTERFACE_LABEL[api];
	if (!credentials.baseUrl || !username || !password) {
		throw new TokenStepError(`The ${label} credential is incomplete: fill in Base URL, Username and Password`);
	}
	const urlProblem = baseUrlProblem(String(credentials.baseUrl));
	if (urlProblem) throw new TokenStepError(`The ${label} credential's Base URL ${urlProblem}`);
	const endpoint = api === 'collection' ? ENDPOINTS.collectionToken : ENDPOINTS.disbursementToken;
	const url = joinUrl(String(credentials.baseUrl), endpoint.path);
	const caller = requestDeadlines.get(credentials);
	const deadlineMs = Math.min(TOKEN_DEADLINE_MS, caller?.ms ?? TOKEN_DEADLINE_MS);
	const own = AbortSignal.timeout(TOKEN_DEADLINE_MS);
	const deadline = caller ? AbortSignal.any([own, caller.signal]) : own;
	const common = { method: 'POST' as const, url, json: true, disableFollowRedirect: true };
	const options =
		api === 'collection'
			? // Documented (4.1): credentials in the query string and the `X-Server: 1` header.
				{ ...common, qs: { username, password }, headers: { 'X-Server': '1', Accept: 'application/json' } }
			: // Documented (4.2): credentials in a JSON body.
				{ ...common, body: { username, password }, headers: { Accept: 'application/json' } };
	const sent = await outcomeOf(
		helper.helpers.httpRequest(bounded(options, deadline)) as Promise<{ body: unknown; headers?: Record<string, unknown> }>,
	);
	if ('failure' in sent) {
		// The request error carries the URL with the password in its query: never pass it on.
		// preAuthentication has no node to attach an error to; n8n wraps this in a NodeApiError.
		// Whatever the service said is scrubbed: a token endpoint may echo the password it was sent.
		const redirectedTo = redirectHost(sent.failure, url);
		const limit = await readErrorAnswer(sent.failure, deadline);
		const described = limit ? describeLimit(label, limit, deadlineMs) : describeTokenFailure(label, sent.failure, redirectedTo);
		const refused = !limit && isRefusal(sent.failure);
		throw Object.assign(new TokenStepError(scrubText(described, secretsOf(credentials)), refused ? CREDENTIAL_UNUSABLE : TOKEN_STEP_FAILED), { refused });
	}
	const read = await readAnswer(sent.answer.body, sent.answer.headers, deadline);
	if ('failure' in read) {
		const limit = read.failure === 'ERR_BAD_RESPONSE' ? undefined : read.failure;
		throw new TokenStepError(
			limit ? describeLimit(label, limit, deadlineMs) : `The ${label} token answer broke off before it was complete: try again, or check the Base URL`,
			TOKEN_STEP_FAILED,
		);
	}
	const envelope = envelopeSchema.safeParse(safeJson(read.text));
	const token = tokenSchema.safeParse(envelope.success ? envelope.data.data : undefined);
	if (!token.success) {
		const field = token.error.issues[0]?.path.join('.');
		const what = !envelope.success || !field ? 'no token object' : `its ${field} is missing or not valid`;
		throw new TokenStepError(
			`The ${label} service answered the token request without a usable token (${what}): check the Base URL, or ask the service for a valid token`,
			TOKEN_STEP_FAILED,
		);
	}
	if (!isHeaderSafe(token.data.token)) {
		throw new TokenStepError(
			`The ${label} service answered the token request with a token that cannot be sent (it contains spaces, line breaks or control characters): ask the service for a valid token, or check the Base URL`,
		);
	}
	return token.data.token;
}

function describeLimit(label: string, limit: string, deadlineMs: number): string {
	if (limit === DEADLINE_PASSED) {
		return `The ${label} token request got no complete answer within ${deadlineMs / 1000} seconds: check the Base URL and your network`;
	}
	return `The ${label} token request ${describeNetworkCode(limit).replace(/^the answer/, 'got an answer that')}: check the Base URL`;
}

function isRefusal(error: unknown): boolean {
	const status = (error as { response?: { status?: number } }).response?.status;
	return status === 401 || status === 403 || status === 422;
}

function describeTokenFailure(label: string, error: unknown, redirectedTo: string | undefined): string {
	const failure = error as { response?: { status?: number; data?: unknown }; code?: string };
	const status = failure.response?.status;
	const serviceMessage = envelopeSchema.safeParse(
		typeof failure.response?.data === 'string' ? safeJson(failure.response.data) : failure.response?.data,
	);
	const said =
		serviceMessage.success && serviceMessage.data.message
			? ` (the service said: "${serviceMessage.data.message}")`
			: '';
	if (status === 401 || status === 403 || status === 422) {
		return `The ${label} credential was refused: check Username and Password${said}`;
	}
	if (status && status >= 300 && status < 400) {
		return `The ${label} token request was redirected (HTTP ${status}${redirectedTo ? ` to ${redirectedTo}` : ''}) instead of answered: check the Base URL in the credential (https, host and no extra path). Redirects are not followed, so the password is never sent anywhere else`;
	}
	if (status) return `The ${label} token request failed with HTTP ${status}${said}`;
	return `The ${label} token request could not reach the service (${describeNetworkCode(failure.code)}): check the Base URL`;
}

/** A bearer token goes into a header: visible ASCII only, so no CR/LF can split the request. */
function isHeaderSafe(token: string): boolean {
	for (let i = 0; i < token.length; i++) {
		const code = token.charCodeAt(i);
		if (code <= 0x20 || code >= 0x7f) return false;
	}
	return true;
}
