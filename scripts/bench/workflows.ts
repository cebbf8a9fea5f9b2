// The benchmark's workload and the workflows that carry it: the Disbursement node (fields mapped
// with expressions, or Map Input Columns Automatically), Payout > Reconcile of the same rows, and
// what a user would build without this package (n8n's HTTP Request node after a token request).
import type { IConnection, IConnections, INodeParameters } from 'n8n-workflow';

import type { WorkflowNode } from '../../test/harness/engine';

export const PAYOUT_PATH = '/v1/api/disbursement/transactions/process';
export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
export const LOOP_TYPE = 'n8n-nodes-base.splitInBatches';
const DISBURSEMENT_TYPE = 'n8n-nodes-payment-gateway.disbursement';

type BenchNode = WorkflowNode;

export interface BenchWorkflow {
	/** The node whose output items must all be created payouts (with `reconciles`: rows found as sent). */
	payoutNode: string;
	/** That node reconciles: every row found pending with nothing mismatched, then a summary item. */
	reconciles?: boolean;
	nodes: BenchNode[];
	connections: IConnections;
	/** Set when the payout node uses this package's credential. */
	credentialType?: string;
}

interface RouteSettings {
	concurrency: number;
	url: string;
	credentials: { username: string; password: string };
}

/** N e-wallet payouts, as rows of a spreadsheet would give them. */
export function payoutItems(count: number, tag: string) {
	return Array.from({ length: count }, (_, i) => ({
		referenceNo: `BENCH-${tag}-${String(i + 1).padStart(6, '0')}`,
		amount: 100 + (i % 50),
		mobileNumber: `0917${String(1000000 + i).slice(-7)}`,
	}));
}

const link = (node: string): IConnection => ({ node, type: 'main', index: 0 });
const TRIGGER: BenchNode = {
	name: 'Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	parameters: {},
};
const ITEMS: BenchNode = { name: 'Items', type: 'harness.items', parameters: {} };

/** The three fields of every row, mapped with an expression each (the manual mapping). */
const MAPPED_FIELDS = {
	amount: '={{ $json.amount }}',
	referenceNo: '={{ $json.referenceNo }}',
	mobileNumber: '={{ $json.mobileNumber }}',
};

/** Manual Trigger -> Items -> the Disbursement node named `name` with these parameters. */
function disbursementWorkflow(name: string, parameters: INodeParameters): BenchWorkflow {
	return {
		payoutNode: name,
		nodes: [
			TRIGGER,
			ITEMS,
			// Version 1: the version docs/benchmarks.md measured; it maps manually unless told otherwise.
			{ name, type: DISBURSEMENT_TYPE, typeVersion: 1, parameters },
		],
		connections: { Trigger: { main: [[link('Items')]] }, Items: { main: [[link(name)]] } },
		credentialType: 'disbursementApi',
	};
}

/** Payout > Create (e-wallet, GCASH), its fields mapped one way or the other. */
const createPayouts = (concurrency: number, mapping: INodeParameters) =>
	disbursementWorkflow('Create Payouts', {
		resource: 'payout',
		operation: 'create',
		channelType: 'eWallet',
		channel: 'GCASH',
		...mapping,
		callbackWebhookUrl: '',
		options: { concurrency },
	});

/** A POST with a JSON body through n8n's HTTP Request node, as a user adds it. */
function httpPostNode(name: string, parameters: INodeParameters): BenchNode {
	return {
		name,
		type: HTTP_REQUEST_TYPE,
		typeVersion: 4.4, // what n8n 2.8.4 adds today
		parameters: { method: 'POST', sendBody: true, specifyBody: 'json', ...parameters },
	};
}

function payoutRequestNode(url: string, options: INodeParameters): BenchNode {
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
	{ url, credentials: { username, password } }: RouteSettings,
	rest: BenchNode[],
	connections: BenchWorkflow['connections'],
): BenchWorkflow {
	const token = httpPostNode('Get Token', {
		url: `${url}/v1/auth/token`,
		jsonBody: JSON.stringify({ username, password }),
		options: {},
	});
	return {
		payoutNode: 'Send Payout',
		nodes: [TRIGGER, token, ITEMS, ...rest],
		connections: {
			Trigger: { main: [[link('Get Token')]] },
			'Get Token': { main: [[link('Items')]] },
			...connections,
		},
	};
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
	node: {
		label: 'Disbursement node',
		build: ({ concurrency }) => createPayouts(concurrency, MAPPED_FIELDS),
	},
	nodeAuto: {
		label: 'Disbursement node, columns mapped automatically',
		// The rows' columns (referenceNo, amount, mobileNumber) read as they are: no expression at all.
		build: ({ concurrency }) => createPayouts(concurrency, { mappingMode: 'autoMapInputData' }),
	},
	httpLoop: {
		label: 'HTTP Request in Loop Over Items',
		// Loop Over Items (batch size = the budget) -> Send Payout -> back to the loop: the way
		// n8n's documentation bounds how many requests are out at once.
		build: (settings) =>
			afterToken(
				settings,
				[
					{
						name: 'Loop Over Items',
						type: LOOP_TYPE,
						typeVersion: 3,
						parameters: { batchSize: settings.concurrency, options: {} },
					},
					payoutRequestNode(settings.url, {}),
				],
				{
					Items: { main: [[link('Loop Over Items')]] },
					// Output 0 is "done", output 1 "loop".
					'Loop Over Items': { main: [[], [link('Send Payout')]] },
					'Send Payout': { main: [[link('Loop Over Items')]] },
				},
			),
	},
	httpBatching: {
		label: 'HTTP Request, batching, interval 0',
		// The HTTP Request node's own batching: items per batch = the budget, interval 0 (as the
		// benchmark issue asks).
		build: (settings) =>
			afterToken(
				settings,
				[
					payoutRequestNode(settings.url, {
						batching: { batch: { batchSize: settings.concurrency, batchInterval: 0 } },
					}),
				],
				{ Items: { main: [[link('Send Payout')]] } },
			),
	},
	reconcile: {
		label: 'Disbursement node, Payout > Reconcile',
		// One look-up per row of the payouts the sandbox holds; amount, channel and mobile compared.
		build: ({ concurrency }) => ({
			...disbursementWorkflow('Reconcile Payouts', {
				resource: 'payout',
				operation: 'reconcile',
				...MAPPED_FIELDS,
				channel: 'GCASH',
				options: { concurrency },
			}),
			reconciles: true,
		}),
		seeded: true,
	},
};
/** The Disbursement node's payout routes: every HTTP Request route is compared with these. */
export const NODE_ROUTES = ['node', 'nodeAuto'];
/** The routes through n8n's HTTP Request node (they need the n8n app in .n8n-app). */
export const HTTP_ROUTES = ['httpLoop', 'httpBatching'];
