// The benchmark's routes (workflows.ts) as workflows for a real n8n: the harness's Manual Trigger
// and Items become a production webhook that receives the rows and a Split Out node that makes one
// item per row; the Disbursement node is the current version (2) on the imported sandbox
// credential. Nothing else changes, so both benchmarks measure the same nodes and parameters.
import type { IConnections, INode } from 'n8n-workflow';

import { DEMO_CREDENTIALS } from '../n8n/credentials';
import type { WorkflowJson } from '../n8n/instance';
import { PACKAGE_NAME } from '../n8n/paths';
import { ROUTES } from './workflows';

/** The routes of the benchmark issue, by letter. */
export const N8N_ROUTES: Record<string, { route: string; label: string }> = {
	A: { route: 'nodeAuto', label: 'A Disbursement v2 Create, columns mapped automatically' },
	B: { route: 'node', label: 'B Disbursement v2 Create, fields mapped with {{ $json.… }}' },
	C: { route: 'httpLoop', label: 'C HTTP Request 4.4 in Loop Over Items after a token request' },
};

const WEBHOOK = 'Rows';
const ITEMS = 'Items';
const TOKEN = 'Get Token';

export interface N8nRoute {
	workflow: WorkflowJson;
	/** The webhook's path: POST `{ rows }` to <n8n>/webhook/<path> to start a run. */
	path: string;
}

/** Route `letter` at concurrency c against the sandbox at `url`, as an n8n workflow. */
export function n8nRoute(
	letter: string,
	settings: {
		concurrency: number;
		url: string;
		credentials: { username: string; password: string };
	},
): N8nRoute {
	const bench = ROUTES[N8N_ROUTES[letter].route].build(settings);
	const path = `bench-${letter.toLowerCase()}-c${settings.concurrency}`;
	const id = `benchN8n${letter}c${settings.concurrency}`;
	const disbursementType = `${PACKAGE_NAME}.disbursement`;
	const nodes: INode[] = bench.nodes.map((node, i) => {
		const position: [number, number] = [i * 220, node.name === TOKEN ? -200 : 0];
		const base = { id: `${id}-${i}`, position };
		if (node.type === 'n8n-nodes-base.manualTrigger')
			return {
				...base,
				name: WEBHOOK,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: `${id}-webhook`,
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			} as INode;
		if (node.name === ITEMS)
			return {
				...base,
				name: ITEMS,
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'body.rows', options: {} },
			} as INode;
		if (node.type === disbursementType)
			return {
				...base,
				...node,
				typeVersion: 2,
				// Version 2 maps automatically by default: the manual route says so.
				parameters: { mappingMode: 'defineBelow', ...node.parameters },
				credentials: {
					disbursementApi: {
						id: DEMO_CREDENTIALS.disbursement.id,
						name: DEMO_CREDENTIALS.disbursement.name,
					},
				},
			} as INode;
		return { ...base, typeVersion: 1, ...node } as INode;
	});
	return {
		path,
		workflow: {
			id,
			name: `Benchmark: ${N8N_ROUTES[letter].label}, c = ${settings.concurrency}`,
			nodes,
			connections: fromWebhook(bench.connections),
			settings: { executionOrder: 'v1' },
			pinData: {},
			active: false,
		},
	};
}

/**
 * The harness's connections from the webhook. Where the token request comes between the trigger
 * and the items (the HTTP Request routes), the webhook feeds both: Get Token (placed above, so
 * n8n's v1 order runs it first) and the items, which still need the webhook's rows.
 */
function fromWebhook(connections: IConnections): IConnections {
	const renamed: IConnections = {};
	for (const [from, outputs] of Object.entries(connections))
		renamed[from === 'Trigger' ? WEBHOOK : from] = outputs;
	if (renamed[TOKEN]) {
		delete renamed[TOKEN];
		renamed[WEBHOOK] = {
			main: [
				[
					{ node: TOKEN, type: 'main', index: 0 },
					{ node: ITEMS, type: 'main', index: 0 },
				],
			],
		};
	}
	return renamed;
}
