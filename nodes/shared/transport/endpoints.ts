/**
 * The service as the nodes see it: the one table of its paths, what a request to it names and
 * what comes back. No HTTP here (transport.ts sends), so operations can describe requests
 * without reaching for the transport.
 *
 * The path table: `source` tells where each path comes from, so users (and
 * docs/endpoints.md) can see which are guesses: `documented` (the interface document), `public` (public
 * integrations) or `assumed` (neither shows it; override it per node with the
 * "Endpoint Path" option).
 */
import type { IDataObject } from 'n8n-workflow';

export type ApiInterface = 'collection' | 'disbursement';
/** The interface's name as users read it in the editor and the interface document. */
export const INTERFACE_LABEL: Record<ApiInterface, string> = {
	collection: 'Payment Collection',
	disbursement: 'Disbursement',
};

export type EndpointSource = 'documented' | 'public' | 'assumed';

export interface Endpoint {
	api: ApiInterface;
	method: 'GET' | 'POST';
	/** May hold `:name` placeholders filled from path parameters. */
	path: string;
	source: EndpointSource;
	/** True when a wrong guess matters enough that the node offers a path override. */
	overridable?: boolean;
}

export const ENDPOINTS = {
	collectionToken: {
		api: 'collection',
		method: 'POST',
		path: '/v1/biller/token/create',
		source: 'documented',
	},
	generateTransaction: {
		api: 'collection',
		method: 'POST',
		path: '/v1/biller/transactions/generate',
		source: 'documented',
	},
	getCollectionTransactions: {
		api: 'collection',
		method: 'GET',
		path: '/v1/biller/transactions',
		source: 'documented',
	},
	getChannels: { api: 'collection', method: 'GET', path: '/v1/biller/channels', source: 'public' },
	calculateFee: {
		api: 'collection',
		method: 'GET',
		path: '/v1/biller/channels/calculate',
		source: 'public',
	},

	disbursementToken: {
		api: 'disbursement',
		method: 'POST',
		path: '/v1/auth/token',
		source: 'documented',
	},
	getPayouts: {
		api: 'disbursement',
		method: 'GET',
		path: '/v1/api/disbursement/transactions',
		source: 'documented',
	},
	createPayout: {
		api: 'disbursement',
		method: 'POST',
		path: '/v1/api/disbursement/transactions/process',
		source: 'assumed',
		overridable: true,
	},
	repostPayout: {
		api: 'disbursement',
		method: 'POST',
		path: '/v1/api/disbursement/transactions/repost',
		source: 'documented',
	},
	getAuthorization: {
		api: 'disbursement',
		method: 'POST',
		path: '/v1/api/authorization/:code',
		source: 'documented',
	},
	getWallets: {
		api: 'disbursement',
		method: 'GET',
		path: '/v1/api/wallets',
		source: 'assumed',
		overridable: true,
	},
	getWalletTransactions: {
		api: 'disbursement',
		method: 'GET',
		path: '/v1/api/wallets/transactions',
		source: 'assumed',
		overridable: true,
	},
	getBanks: {
		api: 'disbursement',
		method: 'GET',
		path: '/v1/api/banks',
		source: 'assumed',
		overridable: true,
	},
	getPayoutChannels: {
		api: 'disbursement',
		method: 'GET',
		path: '/v1/api/disbursement/channels',
		source: 'assumed',
	},
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

export const DEFAULT_TIMEOUT_MS = 30_000;

/** One request to the service, by endpoint name. */
export interface ServiceRequest {
	endpoint: EndpointName;
	/** A user's replacement for an assumed path (the "Endpoint Path" option). */
	pathOverride?: string;
	pathParams?: Record<string, string>;
	query?: IDataObject;
	body?: IDataObject;
	timeoutMs?: number;
}

/** The service's answer, out of its envelope. */
export interface ServiceResponse {
	message: string;
	data: unknown;
}

/** Sends one request through the transport; handed to code that must not depend on it. */
export type CallService = (request: ServiceRequest) => Promise<ServiceResponse>;

/** C0 and C1 control characters and DEL: tab, CR and LF among them. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

/** The text as the service may read it, percent-escapes decoded (the text itself when they are broken). */
function decoded(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** What would make a path parameter leave its place in the path, or undefined: it stays one segment. */
export function pathParameterProblem(value: string): string | undefined {
	const text = decoded(value);
	if (CONTROL_CHARACTERS.test(text)) return 'contains a control character or a line break';
	if (/[/\\]/.test(text)) return 'contains "/" or "\\" (also written %2F or %5C)';
	if (text === '.' || text === '..')
		return 'is "." or "..", which would send the request to another path';
	return undefined;
}

/** What is wrong with an Endpoint Path typed by a user, or undefined: it must stay a path on the service. */
export function endpointPathProblem(path: string): string | undefined {
	if (CONTROL_CHARACTERS.test(decoded(path))) return 'contains a control character or a line break';
	if (!path.startsWith('/') || path.startsWith('//'))
		return 'must start with a single "/": it is a path on the service, not an address';
	if (/[\\?#]/.test(path) || path.includes('//'))
		return 'contains "\\", "//", a query or a fragment';
	if (
		decoded(path)
			.split('/')
			.some((part) => part === '.' || part === '..')
	)
		return 'has a "." or ".." part, which would leave the path';
	return undefined;
}

export const ENDPOINT_PATH_FIX =
	'Give a path on the service such as /v1/api/payouts: it starts with "/", and has no "." or ".." part, "//", scheme, host, query, "\\" or control characters';

/** Fills `:name` placeholders, encoding each value so a code can never change the path. */
export function resolvePath(path: string, params: Record<string, string> = {}): string {
	return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === '') throw new Error(`Missing path parameter "${name}"`);
		const problem = pathParameterProblem(value);
		if (problem)
			throw new Error(
				`Path parameter "${name}" ${problem}: nothing was sent; give the value the service issued`,
			);
		return encodeURIComponent(value);
	});
}
