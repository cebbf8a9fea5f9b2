// The workflows the queue check runs. Executions start the way they do in queue mode: a request to
// a production webhook on the webhook process, which queues the execution for a worker.
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import { PACKAGE_NAME } from '../../../scripts/n8n/paths';
import { DEMO_CREDENTIALS } from '../../../scripts/n8n/credentials';
import { loadExamples } from '../../../scripts/n8n/examples';

export const PAYOUTS = {
	id: 'pgwQueuePayouts',
	path: 'pgw-queue-payouts',
	webhookId: 'b9d3a0c1-5a1e-4f00-9000-0000000000a1',
	node: 'Send payout',
};
/** The same payout workflow on a credential whose password the service refuses. */
export const REFUSED = {
	id: 'pgwQueueRefused',
	path: 'pgw-queue-refused',
	webhookId: 'b9d3a0c1-5a1e-4f00-9000-0000000000b2',
	node: 'Send payout',
};
export const CALLBACKS = {
	id: 'pgwQueueCallbacks',
	webhookId: '6f1d0c52-8a7e-4b8e-9f65-3c2d1a0b9e71',
	node: 'Payment Gateway Trigger',
};
export const WRONG_PASSWORD_CREDENTIAL = {
	id: 'pgwQueueWrongPassword',
	name: 'Disbursement (wrong password)',
	type: 'disbursementApi',
};

export interface PayoutRow {
	reference_no: string;
	amount: number;
	callback_url?: string;
}

type Credential = { id: string; name: string };

