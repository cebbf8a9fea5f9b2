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
import type { ApiInterface } from './endpoints';
import { TokenStepError } from './errors';
import { requestToken } from './tokenRequest';

/** A token this fresh is reused by callers that hit a 401 with an older token. */
const REUSE_FRESH_TOKEN_MS = 30_000;

/**
 * A credential the token endpoint refused is not asked about again for this long: with
 * continue-on-fail every item would otherwise send the same wrong password again. Editing the
 * credential changes its key, so a corrected password is tried at once.
 */
const REMEMBER_REFUSAL_MS = 30_000;

/*
 * Module-level on purpose: these outlive runs. They are keyed by the credential (credentialKey),
 * never by an execution context, because concurrent runs of one credential in this process must
 * share one token request, and a refusal must be remembered across runs. What belongs to one run is
 * in the run's context (runner/runContext.ts); the token itself is stored by n8n with the credential.
 */

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
