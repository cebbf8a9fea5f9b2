/**
 * Turns any failure of a request to the service into an error that says what to fix, and
 * classifies it for the money-safe retry logic. Nothing from the request (its headers carry the
 * bearer token) is ever copied into the error: only the status, the service's message and field
 * errors.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { envelopeSchema } from './schemas';
import { describeNetworkCode } from './networkCodes';
import { isTokenFailureMessage } from './token';

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

/** Reads status, body and network code from what n8n's request helpers throw. */
export function classifyFailure(error: unknown): ServiceFailure {
	const outer = error as {
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
		const message = (error as { message?: unknown } | undefined)?.message;
		if (isTokenFailureMessage(message)) return { kind: 'rejected', tokenFailure: message };
		// n8n's NodeApiError drops the cause but files a network code (ECONNRESET...) as httpCode.
		const wrappedCode = outer.httpCode && !/^\d{3}$/.test(outer.httpCode) ? outer.httpCode : undefined;
		return { kind: 'unclear', networkCode: inner.code ?? outer.code ?? wrappedCode ?? 'NO_RESPONSE' };
	}
	return {
		kind: status >= 500 ? 'unclear' : 'rejected',
		status,
		serviceMessage,
		fieldErrors,
	};
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

const API_LABEL = { collection: 'Payment Collection', disbursement: 'Disbursement' } as const;

/** The message a user reads in the editor: what happened and what to do about it. */
export function describeFailure(
	failure: ServiceFailure,
	api: keyof typeof API_LABEL,
): { message: string; description?: string } {
	const label = API_LABEL[api];
	const said = failure.serviceMessage ? ` The service said: "${failure.serviceMessage}"` : '';
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
	if (failure.status === 404) {
		return {
			message: `Not found (HTTP 404).${said || ' Check the Endpoint Path option if this operation uses an assumed path.'}`,
		};
	}
	if (failure.status && failure.status >= 300 && failure.status < 400) {
		return {
			message: `The ${label} service redirected the request (HTTP ${failure.status}) instead of answering it: check the Base URL in the credential (https, host and no extra path)`,
			description: 'Redirects are not followed, so a payment request is never sent a second time or to another address.',
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
	return {
		message: `No answer from the ${label} service (${describeNetworkCode(code)}): check the Base URL and your network, or raise the Timeout option`,
		description: `Network error code: ${code}`,
	};
}

