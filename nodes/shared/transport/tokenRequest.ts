/**
 * One token request of the credentials' token step, and what its failures tell the user. It has
 * its own deadline and never outlasts the Timeout of the request that needs the token; it
 * follows no redirect, so the password is never sent to another host; and it reads at most the
 * answer size cap (limits.ts).
 */
import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';
import { DEFAULT_TIMEOUT_MS, ENDPOINTS, INTERFACE_LABEL, type ApiInterface } from './endpoints';
import {
	CREDENTIAL_UNUSABLE,
	TOKEN_STEP_FAILED,
	TokenStepError,
	safeJson,
	serviceSaid,
} from './errors';
import { DEADLINE_PASSED, bounded, readAnswer, readErrorAnswer, redirectHost } from './limits';
import { describeNetworkCode } from './networkCodes';
import { outcomeOf } from './outcome';
import { envelopeSchema, tokenSchema } from '../validation/schemas';
import { scrubText, secretsOf } from './secrets';
import { baseUrlPathHint, serviceUrl } from './url';

/**
 * A token request's own deadline, connect to last byte: n8n gives the token step neither the
 * node's Timeout nor a deadline (and the credential test has none), so it is stated here.
 */
export const TOKEN_DEADLINE_MS = DEFAULT_TIMEOUT_MS;

/**
 * The deadline of the request that needs the token, carried by the credential data n8n hands to
 * `preAuthentication` (transport.ts gives each request its own copy, and n8n passes that very
 * object on): a token step never outlasts the node's Timeout. A symbol, not enumerable: n8n never
 * stores or shows it.
 */
const REQUEST_DEADLINE = Symbol('requestDeadline');

interface RequestDeadline {
	signal: AbortSignal;
	ms: number;
}

export function bindTokenDeadline(
	credentials: ICredentialDataDecryptedObject,
	signal: AbortSignal,
	ms: number,
): void {
	const deadline: RequestDeadline = { signal, ms };
	Object.defineProperty(credentials, REQUEST_DEADLINE, { value: deadline, enumerable: false });
}

function requestDeadlineOf(
	credentials: ICredentialDataDecryptedObject,
): RequestDeadline | undefined {
	return (credentials as { [REQUEST_DEADLINE]?: RequestDeadline })[REQUEST_DEADLINE];
}

export async function requestToken(
	helper: IHttpRequestHelper,
	api: ApiInterface,
	credentials: ICredentialDataDecryptedObject,
): Promise<string> {
	const username = String(credentials.username ?? '');
	const password = String(credentials.password ?? '');
	const label = INTERFACE_LABEL[api];
	if (!credentials.baseUrl || !username || !password) {
		throw new TokenStepError(
			`The ${label} credential is incomplete: fill in Base URL, Username and Password`,
		);
	}
	const endpoint = api === 'collection' ? ENDPOINTS.collectionToken : ENDPOINTS.disbursementToken;
	const target = serviceUrl(String(credentials.baseUrl), endpoint.path);
	if ('problem' in target)
		throw new TokenStepError(`The ${label} credential's Base URL ${target.problem}`);
	const { url } = target;
	const caller = requestDeadlineOf(credentials);
	const deadlineMs = Math.min(TOKEN_DEADLINE_MS, caller?.ms ?? TOKEN_DEADLINE_MS);
	const own = AbortSignal.timeout(TOKEN_DEADLINE_MS);
	const deadline = caller ? AbortSignal.any([own, caller.signal]) : own;
	const common = { method: 'POST' as const, url, json: true, disableFollowRedirect: true };
	const options =
		api === 'collection'
			? // Documented (Create Token): credentials in the query string and the `X-Server: 1` header.
				{
					...common,
					qs: { username, password },
					headers: { 'X-Server': '1', Accept: 'application/json' },
				}
			: // Documented (Create Access Token): credentials in a JSON body.
				{ ...common, body: { username, password }, headers: { Accept: 'application/json' } };
	const sent = await outcomeOf(
		helper.helpers.httpRequest(bounded(options, deadline)) as Promise<{
			body: unknown;
			headers?: Record<string, unknown>;
		}>,
	);
	if ('failure' in sent) {
		// The request error carries the URL with the password in its query: never pass it on.
		// preAuthentication has no node to attach an error to; n8n wraps this in a NodeApiError.
		// Whatever the service said is scrubbed before it is quoted: a token endpoint may echo the
		// password it was sent, as it was sent (URL-encoded in the query, JSON-escaped in the body)
		// or otherwise: secrets.ts hides every such form, and withholds a quote left holding part
		// of one, so the node's error and the credential test's message show none.
		const secrets = secretsOf(credentials);
		const redirectedTo = redirectHost(sent.failure, url);
		const limit = await readErrorAnswer(sent.failure, deadline);
		const described = limit
			? describeLimit(label, limit, deadlineMs)
			: describeTokenFailure(
					label,
					sent.failure,
					redirectedTo === undefined ? undefined : scrubText(redirectedTo, secrets),
					String(credentials.baseUrl),
					secrets,
				);
		const refused = !limit && isRefusal(sent.failure);
		throw Object.assign(
			new TokenStepError(described, refused ? CREDENTIAL_UNUSABLE : TOKEN_STEP_FAILED),
			{ refused },
		);
	}
	const read = await readAnswer(sent.answer.body, sent.answer.headers, deadline);
	if ('failure' in read) {
		const limit = read.failure === 'ERR_BAD_RESPONSE' ? undefined : read.failure;
		throw new TokenStepError(
			limit
				? describeLimit(label, limit, deadlineMs)
				: `The ${label} token answer broke off before it was complete: try again, or check the Base URL`,
			TOKEN_STEP_FAILED,
		);
	}
	const envelope = envelopeSchema.safeParse(safeJson(read.text));
	const token = tokenSchema.safeParse(envelope.success ? envelope.data.data : undefined);
	if (!token.success) {
		const field = token.error.issues[0]?.path.join('.');
		const what =
			!envelope.success || !field ? 'no token object' : `its ${field} is missing or not valid`;
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

function describeTokenFailure(
	label: string,
	error: unknown,
	redirectedTo: string | undefined,
	baseUrl: string,
	secrets: readonly string[],
): string {
	const failure = error as { response?: { status?: number; data?: unknown }; code?: string };
	const status = failure.response?.status;
	const serviceMessage = envelopeSchema.safeParse(
		typeof failure.response?.data === 'string'
			? safeJson(failure.response.data)
			: failure.response?.data,
	);
	const said =
		serviceMessage.success && serviceMessage.data.message
			? ` (${serviceSaid(scrubText(serviceMessage.data.message, secrets))})`
			: '';
	if (status === 401 || status === 403 || status === 422) {
		return `The ${label} credential was refused: check Username and Password${said}`;
	}
	if (status && status >= 300 && status < 400) {
		return `The ${label} token request was redirected (HTTP ${status}${redirectedTo ? ` to ${redirectedTo}` : ''}) instead of answered: check the Base URL in the credential (https, host and no extra path). Redirects are not followed, so the password is never sent anywhere else`;
	}
	const pathHint = status === 404 ? baseUrlPathHint(baseUrl) : undefined;
	if (pathHint) return `The ${label} token request failed with HTTP 404: ${pathHint}${said}`;
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
