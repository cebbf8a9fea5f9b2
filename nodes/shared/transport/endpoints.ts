/**
 * The one table of the service's paths. `source` tells where each path comes from, so users (and
 * the README) can see which are guesses: `documented` (the interface document), `public` (public
 * integrations, PUBLIC-FACTS.md) or `assumed` (neither shows it; override it per node with the
 * "Endpoint Path" option).
 */
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
	collectionToken: { api: 'collection', method: 'POST', path: '/v1/biller/token/create', source: 'documented' },
	generateTransaction: { api: 'collection', method: 'POST', path: '/v1/biller/transactions/generate', source: 'documented' },
	getCollectionTransactions: { api: 'collection', method: 'GET', path: '/v1/biller/transactions', source: 'documented' },
	getChannels: { api: 'collection', method: 'GET', path: '/v1/biller/channels', source: 'public' },
	calculateFee: { api: 'collection', method: 'GET', path: '/v1/biller/channels/calculate', source: 'public' },

	disbursementToken: { api: 'disbursement', method: 'POST', path: '/v1/auth/token', source: 'documented' },
	getPayouts: { api: 'disbursement', method: 'GET', path: '/v1/api/disbursement/transactions', source: 'documented' },
	createPayout: { api: 'disbursement', method: 'POST', path: '/v1/api/disbursement/transactions/process', source: 'assumed', overridable: true },
	repostPayout: { api: 'disbursement', method: 'POST', path: '/v1/api/disbursement/transactions/repost', source: 'documented' },
	getAuthorization: { api: 'disbursement', method: 'POST', path: '/v1/api/authorization/:code', source: 'documented' },
	getWallets: { api: 'disbursement', method: 'GET', path: '/v1/api/wallets', source: 'assumed', overridable: true },
	getWalletTransactions: { api: 'disbursement', method: 'GET', path: '/v1/api/wallets/transactions', source: 'assumed', overridable: true },
	getBanks: { api: 'disbursement', method: 'GET', path: '/v1/api/banks', source: 'assumed', overridable: true },
	getPayoutChannels: { api: 'disbursement', method: 'GET', path: '/v1/api/disbursement/channels', source: 'assumed' },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** Fills `:name` placeholders, encoding each value so a code can never change the path. */
export function resolvePath(path: string, params: Record<string, string> = {}): string {
	return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === '') throw new Error(`Missing path parameter "${name}"`);
		return encodeURIComponent(value);
	});
}
