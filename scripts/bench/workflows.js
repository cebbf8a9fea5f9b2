'use strict';
// The benchmark's workload and the workflows that carry it: the Disbursement node, and what a
// user would build without this package (n8n's HTTP Request node after a token request).
const PAYOUT_PATH = '/v1/api/disbursement/transactions/process';
const TOKEN_PATH = '/v1/auth/token';
const DISBURSEMENT_TYPE = 'n8n-nodes-payment-gateway.disbursement';
const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const LOOP_TYPE = 'n8n-nodes-base.splitInBatches';
const ITEMS_TYPE = 'harness.items';
const TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';

/** N e-wallet payouts, as rows of a spreadsheet would give them. */
function payoutItems(count, tag) {
	return Array.from({ length: count }, (_, i) => ({
		referenceNo: `BENCH-${tag}-${String(i + 1).padStart(6, '0')}`,
		amount: 100 + (i % 50),
		mobileNumber: `0917${String(1000000 + i).slice(-7)}`,
	}));
}

const link = (node, index = 0) => ({ node, type: 'main', index });

/** Manual Trigger -> Items -> Disbursement (Payout > Create, e-wallet, GCASH). */
function nodeWorkflow({ concurrency }) {
	return {
		payoutNode: 'Create Payouts',
		nodes: [
			{ name: 'Trigger', type: TRIGGER_TYPE, parameters: {} },
			{ name: 'Items', type: ITEMS_TYPE, parameters: {} },
			{
				name: 'Create Payouts',
				type: DISBURSEMENT_TYPE,
				parameters: {
					resource: 'payout',
					operation: 'create',
					channelType: 'eWallet',
					channel: 'GCASH',
					amount: '={{ $json.amount }}',
					referenceNo: '={{ $json.referenceNo }}',
					mobileNumber: '={{ $json.mobileNumber }}',
					callbackWebhookUrl: '',
					options: { concurrency },
				},
			},
		],
		connections: {
			Trigger: { main: [[link('Items')]] },
			Items: { main: [[link('Create Payouts')]] },
		},
		credentialType: 'disbursementApi',
	};
}

function tokenNode(url, credentials) {
	return {
		name: 'Get Token',
		type: HTTP_REQUEST_TYPE,
		typeVersion: 4.4, // what n8n 2.8.4 adds today
		parameters: {
			method: 'POST',
			url: `${url}${TOKEN_PATH}`,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: JSON.stringify({ username: credentials.username, password: credentials.password }),
			options: {},
		},
	};
}

function payoutRequestNode(url, options) {
	return {
		name: 'Send Payout',
		type: HTTP_REQUEST_TYPE,
		typeVersion: 4.4, // what n8n 2.8.4 adds today
		parameters: {
			method: 'POST',
			url: `${url}${PAYOUT_PATH}`,
			sendHeaders: true,
			specifyHeaders: 'keypair',
			headerParameters: {
				parameters: [{ name: 'Authorization', value: "=Bearer {{ $('Get Token').first().json.data.token }}" }],
			},
			sendBody: true,
			specifyBody: 'json',
			jsonBody:
				'={"channel": "GCASH", "amount": {{ $json.amount }}, "reference_no": "{{ $json.referenceNo }}", "fields": {"mobile_number": "{{ $json.mobileNumber }}"}}',
			options,
		},
	};
}

/**
 * Trigger -> Get Token -> Items -> Send Payout, with the HTTP Request node's own batching:
 * items per batch = the concurrency budget, batch interval 0 (as the benchmark issue asks).
 */
function httpBatchingWorkflow({ concurrency, url, credentials }) {
	return {
		payoutNode: 'Send Payout',
		nodes: [
			{ name: 'Trigger', type: TRIGGER_TYPE, parameters: {} },
			tokenNode(url, credentials),
			{ name: 'Items', type: ITEMS_TYPE, parameters: {} },
			payoutRequestNode(url, { batching: { batch: { batchSize: concurrency, batchInterval: 0 } } }),
		],
		connections: {
			Trigger: { main: [[link('Get Token')]] },
			'Get Token': { main: [[link('Items')]] },
			Items: { main: [[link('Send Payout')]] },
		},
	};
}

/**
 * Trigger -> Get Token -> Items -> Loop Over Items (batch size = the budget) -> Send Payout ->
 * back to the loop: the way n8n's documentation bounds how many requests are out at once.
 */
function httpLoopWorkflow({ concurrency, url, credentials }) {
	return {
		payoutNode: 'Send Payout',
		nodes: [
			{ name: 'Trigger', type: TRIGGER_TYPE, parameters: {} },
			tokenNode(url, credentials),
			{ name: 'Items', type: ITEMS_TYPE, parameters: {} },
			{ name: 'Loop Over Items', type: LOOP_TYPE, typeVersion: 3, parameters: { batchSize: concurrency, options: {} } },
			payoutRequestNode(url, {}),
		],
		connections: {
			Trigger: { main: [[link('Get Token')]] },
			'Get Token': { main: [[link('Items')]] },
			Items: { main: [[link('Loop Over Items')]] },
			// Output 0 is "done", output 1 "loop".
			'Loop Over Items': { main: [[], [link('Send Payout')]] },
			'Send Payout': { main: [[link('Loop Over Items')]] },
		},
	};
}

const ROUTES = {
	node: { label: 'Disbursement node', build: nodeWorkflow },
	httpBatching: { label: 'HTTP Request, batching (c per batch, interval 0)', build: httpBatchingWorkflow },
	httpLoop: { label: 'HTTP Request in Loop Over Items (c per batch)', build: httpLoopWorkflow },
};

module.exports = { ROUTES, payoutItems, HTTP_REQUEST_TYPE, LOOP_TYPE, PAYOUT_PATH };