function payoutWorkflow(
	ids: { id: string; path: string; webhookId: string },
	credential: Credential,
): WorkflowJson {
	return {
		id: ids.id,
		name: `Queue check: ${ids.path}`,
		nodes: [
			{
				id: 'b9d3a0c1-0001-4f00-9000-000000000001',
				name: 'Payout rows',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: ids.webhookId,
				parameters: { httpMethod: 'POST', path: ids.path, responseMode: 'onReceived', options: {} },
			},
			{
				id: 'b9d3a0c1-0002-4f00-9000-000000000002',
				name: 'One item per row',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: 'body.rows', options: {} },
			},
			{
				id: 'b9d3a0c1-0003-4f00-9000-000000000003',
				name: PAYOUTS.node,
				type: `${PACKAGE_NAME}.disbursement`,
				typeVersion: 1,
				position: [440, 0],
				onError: 'continueErrorOutput',
				parameters: {
					resource: 'payout',
					operation: 'create',
					channelType: 'bankTransfer',
					channel: 'INSTAPAY',
					amount: '={{ $json.amount }}',
					referenceNo: '={{ $json.reference_no }}',
					callbackWebhookUrl: '={{ $json.callback_url }}',
					bankCode: 'BDO',
					senderFirstName: 'Andrea',
					senderLastName: 'Villanueva',
					receiverAccountName: 'Juan Dela Cruz',
					receiverAccountNumber: '001234567890',
					receiverType: 'INDIVIDUAL',
					options: {},
				},
				credentials: { disbursementApi: credential },
			},
		],
		connections: {
			'Payout rows': { main: [[{ node: 'One item per row', type: 'main', index: 0 }]] },
			'One item per row': { main: [[{ node: PAYOUTS.node, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/** The trigger's workflow: payout callbacks, confirmed with the service, into a No Op. */
function callbackWorkflow(
	ids: { name: string; webhookId: string },
	ledger?: Credential,
): Omit<WorkflowJson, 'id'> {
	return {
		name: ids.name,
		nodes: [
			{
				id: 'c7e2b1d0-0001-4a00-8000-000000000001',
				name: CALLBACKS.node,
				type: `${PACKAGE_NAME}.paymentGatewayTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId: ids.webhookId,
				parameters: {
					interface: 'disbursement',
					statuses: ['completed', 'cancelled'],
					confirmWithService: true,
				},
				credentials: {
					disbursementApi: {
						id: DEMO_CREDENTIALS.disbursement.id,
						name: DEMO_CREDENTIALS.disbursement.name,
					},
					...(ledger ? { paymentGatewayLedgerApi: ledger } : {}),
				},
			},
			{
				id: 'c7e2b1d0-0002-4a00-8000-000000000002',
				name: 'Callback received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: {
			[CALLBACKS.node]: { main: [[{ node: 'Callback received', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/** The same trigger with a Payout Ledger credential: each delivery claimed in the ledger. */
export const CLAIMS = {
	name: 'Queue check: callbacks claimed in the ledger',
	webhookId: '6f1d0c52-8a7e-4b8e-9f65-3c2d1a0b9e72',
};

export const claimsWorkflow = (ledger: Credential) => callbackWorkflow(CLAIMS, ledger);

export function queueWorkflows(): WorkflowJson[] {
	const sandboxPayouts = {
		id: DEMO_CREDENTIALS.disbursement.id,
		name: DEMO_CREDENTIALS.disbursement.name,
	};
	return [
		payoutWorkflow(PAYOUTS, sandboxPayouts),
		payoutWorkflow(REFUSED, WRONG_PASSWORD_CREDENTIAL),
		{
			id: CALLBACKS.id,
			...callbackWorkflow({ name: 'Queue check: payout callbacks', ...CALLBACKS }),
		},
	];
}

/** `count` rows `<prefix>-0001`.. with distinct amounts. */
export function payoutRows(prefix: string, count: number, callbackUrl?: string): PayoutRow[] {
	return Array.from({ length: count }, (_, i) => ({
		reference_no: `${prefix}-${String(i + 1).padStart(4, '0')}`,
		amount: 100 + i,
		...(callbackUrl ? { callback_url: callbackUrl } : {}),
	}));
}

/** The production URL of a payout workflow's webhook under `baseUrl` (ends with '/'). */
export function payoutWebhookUrl(baseUrl: string, ids: { path: string }): string {
	return `${baseUrl}webhook/${ids.path}`;
}

export function callbackWebhookUrl(baseUrl: string, webhookId = CALLBACKS.webhookId): string {
	return `${baseUrl}webhook/${webhookId}/callback`;
}

/**
 * Rows of the sheet the large-sheet check pays (example 09), from QUEUE_SHEET_ROWS; 0 (unset)
 * leaves that check and its workflow out of `npm run e2e:queue`.
 */
export const SHEET_ROWS = Number(process.env.QUEUE_SHEET_ROWS) || 0;
const SHEET_EXAMPLE = '09-payouts-from-a-large-sheet-in-batches.json';
/** Example 09: its webhook branch pays one batch; its manual branch queues the batches. */
export const SHEET = { id: 'pgwSheetBatches', path: 'pgw-payout-batch', sheetNode: 'The sheet' };

/** Example 09 as the cluster runs it: its batch webhook on the webhook process at `n8nUrl`. */
export function sheetExample(n8nUrl: string): WorkflowJson {
	const example = loadExamples({ n8nUrl }).find((e) => e.file === SHEET_EXAMPLE);
	if (!example) throw new Error(`examples/${SHEET_EXAMPLE} is missing`);
	return example.workflow;
}

/** The published workflows the cluster starts with. */
export function publishedIds(): string[] {
	return [PAYOUTS.id, REFUSED.id, CALLBACKS.id, ...(SHEET_ROWS ? [SHEET.id] : [])];
}

/**
 * Example 09's manual branch alone, as a workflow of its own (`n8n execute` runs it outside the
 * workers, as the editor's Execute workflow does on the main in n8n 2.41), with only the sheet's
 * name and size changed in "The sheet". The batches go to the published example's webhook.
 */
export function sheetRun(example: WorkflowJson, id: string, sheet: string, rows: number) {
	const batchBranch = new Set([
		'Batch received',
		'Rows of this batch',
		'Send payout',
		'Batch summary',
	]);
	const nodes = structuredClone(example.nodes).filter(
		(node) => !batchBranch.has(node.name) && node.type !== 'n8n-nodes-base.stickyNote',
	);
	const sheetNode = nodes.find((node) => node.name === SHEET.sheetNode);
	const code = String(sheetNode?.parameters.jsCode ?? '');
	const changed = code.replace(/sheet: '[^']*', rows: \d+/, `sheet: '${sheet}', rows: ${rows}`);
	if (!sheetNode || changed === code)
		throw new Error(`example 09's "${SHEET.sheetNode}" changed shape`);
	sheetNode.parameters.jsCode = changed;
	const connections = Object.fromEntries(
		Object.entries(example.connections).filter(([from]) => !batchBranch.has(from)),
	);
	return { ...example, id, name: `${example.name}: ${sheet}`, nodes, connections, active: false };
}

/** Maximum Total per Day's check: Prepare's tokens, then Confirm with the day's maximum. */
export const DAILY_CAP = {
	prepare: {
		name: 'Queue check: daily cap, prepare',
		path: 'pgw-queue-daycap-prepare',
		webhookId: 'd4a7c2e0-7b31-4c00-9000-0000000000d1',
	},
	confirm: {
		name: 'Queue check: daily cap, confirm',
		path: 'pgw-queue-daycap-confirm',
		webhookId: 'd4a7c2e0-7b31-4c00-9000-0000000000d2',
		node: 'Confirm payout',
	},
};

/** A workflow as `POST /rest/workflows` takes it: a production webhook answering with the last node. */
function answeringWorkflow(
	ids: { name: string; path: string; webhookId: string },
	responseData: 'allEntries' | 'firstEntryJson',
	nodes: WorkflowJson['nodes'],
): Omit<WorkflowJson, 'id'> {
	const webhook = {
		id: `${ids.webhookId.slice(0, 24)}000000000001`,
		name: 'Request',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0] as [number, number],
		webhookId: ids.webhookId,
		parameters: {
			httpMethod: 'POST',
			path: ids.path,
			responseMode: 'lastNode',
			responseData,
			options: {},
		},
	};
	const chain = [webhook, ...nodes];
	const connections = Object.fromEntries(
		chain
			.slice(0, -1)
			.map((node, i) => [
				node.name,
				{ main: [[{ node: chain[i + 1].name, type: 'main' as const, index: 0 }]] },
			]),
	);
	return {
		name: ids.name,
		nodes: chain,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/**
 * Payout > Prepare (node version 2) for the rows posted as `{ rows: [{ ref, amount, mobile }] }`,
 * answering with every row's approval token; nothing is sent.
 */
export function dailyCapPrepareWorkflow(disbursement: Credential): Omit<WorkflowJson, 'id'> {
	return answeringWorkflow(DAILY_CAP.prepare, 'allEntries', [
		{
			id: 'd4a7c2e0-7b31-4c00-9000-000000000011',
			name: 'One item per row',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0],
			parameters: { fieldToSplitOut: 'body.rows', options: {} },
		},
		{
			id: 'd4a7c2e0-7b31-4c00-9000-000000000012',
			name: 'Prepare payout',
			type: `${PACKAGE_NAME}.disbursement`,
			typeVersion: 2,
			position: [440, 0],
			parameters: {
				resource: 'payout',
				operation: 'prepare',
				mappingMode: 'defineBelow',
				channelType: 'eWallet',
				channel: 'GCASH',
				amount: '={{ $json.amount }}',
				referenceNo: '={{ $json.ref }}',
				mobileNumber: '={{ $json.mobile }}',
				callbackWebhookUrl: '',
				options: {},
			},
			credentials: { disbursementApi: disbursement },
		},
	]);
}

/**
 * Payout > Confirm of the approval token posted as `{ token }`, with Maximum Total per Day
 * `maximum` kept in the ledger of `ledger`; answers with Confirm's item: the payout, or the
 * refusal as `error` (On Error: Continue).
 */
export function dailyCapConfirmWorkflow(
	disbursement: Credential,
	ledger: Credential,
	maximum: string,
): Omit<WorkflowJson, 'id'> {
	return answeringWorkflow(DAILY_CAP.confirm, 'firstEntryJson', [
		{
			id: 'd4a7c2e0-7b31-4c00-9000-000000000021',
			name: DAILY_CAP.confirm.node,
			type: `${PACKAGE_NAME}.disbursement`,
			typeVersion: 2,
			position: [220, 0],
			onError: 'continueRegularOutput',
			parameters: {
				resource: 'payout',
				operation: 'confirm',
				approvalToken: '={{ $json.body.token }}',
				options: { maxTotalPerDay: maximum },
			},
			credentials: { disbursementApi: disbursement, paymentGatewayLedgerApi: ledger },
		},
	]);
}
