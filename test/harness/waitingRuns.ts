/**
 * An execution that waits, run in n8n-core's WorkflowExecute and resumed the two ways n8n resumes
 * one, with what n8n's server does around them:
 *
 * - the first run (Manual Trigger -> Items -> the node) ends with `waitTill` set; its data is kept
 *   as n8n's database keeps it (JSON), and every resume starts from a fresh copy of it;
 * - `post()` reaches the resume URL (`/webhook-waiting/<execution id>/<node id>`, served on
 *   127.0.0.1 so the sandbox gateway can call it): as n8n's WaitingWebhooks, a finished or running
 *   execution answers 409, an unknown path 404; otherwise the waiting node is disabled, its waiting
 *   run dropped, and its `webhook()` called through n8n-core's WebhookContext with the stored
 *   execution data. With workflowData the execution goes on from the node with those items (n8n's
 *   prepareExecutionData); without, nothing changes and the execution keeps waiting;
 * - `timeLimit()` is n8n's WaitTracker: the stored execution run again as it is.
 *
 * Everything a caller or the execution could see passes the harness's secret guard.
 */
import './bootstrap';

import * as http from 'http';
import type { AddressInfo } from 'net';

import { WebhookContext, WorkflowExecute, parseIncomingMessage } from 'n8n-core';
import type {
	IDataObject,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IRunExecutionData,
	IWebhookResponseData,
} from 'n8n-workflow';
import { Workflow, jsonParse } from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import type { CredentialStore } from './credentialStore';
import { prepareWorkflow } from './engine';
import { ITEMS_NODE_TYPE, MANUAL_TRIGGER_TYPE, defaultNodeTypes, itemsNode } from './nodeTypes';
import { assertNoSecret } from './secretGuard';

export const WAITING_NODE = 'Node';
const WAITING_NODE_ID = 'waiting-node-id';

export interface WaitingRunOptions {
	type: string;
	parameters: INodeParameters;
	credentials: INodeCredentials;
	store: CredentialStore;
	items?: IDataObject[];
	typeVersion?: number;
}

export interface ResumeAnswer {
	status: number;
	body: unknown;
}

export interface WaitingRun {
	/** The first run: it waits (`waitTill` set) unless the node went on or failed. */
	first: IRun;
	/** The last state of the execution, as n8n's database holds it. */
	current(): IRun;
	/** The node's items of its last run in the current state. */
	nodeOutput(): INodeExecutionData[];
	/** The URL n8n would give as `$execution.resumeUrl`/<node id>. */
	resumeUrl: string;
	post(body: unknown, path?: string): Promise<ResumeAnswer>;
	timeLimit(): Promise<IRun>;
	/** Resumes (callback or time limit) so far. */
	resumes: number;
	close(): Promise<void>;
}

