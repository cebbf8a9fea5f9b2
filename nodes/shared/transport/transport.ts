/**
 * The only place that talks HTTP to the service. Every node operation goes through
 * `callService`: it picks the credential of the endpoint's interface (so a token never crosses
 * interfaces), sends through n8n's `httpRequestWithAuthentication` (which fetches a token when
 * none is stored and once more after a 401, and never resends after other errors), unwraps the
 * envelope and maps failures to errors that say what to fix.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
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
import { ServiceError, classifyFailure, describeFailure, type ServiceFailure } from './errors';
import { envelopeSchema } from '../validation/schemas';
import { scrubDeep, secretsOf } from './secrets';
import { baseUrlProblem, joinUrl } from './url';

export type ServiceContext = IExecuteFunctions | ILoadOptionsFunctions | IWebhookFunctions;

export const CREDENTIAL_TYPE: Record<ApiInterface, string> = {
	collection: 'paymentCollectionApi',
	disbursement: 'disbursementApi',
};

/** What reads a credential: also the trigger's activation hooks, which send no request. */
type CredentialContext = ServiceContext | IHookFunctions;

// One credential read per execution context: n8n decrypts on every getCredentials call.
const credentialCache = new WeakMap<object, Map<ApiInterface, Promise<ReadCredential>>>();

/** A decrypted credential with the reference n8n needs to use it for a request. */
interface ReadCredential extends ICredentialsDecrypted {
	data: ICredentialDataDecryptedObject;
}

function readCredential(ctx: CredentialContext, api: ApiInterface): Promise<ReadCredential> {
	let perContext = credentialCache.get(ctx);
	if (!perContext) {
		perContext = new Map();
		credentialCache.set(ctx, perContext);
	}
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
	ctx: CredentialContext,
	api: ApiInterface,
): Promise<ICredentialDataDecryptedObject> {
	return (await readCredential(ctx, api)).data;
}

export async function callService(
	ctx: ServiceContext,
	request: ServiceRequest,
): Promise<ServiceResponse> {
	const endpoint = ENDPOINTS[request.endpoint];
	const read = await outcomeOf(readCredential(ctx, endpoint.api));
	if ('failure' in read) {
		// n8n may refuse the credential before any request (Engine 2.0 does so for expirable ones).
		const failure = classifyFailure(read.failure);
		throw failure.tokenFailure === undefined ? read.failure : toServiceError(ctx, failure, endpoint.api);
	}
	const credential = read.answer;
	const credentials = credential.data;
	const baseUrl = String(credentials.baseUrl ?? '');
	const urlProblem = baseUrlProblem(baseUrl);
	if (urlProblem) {
		const label = INTERFACE_LABEL[endpoint.api];
		const tokenFailure = `The ${label} credential's Base URL ${urlProblem}`;
		throw toServiceError(ctx, { kind: 'rejected', tokenFailure, credentialUnusable: true }, endpoint.api);
	}
	const override = request.pathOverride?.trim();
	const overrideProblem = override ? endpointPathProblem(override) : undefined;
	if (overrideProblem) throw new NodeOperationError(ctx.getNode(), `Endpoint Path ${overrideProblem}`, { description: ENDPOINT_PATH_FIX });
	const path = resolvePath(override || endpoint.path, request.pathParams);
	const options: IHttpRequestOptions = {
		method: endpoint.method as IHttpRequestMethods,
		url: joinUrl(baseUrl, path),
		headers: { Accept: 'application/json' },
		json: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		// A redirected POST would be re-sent as a GET elsewhere: a redirect is reported instead.
		disableFollowRedirect: true,
	};
	if (request.query) options.qs = request.query;
	if (request.body) options.body = request.body;

	// Handing n8n the credential read once per run spares a decryption per request. Each request
	// gets its own copy, so the token step can tell which token the request carried (see token.ts).
	const tokenSent = credentials.sessionToken;
	const forRequest = { ...credentials };
	let body: unknown;
	try {
		body = await ctx.helpers.httpRequestWithAuthentication.call(ctx, credential.type, options, {
			credentialsDecrypted: { ...credential, data: forRequest },
		});
	} catch (error) {
		const secrets = secretsOf(credentials, forRequest.sessionToken, tokenSent);
		throw toServiceError(ctx, scrubDeep(classifyFailure(error), secrets), endpoint.api);
	} finally {
		// A token fetched for this request (none stored yet, or a 401) serves the later ones too.
		if (forRequest.sessionToken !== tokenSent && credentials.sessionToken === tokenSent) {
			credentials.sessionToken = forRequest.sessionToken;
		}
	}
	const envelope = envelopeSchema.safeParse(body);
	if (!envelope.success || typeof body !== 'object') {
		// A 2xx whose body is not the envelope: the call may have worked; treat it as unclear.
		throw toServiceError(ctx, { kind: 'unclear', networkCode: 'MALFORMED_RESPONSE' }, endpoint.api);
	}
	// Whatever the service echoes back (the token, the password) never reaches an output.
	const { message, data } = scrubDeep(envelope.data, secretsOf(credentials, forRequest.sessionToken, tokenSent));
	return { message: message ?? '', data };
}

export function toServiceError(
	ctx: ServiceContext,
	failure: ServiceFailure,
	api: ApiInterface,
): ServiceError {
	const { message, description } =
		failure.networkCode === 'MALFORMED_RESPONSE'
			? { message: 'The service answered with a body that is not valid JSON', description: undefined }
			: describeFailure(failure, api);
	return new ServiceError(ctx.getNode(), failure, message, description);
}

/**
 * A request's answer or its failure as a value, so callers decide what to throw outside a catch
 * block (n8n's lint wants every throw inside one to be a new NodeApiError or NodeOperationError).
 */
export async function outcomeOf<T>(pending: Promise<T>): Promise<{ answer: T } | { failure: unknown }> {
	return await pending.then(
		(answer) => ({ answer }),
		(failure: unknown) => ({ failure }),
	);
}
