/**
 * Turns any failure of a request to the service into an error that says what to fix, and
 * classifies it for the money-safe retry logic. Nothing from the request (its headers carry the
 * bearer token) is ever copied into the error: only the status, the service's message and field
 * errors.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { ApplicationError, NodeApiError } from 'n8n-workflow';

import { envelopeSchema } from '../validation/schemas';
import { INTERFACE_LABEL, type ApiInterface } from './endpoints';
import { ANSWER_TOO_LARGE, MAX_ANSWER_TEXT } from './limits';
import { describeNetworkCode } from './networkCodes';
import { WITHHELD, WITHHELD_REASON } from './secrets';

/**
 * The credential's token step failed, so the request was never sent. n8n wraps what
 * `preAuthentication` throws in a NodeApiError that keeps the message and `httpCode` but drops the
 * error itself, so the mark travels as the httpCode: TOKEN_STEP_FAILED for a failure that may
 * pass (the token endpoint answered 5xx or not at all), CREDENTIAL_UNUSABLE for one that every
 * later request would meet again (refused, incomplete, an unusable Base URL or token).
 */
export const TOKEN_STEP_FAILED = 'TOKEN_STEP_FAILED';
export const CREDENTIAL_UNUSABLE = 'CREDENTIAL_UNUSABLE';

export class TokenStepError extends ApplicationError {
	constructor(
		message: string,
		readonly httpCode: typeof TOKEN_STEP_FAILED | typeof CREDENTIAL_UNUSABLE = CREDENTIAL_UNUSABLE,
	) {
		super(message);
	}
}

/** What n8n 2.x's opt-in Engine 2.0 throws for every credential with an expirable field. */
const ENGINE_V2_REFUSAL = /Engine 2\.0 does not support credentials with an expirable/i;
const ENGINE_V2_MESSAGE =
	"n8n's Engine 2.0 does not support credentials with an expiring token yet, and both Payment Gateway credentials use one: run this workflow on engine v1 (set the workflow's engine back to v1), where the token is fetched and stored as usual";

/**
 * - `rejected`: the service answered with a definite 4xx; nothing was done.
 * - `unclear`: a time-out, a dropped connection, a 5xx or an unreadable body: the request may or
 *   may not have been carried out.
 */
export type FailureKind = 'rejected' | 'unclear';

export interface ServiceFailure {
	kind: FailureKind;
	status?: number;
	/** The service's own message, when it sent one. */
	serviceMessage?: string;
	/** 422 field errors, keyed by the service's field name. */
	fieldErrors?: Record<string, string[]>;
	/** Network error code (ECONNRESET, ETIMEDOUT...) when no response arrived. */
	networkCode?: string;
	/** The credential's token step failed (its message): the request itself was never sent. */
	tokenFailure?: string;
	/** The credential cannot work as it is: every later request would fail the same way. */
	credentialUnusable?: boolean;
	/** For a 3xx: the host its `location` points to (nothing is sent there). */
	redirectHost?: string;
	/** Set on a 404 when the credential's Base URL holds a path (see url.ts `baseUrlPathHint`). */
	baseUrlHint?: string;
}

/**
 * Failures after which no further item may be sent: the token step failed (refused, unreachable,
 * past its deadline, a 5xx, a redirect or an unusable token), or the service refused a freshly
 * fetched token. With continue-on-fail every later item would otherwise ask the token endpoint
 * again, each wave waiting out the same failure.
 */
export function stopsTheRun(failure: ServiceFailure): boolean {
	return (
		failure.tokenFailure !== undefined ||
		failure.credentialUnusable === true ||
		failure.status === 401
	);
}

/** Thrown by the transport; carries the classification so callers can decide to look up or retry. */
export class ServiceError extends NodeApiError {
	readonly failure: ServiceFailure;

	constructor(node: INode, failure: ServiceFailure, message: string, description?: string) {
		const httpCode = failure.status ? String(failure.status) : undefined;
		// The error response given to NodeApiError is built from safe fields only.
		const safeResponse: JsonObject = { message, ...(httpCode ? { httpCode } : {}) };
		if (failure.fieldErrors) safeResponse.errors = failure.fieldErrors;
		super(node, safeResponse, { message, description, httpCode });
		// NodeApiError swaps a message naming a network code (ECONNRESET...) for a generic one.
		this.message = message;
		this.failure = failure;
	}
}

/**
 * Reads status, body and network code from what n8n's request helpers throw. Whatever is thrown
 * (even undefined or null) is classified: without a status it is unclear.
 */
