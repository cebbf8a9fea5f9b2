// The benchmark's workload and the workflows that carry it: the Disbursement node (fields mapped
// with expressions, or Map Input Columns Automatically), and what a user would build without this
// package (n8n's HTTP Request node after a token request); and Payout > Reconcile of the same rows.
export const PAYOUT_PATH = '/v1/api/disbursement/transactions/process';
const TOKEN_PATH = '/v1/auth/token';
const DISBURSEMENT_TYPE = 'n8n-nodes-payment-gateway.disbursement';
export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
export const LOOP_TYPE = 'n8n-nodes-base.splitInBatches';
const ITEMS_TYPE = 'harness.items';
const TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';

export interface BenchNode {
	name: string;
	type: string;
	typeVersion?: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, unknown>;
}

export interface BenchWorkflow {
	/** The node whose output items must all be created payouts (with `reconciles`: rows found as sent). */
	payoutNode: string;
	/** Set when that node reconciles: every row found pending with nothing mismatched, then a summary item. */
	reconciles?: boolean;
	nodes: BenchNode[];
	connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: string; index: number }>> }
	>;
	/** Set when the workflow's payout node uses this package's credential. */
	credentialType?: string;
}

export interface RouteSettings {
	concurrency: number;
	url: string;
	credentials: { username: string; password: string };
}

export interface PayoutRow {
	referenceNo: string;
	amount: number;
	mobileNumber: string;
}

/** N e-wallet payouts, as rows of a spreadsheet would give them. */
export function payoutItems(count: number, tag: string): PayoutRow[] {
	return Array.from({ length: count }, (_, i) => ({
		referenceNo: `BENCH-${tag}-${String(i + 1).padStart(6, '0')}`,
		amount: 100 + (i % 50),
		mobileNumber: `0917${String(1000000 + i).slice(-7)}`,
	}));
}

const link = (node: string, index = 0) => ({ node, type: 'main', index });

/** The three fields of every row, mapped with an expression each (the manual mapping). */
const MAPPED_FIELDS = {
	amount: '={{ $json.amount }}',
	referenceNo: '={{ $json.referenceNo }}',
	mobileNumber: '={{ $json.mobileNumber }}',
};

/** Manual Trigger -> Items -> the Disbursement node named `name` with these parameters. */
function disbursementNodeWorkflow(
	name: string,
	parameters: Record<string, unknown>,
): BenchWorkflow {
	return {
		payoutNode: name,
		nodes: [
			{ name: 'Trigger', type: TRIGGER_TYPE, parameters: {} },
			{ name: 'Items', type: ITEMS_TYPE, parameters: {} },
			// Version 1: the version docs/benchmarks.md measured; it maps manually unless told otherwise.
			{ name, type: DISBURSEMENT_TYPE, typeVersion: 1, parameters },
		],
		connections: {
			Trigger: { main: [[link('Items')]] },
			Items: { main: [[link(name)]] },
		},
		credentialType: 'disbursementApi',
	};
}

/** Payout > Create (e-wallet, GCASH), mapped one way or the other. */
function disbursementWorkflow(
	concurrency: number,
	mapping: Record<string, unknown>,
): BenchWorkflow {
	return disbursementNodeWorkflow('Create Payouts', {
		resource: 'payout',
		operation: 'create',
		channelType: 'eWallet',
		channel: 'GCASH',
		...mapping,
		callbackWebhookUrl: '',
		options: { concurrency },
	});
}

function nodeWorkflow({ concurrency }: RouteSettings): BenchWorkflow {
	return disbursementWorkflow(concurrency, MAPPED_FIELDS);
}

/** The rows' columns (referenceNo, amount, mobileNumber) read as they are: no expression at all. */
function nodeAutoWorkflow({ concurrency }: RouteSettings): BenchWorkflow {
	return disbursementWorkflow(concurrency, { mappingMode: 'autoMapInputData' });
}

/**
 * Payout > Reconcile of the rows the sandbox already holds as payouts (route `seeded`): one look-up
 * per row, the amount, channel and mobile number compared; fields mapped as for `node`.
 */
function reconcileWorkflow({ concurrency }: RouteSettings): BenchWorkflow {
	return {
		...disbursementNodeWorkflow('Reconcile Payouts', {
			resource: 'payout',
			operation: 'reconcile',
			...MAPPED_FIELDS,
			channel: 'GCASH',
			options: { concurrency },
		}),
		reconciles: true,
	};
}

