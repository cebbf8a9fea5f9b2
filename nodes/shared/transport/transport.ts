/**
 * The only place that talks HTTP to the service. Every node operation goes through
 * `callService`: it picks the credential of the endpoint's interface (so a token never crosses
 * interfaces), sends through n8n's `httpRequestWithAuthentication` (which fetches a token when
 * none is stored and once more after a 401, and never resends after other errors), unwraps the
 * envelope and maps failures to errors that say what to fix.
 */
import type {
	ICredentialDataDecryptedObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_TIMEOUT_MS,
	ENDPOINT_PATH_FIX,
	endpointPathProblem,
	ENDPOINTS,
	INTERFACE_LABEL,
	resolvePath,
	type ApiInterface,
	type ServiceRequest,
	type ServiceResponse,
} from './endpoints';
import {
	ServiceError,
	classifyFailure,
	describeFailure,
	safeJson,
	type ServiceFailure,
} from './errors';
import { envelopeSchema } from '../validation/schemas';
import { bounded, readAnswer, readErrorAnswer, redirectHost } from './limits';
import { outcomeOf } from './outcome';
import { scrubDeep, secretsOf } from './secrets';
import {
	serviceRun,
	type CredentialContext,
	type ReadCredential,
	type ServiceContext,
	type ServiceRun,
} from './runState';
import { bindTokenDeadline } from './tokenRequest';
import { baseUrlPathHint, serviceUrl } from './url';

export { outcomeOf, serviceRun, type ServiceContext, type ServiceRun };

export const CREDENTIAL_TYPE: Record<ApiInterface, string> = {
	collection: 'paymentCollectionApi',
	disbursement: 'disbursementApi',
};

/** The credential of `api`, read once per run (runState.ts). */
function readCredential(
	run: ServiceRun<CredentialContext>,
	api: ApiInterface,
): Promise<ReadCredential> {
	const { ctx, credentials: perContext } = run;
	let credential = perContext.get(api);
	if (!credential) {
		const type = CREDENTIAL_TYPE[api];
		const reference = ctx.getNode().credentials?.[type];
		credential = ctx.getCredentials(type).then((data) => ({
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type,
			data,
		}));
		perContext.set(api, credential);
		credential.catch(() => perContext.delete(api));
	}
	return credential;
}

export async function credentialsFor(
	run: ServiceRun<CredentialContext>,
	api: ApiInterface,
): Promise<ICredentialDataDecryptedObject> {
	return (await readCredential(run, api)).data;
}

/** Sends one request; `run` is the run's state (or a fresh one for a call outside a run). */
export async function callService(
	run: ServiceRun,
	request: ServiceRequest,
): Promise<ServiceResponse> {
	const { ctx } = run;
	const endpoint = ENDPOINTS[request.endpoint];
	const read = await outcomeOf(readCredential(run, endpoint.api));
	if ('failure' in read) {
		// n8n may refuse the credential before any request (Engine 2.0 does so for expirable ones).
		const failure = classifyFailure(read.failure);
		throw failure.tokenFailure === undefined
			? read.failure
			: toServiceError(ctx, failure, endpoint.api);
	}
	const credential = read.answer;
	const credentials = credential.data;
	const baseUrl = String(credentials.baseUrl ?? '');
	const override = request.pathOverride?.trim();
	const overrideProblem = override ? endpointPathProblem(override) : undefined;
	if (overrideProblem)
		throw new NodeOperationError(ctx.getNode(), `Endpoint Path ${overrideProblem}`, {
			description: ENDPOINT_PATH_FIX,
		});
	const target = serviceUrl(baseUrl, resolvePath(override || endpoint.path, request.pathParams));
	if ('problem' in target) {
		const label = INTERFACE_LABEL[endpoint.api];
		const tokenFailure = `The ${label} credential's Base URL ${target.problem}`;
		throw toServiceError(
			ctx,
			{ kind: 'rejected', tokenFailure, credentialUnusable: true },
			endpoint.api,
		);
	}
	const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	// Timeout is a deadline from connect to the last byte, token step included (limits.ts).
	const deadline = AbortSignal.timeout(timeoutMs);
	const options: IHttpRequestOptions = bounded(
		{
			method: endpoint.method as IHttpRequestMethods,
			url: target.url,
			headers: { Accept: 'application/json' },
			json: true,
			// A redirected POST would be re-sent as a GET elsewhere: a redirect is reported instead.
			disableFollowRedirect: true,
		},
		deadline,
	);
	if (request.query) options.qs = request.query;
	if (request.body) options.body = request.body;

	// Handing n8n the credential read once per run spares a decryption per request. Each request
	// gets its own copy, so the token step can tell which token the request carried (see token.ts).
	const tokenSent = credentials.sessionToken;
	const forRequest = { ...credentials };
	bindTokenDeadline(forRequest, deadline, timeoutMs);
	const sent = await outcomeOf(
		ctx.helpers.httpRequestWithAuthentication.call(ctx, credential.type, options, {
			credentialsDecrypted: { ...credential, data: forRequest },
		}) as Promise<{ body: unknown; headers?: Record<string, unknown> }>,
	);
	// A token fetched for this request (none stored yet, or a 401) serves the later ones too.
	if (forRequest.sessionToken !== tokenSent && credentials.sessionToken === tokenSent) {
		credentials.sessionToken = forRequest.sessionToken;
	}
	const secrets = secretsOf(credentials, forRequest.sessionToken, tokenSent);
	if ('failure' in sent) {
		const redirectedTo = redirectHost(sent.failure, target.url);
		const limit = await readErrorAnswer(sent.failure, deadline);
		const classified = classifyFailure(sent.failure);
		// An answer not read in full within the deadline and the cap proves nothing: unclear.
		const failure: ServiceFailure =
			limit && classified.tokenFailure === undefined
				? { kind: 'unclear', networkCode: limit }
				: classified;
		if (failure.status && failure.status >= 300 && failure.status < 400)
			failure.redirectHost = redirectedTo;
		if (failure.status === 404) failure.baseUrlHint = baseUrlPathHint(baseUrl);
		// Only what the service said is scrubbed (the rest is the node's own), before any is cut.
		const { serviceMessage, fieldErrors, redirectHost: host } = failure;
		const said = scrubDeep({ serviceMessage, fieldErrors, redirectHost: host }, secrets);
		throw toServiceError(ctx, { ...failure, ...said }, endpoint.api);
	}
	const answer = await readAnswer(sent.answer.body, sent.answer.headers, deadline);
	if ('failure' in answer)
		throw toServiceError(ctx, { kind: 'unclear', networkCode: answer.failure }, endpoint.api);
	const body = safeJson(answer.text);
	const envelope = envelopeSchema.safeParse(body);
	if (!envelope.success || typeof body !== 'object') {
		// A 2xx whose body is not the envelope: the call may have worked; treat it as unclear.
		throw toServiceError(ctx, { kind: 'unclear', networkCode: 'MALFORMED_RESPONSE' }, endpoint.api);
	}
	// Whatever the service echoes back (the token, the password) never reaches an output.
	const { message, data } = scrubDeep(envelope.data, secrets);
	return { message: message ?? '', data };
}

export function toServiceError(
	ctx: ServiceContext,
	failure: ServiceFailure,
	api: ApiInterface,
): ServiceError {
	const { message, description } =
		failure.networkCode === 'MALFORMED_RESPONSE'
			? {
					message: 'The service answered with a body that is not valid JSON',
					description: undefined,
				}
			: describeFailure(failure, api);
	return new ServiceError(ctx.getNode(), failure, message, description);
}
