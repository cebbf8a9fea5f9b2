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
import { ENDPOINTS, INTERFACE_LABEL, type ApiInterface } from './endpoints';
import { CREDENTIAL_UNUSABLE, TOKEN_STEP_FAILED, TokenStepError } from './errors';
import { describeNetworkCode } from './networkCodes';
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
	let body: unknown;
	try {
		body =
			api === 'collection'
				? // Documented (Create Token): credentials in the query string and the `X-Server: 1` header.
					await helper.helpers.httpRequest({
						method: 'POST',
						url,
						qs: { username, password },
						headers: { 'X-Server': '1', Accept: 'application/json' },
						json: true,
						timeout: 30_000,
					})
				: // Documented (Create Access Token): credentials in a JSON body.
					await helper.helpers.httpRequest({
						method: 'POST',
						url,
						body: { username, password },
						headers: { Accept: 'application/json' },
						json: true,
						timeout: 30_000,
					});
	} catch (error) {
		// The request error carries the URL with the password in its query: never pass it on.
		// preAuthentication has no node to attach an error to; n8n wraps this in a NodeApiError.
		// Whatever the service said is scrubbed: a token endpoint may echo the password it was sent.
		const message = scrubText(describeTokenFailure(label, error), secretsOf(credentials));
		const refused = isRefusal(error);
		throw Object.assign(new TokenStepError(message, refused ? CREDENTIAL_UNUSABLE : TOKEN_STEP_FAILED), { refused });
	}
	const envelope = envelopeSchema.safeParse(body);
	const token = tokenSchema.safeParse(envelope.success ? envelope.data.data : undefined);
	if (!token.success) {
		throw new TokenStepError(`The ${label} service answered the token request without a token: check the Base URL`, TOKEN_STEP_FAILED);
	}
	if (!isHeaderSafe(token.data.token)) {
		throw new TokenStepError(
			`The ${label} service answered the token request with a token that cannot be sent (it contains spaces, line breaks or control characters): ask the service for a valid token, or check the Base URL`,
		);
	}
	return token.data.token;
}

function isRefusal(error: unknown): boolean {
	const status = (error as { response?: { status?: number } }).response?.status;
	return status === 401 || status === 403 || status === 422;
}

function describeTokenFailure(label: string, error: unknown): string {
	const failure = error as { response?: { status?: number; data?: unknown }; code?: string };
	const status = failure.response?.status;
	const serviceMessage = envelopeSchema.safeParse(failure.response?.data);
	const said =
		serviceMessage.success && serviceMessage.data.message
			? ` (the service said: "${serviceMessage.data.message}")`
			: '';
	if (status === 401 || status === 403 || status === 422) {
		return `The ${label} credential was refused: check Username and Password${said}`;
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