export function classifyFailure(error: unknown): ServiceFailure {
	const outer = (error ?? {}) as {
		message?: unknown;
		httpCode?: string | null;
		cause?: unknown;
		context?: { data?: unknown };
		code?: string;
		response?: { status?: number; data?: unknown };
	};
	const inner = (outer.cause ?? {}) as {
		code?: string;
		response?: { status?: number; data?: unknown };
	};
	const status =
		inner.response?.status ??
		outer.response?.status ??
		(outer.httpCode && /^\d{3}$/.test(outer.httpCode) ? Number(outer.httpCode) : undefined);
	const body = inner.response?.data ?? outer.response?.data ?? outer.context?.data;
	const envelope = envelopeSchema.safeParse(typeof body === 'string' ? safeJson(body) : body);
	const serviceMessage = envelope.success ? envelope.data.message || undefined : undefined;
	const fieldErrors = envelope.success ? envelope.data.errors : undefined;
	if (status === undefined) {
		const message = typeof outer.message === 'string' ? outer.message : '';
		if (outer.httpCode === TOKEN_STEP_FAILED) return { kind: 'rejected', tokenFailure: message };
		if (outer.httpCode === CREDENTIAL_UNUSABLE)
			return { kind: 'rejected', tokenFailure: message, credentialUnusable: true };
		if (ENGINE_V2_REFUSAL.test(message)) {
			return { kind: 'rejected', tokenFailure: ENGINE_V2_MESSAGE, credentialUnusable: true };
		}
		// n8n's NodeApiError drops the cause but files a network code (ECONNRESET...) as httpCode.
		const wrappedCode =
			outer.httpCode && !/^\d{3}$/.test(outer.httpCode) ? outer.httpCode : undefined;
		return {
			kind: 'unclear',
			networkCode: inner.code ?? outer.code ?? wrappedCode ?? 'NO_RESPONSE',
		};
	}
	return {
		kind: status >= 500 ? 'unclear' : 'rejected',
		status,
		serviceMessage,
		fieldErrors,
	};
}

/** The JSON a text holds, or undefined. */
export function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * How a message quotes the service's text, scrubbed (secrets.ts `scrubText`): `the service said:
 * "..."`, or why it is left out.
 */
export function serviceSaid(scrubbed: string): string {
	return scrubbed === WITHHELD ? WITHHELD_REASON : `the service said: "${scrubbed}"`;
}

/** The message a user reads in the editor: what happened and what to do about it. */
export function describeFailure(
	failure: ServiceFailure,
	api: ApiInterface,
): { message: string; description?: string } {
	const label = INTERFACE_LABEL[api];
	const said = failure.serviceMessage ? ` ${capitalised(serviceSaid(failure.serviceMessage))}` : '';
	if (failure.tokenFailure) return { message: failure.tokenFailure };
	if (failure.status === 401) {
		return {
			message: `The ${label} credential was refused even after fetching a new token: check its Username, Password and Base URL`,
			description: `HTTP 401.${said}`,
		};
	}
	if (failure.status === 422 && failure.fieldErrors) {
		const lines = Object.entries(failure.fieldErrors).map(
			([field, messages]) => `${field}: ${messages.join(' ')}`,
		);
		return {
			message: `The service rejected the request: ${lines.join('; ')}`,
			description: lines.join('\n'),
		};
	}
	if (failure.status === 404 && failure.baseUrlHint) {
		return { message: `Not found (HTTP 404): ${failure.baseUrlHint}.${said}` };
	}
	if (failure.status === 404) {
		return {
			message: `Not found (HTTP 404).${said || ' Check the Endpoint Path option if this operation uses an assumed path.'}`,
		};
	}
	if (failure.status && failure.status >= 300 && failure.status < 400) {
		return {
			message: `The ${label} service redirected the request (HTTP ${failure.status}${failure.redirectHost ? ` to ${failure.redirectHost}` : ''}) instead of answering it: check the Base URL in the credential (https, host and no extra path)`,
			description:
				'Redirects are not followed, so a payment request is never sent a second time or to another address.',
		};
	}
	if (failure.status === 429) {
		return {
			message: `The service is rate-limiting this operation (HTTP 429): wait a little and try again.${said}`,
		};
	}
	if (failure.status) {
		return { message: `The ${label} service answered HTTP ${failure.status}.${said}` };
	}
	const code = failure.networkCode ?? 'NO_RESPONSE';
	if (code === ANSWER_TOO_LARGE) {
		return {
			message: `The ${label} service's answer was larger than ${MAX_ANSWER_TEXT}, the most this node reads, so it was not read: check the Base URL points at the service`,
			description: `Network error code: ${code}`,
		};
	}
	return {
		message: `No answer from the ${label} service (${describeNetworkCode(code)}): check the Base URL and your network, or raise the Timeout option`,
		description: `Network error code: ${code}`,
	};
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