export async function startWaitingRun(options: WaitingRunOptions): Promise<WaitingRun> {
	const nodeTypes = defaultNodeTypes().clone();
	nodeTypes.register(itemsNode(options.items ?? [{}]));
	const server = http.createServer((req, res) => void serve(req, res));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	const waitingBase = `http://127.0.0.1:${port}/webhook-waiting`;

	const { workflow, nodes, workflowData, additionalData } = prepareWorkflow({
		store: options.store,
		nodeTypes,
		nodes: [
			{ name: 'Trigger', type: MANUAL_TRIGGER_TYPE, parameters: {} },
			{ name: 'Items', type: ITEMS_NODE_TYPE, parameters: {} },
			{
				id: WAITING_NODE_ID,
				name: WAITING_NODE,
				type: options.type,
				typeVersion: options.typeVersion,
				parameters: options.parameters,
				credentials: options.credentials,
			},
		],
		connections: {
			Trigger: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: WAITING_NODE, type: 'main', index: 0 }]] },
		},
	});
	additionalData.webhookWaitingBaseUrl = waitingBase;
	const executionId = String(additionalData.executionId);
	const freshWorkflow = () =>
		new Workflow({
			id: workflow.id,
			name: workflow.name,
			nodes: structuredClone(nodes),
			connections: workflow.connectionsBySourceNode,
			active: false,
			nodeTypes,
			settings: workflowData.settings,
		});
	const freshData = () =>
		buildAdditionalData({ store: options.store, mode: 'manual', executionId, workflowData });

	const first = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode('Trigger')!,
	});
	guard(first);
	let stored = JSON.stringify(first);
	let status: 'waiting' | 'running' | 'done' = first.waitTill ? 'waiting' : 'done';
	let resumes = 0;
	const load = (): IRun => {
		const run = jsonParse<IRun>(stored);
		if (run.waitTill) run.waitTill = new Date(run.waitTill);
		if (run.data.waitTill) run.data.waitTill = new Date(run.data.waitTill);
		return run;
	};

	async function continueFrom(runExecutionData: IRunExecutionData, additional = freshData()) {
		status = 'running';
		resumes++;
		const run = await new WorkflowExecute(
			additional,
			'manual',
			runExecutionData,
		).processRunExecutionData(freshWorkflow());
		guard(run);
		stored = JSON.stringify(run);
		status = run.waitTill ? 'waiting' : 'done';
		return run;
	}

	async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		try {
			parseIncomingMessage(req);
			const chunks: Buffer[] = [];
			for await (const chunk of req) chunks.push(chunk as Buffer);
			const raw = Buffer.concat(chunks);
			const request = req as http.IncomingMessage & { rawBody?: Buffer; body?: unknown };
			request.rawBody = raw;
			if (raw.length > 0 && req.contentType === 'application/json') {
				try {
					request.body = jsonParse(raw.toString(req.encoding));
				} catch {
					// n8n's body parser answers before any node runs.
					return answer(res, 422, { code: 422, message: 'Failed to parse request body' });
				}
			}
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			// n8n 2.x puts the node id after the token in the query; 1.x and this harness in the path.
			const [, , id, suffix] = url.pathname.split('/');
			if (id !== executionId || suffix !== WAITING_NODE_ID || req.method !== 'POST') {
				return answer(res, 404, { message: 'The requested webhook is not registered.' });
			}
			if (status !== 'waiting') {
				return answer(res, 409, {
					message: `The execution "${executionId}" ${status === 'running' ? 'is running already' : 'has finished already'}.`,
				});
			}
			const runExecutionData = load().data;
			// n8n's WaitingWebhooks: the node is disabled for the resumed run, its waiting run dropped.
			runExecutionData.executionData!.nodeExecutionStack[0].node.disabled = true;
			runExecutionData.waitTill = undefined;
			const lastNode = runExecutionData.resultData.lastNodeExecuted!;
			runExecutionData.resultData.runData[lastNode].pop();
			const wf = freshWorkflow();
			const node = wf.getNode(lastNode)!;
			const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			const additional = freshData();
			additional.httpRequest = req as never;
			additional.httpResponse = res as never;
			const description = nodeType.description.webhooks!.find((hook) => hook.restartWebhook)!;
			const context = new WebhookContext(
				wf,
				node,
				additional,
				'manual',
				{
					httpMethod: 'POST',
					node: node.name,
					path: WAITING_NODE_ID,
					webhookDescription: description,
					workflowId: String(wf.id),
					workflowExecuteAdditionalData: additional,
				},
				[],
				runExecutionData,
			);
			const result = (await nodeType.webhook!.call(context)) as IWebhookResponseData;
			assertNoSecret(options.store, 'the webhook result', result);
			if (result.workflowData === undefined) return;
			// n8n's prepareExecutionData for a waiting execution.
			const entry = runExecutionData.executionData!.nodeExecutionStack[0];
			entry.data.main = result.workflowData;
			await continueFrom(runExecutionData, additional);
		} catch (error) {
			if (!res.headersSent) answer(res, 500, { message: (error as Error).message });
		}
	}

	function guard(run: IRun): void {
		assertNoSecret(options.store, 'the saved execution data', run.data);
	}

	return {
		first,
		current: load,
		nodeOutput: () => {
			const runs = load().data.resultData.runData[WAITING_NODE] ?? [];
			return runs.at(-1)?.data?.main?.[0] ?? [];
		},
		resumeUrl: `${waitingBase}/${executionId}/${WAITING_NODE_ID}`,
		get resumes() {
			return resumes;
		},
		async post(body, path = `/webhook-waiting/${executionId}/${WAITING_NODE_ID}`) {
			const text = typeof body === 'string' ? body : JSON.stringify(body);
			const response = await fetch(`http://127.0.0.1:${port}${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: text,
			});
			const answerText = await response.text();
			let parsed: unknown = answerText;
			try {
				parsed = JSON.parse(answerText);
			} catch {
				// kept as text
			}
			assertNoSecret(options.store, 'the webhook response', parsed);
			return { status: response.status, body: parsed };
		},
		async timeLimit() {
			if (status !== 'waiting') throw new Error('The execution is not waiting');
			return await continueFrom(load().data);
		},
		async close() {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

function answer(res: http.ServerResponse, code: number, body: unknown): void {
	res.writeHead(code, { 'content-type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
}