/** A POST with a JSON body through n8n's HTTP Request node, as a user adds it. */
function httpPostNode(name: string, parameters: Record<string, unknown>): BenchNode {
	return {
		name,
		type: HTTP_REQUEST_TYPE,
		typeVersion: 4.4, // what n8n 2.8.4 adds today
		parameters: { method: 'POST', sendBody: true, specifyBody: 'json', ...parameters },
	};
}

function tokenNode(url: string, credentials: RouteSettings['credentials']): BenchNode {
	return httpPostNode('Get Token', {
		url: `${url}${TOKEN_PATH}`,
		jsonBody: JSON.stringify({ username: credentials.username, password: credentials.password }),
		options: {},
	});
}

function payoutRequestNode(url: string, options: Record<string, unknown>): BenchNode {
	return httpPostNode('Send Payout', {
		url: `${url}${PAYOUT_PATH}`,
		sendHeaders: true,
		specifyHeaders: 'keypair',
		headerParameters: {
			parameters: [
				{ name: 'Authorization', value: "=Bearer {{ $('Get Token').first().json.data.token }}" },
			],
		},
		jsonBody:
			'={"channel": "GCASH", "amount": {{ $json.amount }}, "reference_no": "{{ $json.referenceNo }}", "fields": {"mobile_number": "{{ $json.mobileNumber }}"}}',
		options,
	});
}

/** Trigger -> Get Token -> Items -> `rest`: what every HTTP Request route starts with. */
function afterToken(
	{ url, credentials }: RouteSettings,
	rest: BenchNode[],
	connections: BenchWorkflow['connections'],
): BenchWorkflow {
	return {
		payoutNode: 'Send Payout',
		nodes: [
			{ name: 'Trigger', type: TRIGGER_TYPE, parameters: {} },
			tokenNode(url, credentials),
			{ name: 'Items', type: ITEMS_TYPE, parameters: {} },
			...rest,
		],
		connections: {
			Trigger: { main: [[link('Get Token')]] },
			'Get Token': { main: [[link('Items')]] },
			...connections,
		},
	};
}

/**
 * Trigger -> Get Token -> Items -> Send Payout, with the HTTP Request node's own batching:
 * items per batch = the concurrency budget, batch interval 0 (as the benchmark issue asks).
 */
function httpBatchingWorkflow(settings: RouteSettings): BenchWorkflow {
	const batching = { batch: { batchSize: settings.concurrency, batchInterval: 0 } };
	return afterToken(settings, [payoutRequestNode(settings.url, { batching })], {
		Items: { main: [[link('Send Payout')]] },
	});
}

/**
 * Trigger -> Get Token -> Items -> Loop Over Items (batch size = the budget) -> Send Payout ->
 * back to the loop: the way n8n's documentation bounds how many requests are out at once.
 */
function httpLoopWorkflow(settings: RouteSettings): BenchWorkflow {
	const loop: BenchNode = {
		name: 'Loop Over Items',
		type: LOOP_TYPE,
		typeVersion: 3,
		parameters: { batchSize: settings.concurrency, options: {} },
	};
	return afterToken(settings, [loop, payoutRequestNode(settings.url, {})], {
		Items: { main: [[link('Loop Over Items')]] },
		// Output 0 is "done", output 1 "loop".
		'Loop Over Items': { main: [[], [link('Send Payout')]] },
		'Send Payout': { main: [[link('Loop Over Items')]] },
	});
}

export const ROUTES: Record<
	string,
	{
		label: string;
		build: (settings: RouteSettings) => BenchWorkflow;
		/** The sandbox holds the run's N rows as payouts before it starts (created off the clock). */
		seeded?: boolean;
	}
> = {
	node: { label: 'Disbursement node', build: nodeWorkflow },
	nodeAuto: { label: 'Disbursement node, columns mapped automatically', build: nodeAutoWorkflow },
	httpBatching: {
		label: 'HTTP Request, batching (c per batch, interval 0)',
		build: httpBatchingWorkflow,
	},
	httpLoop: { label: 'HTTP Request in Loop Over Items (c per batch)', build: httpLoopWorkflow },
	reconcile: {
		label: 'Disbursement node, Payout > Reconcile',
		build: reconcileWorkflow,
		seeded: true,
	},
};
