/**
 * Serves the Payment Gateway Trigger's webhook on 127.0.0.1 the way n8n's server does, so a
 * callback (from a test or from the sandbox gateway) reaches `webhook()` through n8n-core's own
 * WebhookContext with a real request/response pair:
 *
 * - the request gets what n8n's middlewares give it: `contentType`/`encoding`
 *   (n8n-core parseIncomingMessage), `rawBody` (a Buffer), `body` parsed as n8n's parseBody does
 *   for a version-1 webhook node (JSON, text, form; a JSON parse error answers 422 before the
 *   node runs), and `ip` as express computes it (socket address, or X-Forwarded-For only as far
 *   as `proxyHops` trusts it, like N8N_PROXY_HOPS);
 * - the answer follows n8n 2.x's executeWebhook: `noWebhookResponse` -> the node has answered
 *   (and with workflowData the execution still starts); no workflowData -> 200 `webhookResponse`
 *   or {message: 'Webhook call received'}; workflowData alone -> the workflow is handed to the
 *   runner first, then 200 {message: 'Workflow was started'} (response mode onReceived); the
 *   workflow runs in n8n-core's WorkflowExecute from the trigger, as n8n's WorkflowRunner does;
 *   a throw -> 500.
 * - static data lives in `staticData` (the workflow row of n8n's database): each request builds
 *   its Workflow from a fresh copy of it, and n8n's live (production) webhooks save that copy
 *   when the answer is handed back, if it is still marked changed then. As in n8n, the runner
 *   builds its own Workflow on the same copy, which clears the mark: an answer n8n sends after
 *   handing the workflow on saves nothing. The test URL (manual mode) never saves it.
 *
 * Everything a caller or the execution could see passes the harness's secret guard.
 */
import './bootstrap';

import * as http from 'http';
import type { AddressInfo } from 'net';
import { parse as parseQuery } from 'querystring';

import { HookContext, WebhookContext, WorkflowExecute, parseIncomingMessage } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	IRun,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow, createRunExecutionData, jsonParse } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additionalData';
import type { CredentialStore } from './credentialStore';
import { logLinesSince, logMark, type LogLine } from './logging';
import { defaultNodeTypes, PACKAGE_NAME } from './nodeTypes';
import { assertNoSecret, assertNoSecretInLogs } from './secretGuard';

export const TRIGGER_TYPE = `${PACKAGE_NAME}.paymentGatewayTrigger`;
export const TRIGGER_NAME = 'Payment Gateway Trigger';
export const NEXT_NODE = 'Next Step';
/** n8n's default N8N_PAYLOAD_SIZE_MAX is 16 MB. */
const PAYLOAD_SIZE_MAX = 16 * 1024 * 1024;

/** Stands in for the user's next node: passes the trigger's items on, proving the run went on. */
class NextStepNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Next Step',
		name: 'harness.nextStep',
		group: ['transform'],
		version: 1,
		description: 'Passes items on',
		defaults: { name: NEXT_NODE },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: import('n8n-workflow').IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, index) => ({ json: item.json, pairedItem: { item: index } })),
		];
	}
}

export interface TriggerHarnessOptions {
	store: CredentialStore;
	parameters?: INodeParameters;
	/** The trigger's node version, as the workflow stores it. Default 1. */
	typeVersion?: number;
	/** `{ [credentialType]: { id, name } }` as the editor stores them on the node. */
	credentials?: INodeCredentials;
	/** 'webhook' (production URL, the default) or 'manual' (the editor's test URL). */
	mode?: WorkflowExecuteMode;
	/** Like N8N_PROXY_HOPS: how many X-Forwarded-For hops express trusts. Default 0. */
	proxyHops?: number;
	workflowId?: string;
	/** The stored static data, shared by harnesses that stand for the same workflow. */
	staticData?: StoredStaticData;
	/**
	 * Loads the trigger's code anew, as a restarted n8n would: nothing the previous code kept in
	 * memory survives, only what is in `staticData`.
	 */
	freshProcess?: boolean;
}

/** The `staticData` column of a workflow row: JSON text, or undefined before the first save. */
export interface StoredStaticData {
	json?: string;
}

export interface WebhookCall {
	seq: number;
	statusCode: number;
	/** The answer's body, parsed when JSON. */
	body: unknown;
	/** What webhook() returned (undefined when it threw or n8n answered before it ran). */
	result?: IWebhookResponseData;
	/** True when webhook() returned workflowData: n8n starts an execution. */
	executionStarted: boolean;
	/** The execution's result, when one started. */
	run?: IRun;
	/** Items the node after the trigger received. */
	nextStepItems?: INodeExecutionData[];
	error?: Error;
	logs: LogLine[];
}

export interface PostOptions {
	contentType?: string | null;
	headers?: Record<string, string>;
	/** Source address of the request (any 127.x.y.z works on Linux loopback). */
	localAddress?: string;
	method?: string;
	path?: string;
}

export interface TriggerHarness {
	/** The production webhook URL a user pastes into callbackWebhookUrl. */
	url: string;
	node: INode;
	workflowId: string;
	staticData: StoredStaticData;
	calls: WebhookCall[];
	/** Sends a request as a caller would; `body` is JSON-encoded unless it is a string. */
	post(body: unknown, options?: PostOptions): Promise<WebhookCall>;
	/** Runs one of the node's webhookMethods as n8n does on activation (n8n-core HookContext). */
	lifecycle(
		method: 'checkExists' | 'create' | 'delete',
	): Promise<{ result?: boolean; error?: Error; logs: LogLine[] }>;
	/** Resolves when `count` calls have been handled in total. */
	waitForCalls(count: number, timeoutMs?: number): Promise<WebhookCall[]>;
	close(): Promise<void>;
}

export async function startTriggerHarness(options: TriggerHarnessOptions): Promise<TriggerHarness> {
	const mode = options.mode ?? 'webhook';
	const nodeTypes = defaultNodeTypes();
	const nextStepType = nodeTypes.register(new NextStepNode(), 'harness.nextStep');
	const webhookId = 'b7c4f2d0-5e1a-4c8b-9a55-0d6f3e2a1c77';
	const node: INode = {
		id: 'trigger-node-1',
		name: TRIGGER_NAME,
		type: TRIGGER_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: options.parameters ?? {},
		credentials: options.credentials,
		webhookId,
	};
	const nodes: INode[] = [
		node,
		{
			id: 'next-node-1',
			name: NEXT_NODE,
			type: nextStepType,
			typeVersion: 1,
			position: [220, 0],
			parameters: {},
		},
	];
	const connections = {
		[TRIGGER_NAME]: { main: [[{ node: NEXT_NODE, type: NodeConnectionTypes.Main, index: 0 }]] },
	};
	const workflowId = options.workflowId ?? `trigger-workflow-${nextExecutionId()}`;
	const workflowData: IWorkflowBase = {
		id: workflowId,
		name: 'Payment callbacks',
		active: mode !== 'manual',
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
	if (options.freshProcess) nodeTypes.register(freshTriggerNode(), TRIGGER_TYPE);
	const nodeType = nodeTypes.getByNameAndVersion(TRIGGER_TYPE, node.typeVersion);
	const stored = options.staticData ?? {};
	const declared = nodeType.description.webhooks?.[0];
	if (!declared || !nodeType.webhook) throw new Error('The trigger declares no webhook');
	const description: IWebhookDescription = declared;
	const webhookPath = `${webhookId}/${description.path}`;
	const routePath = `/${mode === 'manual' ? 'webhook-test' : 'webhook'}/${webhookPath}`;

	// n8n builds a fresh Workflow from the stored workflow for every request; its runner builds
	// another one on the same static data object.
	const loadStaticData = () =>
		stored.json === undefined ? undefined : (JSON.parse(stored.json) as IDataObject);
	const buildWorkflow = (staticData = loadStaticData()) =>
		new Workflow({
			id: workflowId,
			name: workflowData.name,
			nodes: structuredClone(nodes),
			connections,
			active: workflowData.active,
			nodeTypes,
			staticData,
			settings: workflowData.settings,
		});
	const webhookDataFor = (additionalData: IWorkflowExecuteAdditionalData): IWebhookData => ({
		httpMethod: 'POST',
		node: TRIGGER_NAME,
		path: webhookPath,
		webhookDescription: description,
		workflowId,
		workflowExecuteAdditionalData: additionalData,
		webhookId,
		isTest: mode === 'manual',
	});

	const calls: WebhookCall[] = [];
	const waiters: Array<() => void> = [];
	let seq = 0;

	async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<WebhookCall> {
		const call: WebhookCall = {
			seq: ++seq,
			statusCode: 0,
			body: undefined,
			executionStarted: false,
			logs: [],
		};
		res.setHeader('x-harness-call', String(call.seq));
		const mark = logMark();
		try {
			await serve(req, res, call);
		} catch (error) {
			call.error = error as Error;
			if (!res.headersSent)
				sendJson(res, 500, {
					code: 500,
					message: 'Workflow Webhook Error: Workflow could not be started!',
				});
		}
		if (!res.writableEnded) {
			// n8n would leave the caller hanging: make it visible to the test instead.
			call.error ??= new Error('webhook() returned noWebhookResponse without answering');
			res.end();
		}
		call.statusCode = res.statusCode;
		call.logs = logLinesSince(mark);
		const guard = options.store;
		assertNoSecret(guard, 'the webhook response', call.body);
		if (call.result) assertNoSecret(guard, 'the webhook result', call.result);
		if (call.run) assertNoSecret(guard, 'the execution data', call.run.data);
		assertNoSecretInLogs(guard, call.logs);
		calls.push(call);
		waiters.splice(0).forEach((wake) => wake());
		return call;
	}

	async function serve(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		call: WebhookCall,
	): Promise<void> {
		// n8n's rawBodyReader and parseBody.
		parseIncomingMessage(req);
		const raw = await readRaw(req);
		if (raw === undefined) {
			respond(res, call, 413, { code: 413, message: 'request entity too large' });
			return;
		}
		req.rawBody = raw;
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		if (req.method !== description.httpMethod || url.pathname !== routePath) {
			respond(res, call, 404, {
				code: 404,
				message: `The requested webhook "${req.method} ${url.pathname}" is not registered.`,
			});
			return;
		}
		const body = req as http.IncomingMessage & { body?: unknown };
		if (raw.length > 0) {
			try {
				if (req.contentType === 'application/json')
					body.body = jsonParse(raw.toString(req.encoding));
				else if (req.contentType === 'text/plain') body.body = raw.toString(req.encoding);
				else if (req.contentType === 'application/x-www-form-urlencoded') {
					body.body = parseQuery(raw.toString(req.encoding), undefined, undefined, {
						maxKeys: 1000,
					});
				}
			} catch {
				respond(res, call, 422, { code: 422, message: 'Failed to parse request body' });
				return;
			}
		}
		Object.defineProperty(req, 'ip', {
			value: clientIp(req, options.proxyHops ?? 0),
			configurable: true,
		});

		// Before the first save the row holds none: each Workflow then makes an object of its own.
		const staticData = loadStaticData();
		const workflow = buildWorkflow(staticData);
		const executionId = nextExecutionId();
		const additionalData = buildAdditionalData({
			store: options.store,
			mode,
			executionId,
			workflowData,
		});
		additionalData.httpRequest = req as never;
		additionalData.httpResponse = res as never;
		const startNode = workflow.getNode(TRIGGER_NAME)!;
		const context = new WebhookContext(
			workflow,
			startNode,
			additionalData,
			mode,
			webhookDataFor(additionalData),
			[],
			null,
		);
		const result = (await nodeType.webhook!.call(context)) as IWebhookResponseData;
		call.result = result;
		// n8n's response callback: static data is saved when the answer is handed back, if it is
		// still marked changed then.
		const answered = (answer?: () => void) => {
			answer?.();
			if (mode !== 'manual' && workflow.staticData.__dataChanged === true)
				stored.json = JSON.stringify(workflow.staticData);
		};
		if (result.noWebhookResponse === true)
			answered(() => (call.body = parseMaybe(capturedBody(res))));
		if (result.workflowData === undefined) {
			if (result.noWebhookResponse !== true)
				answered(() =>
					respond(res, call, 200, result.webhookResponse ?? { message: 'Webhook call received' }),
				);
			return;
		}
		call.executionStarted = true;
		const executionWorkflow = buildWorkflow(staticData);
		if (result.noWebhookResponse !== true)
			answered(() => respond(res, call, 200, { message: 'Workflow was started' }));
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: startNode, data: { main: result.workflowData }, source: null },
				],
			},
		});
		call.run = await new WorkflowExecute(
			additionalData,
			mode,
			runExecutionData,
		).processRunExecutionData(executionWorkflow);
		call.nextStepItems =
			call.run.data.resultData.runData[NEXT_NODE]?.[0]?.data?.main?.[0] ?? undefined;
	}

	const server = http.createServer((req, res) => {
		captureBody(res);
		void handle(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	const base = `http://127.0.0.1:${port}`;

	return {
		url: `${base}${routePath}`,
		node,
		workflowId,
		staticData: stored,
		calls,
		async post(body, postOptions = {}) {
			const text = typeof body === 'string' ? body : JSON.stringify(body);
			const headers: Record<string, string> = { ...postOptions.headers };
			const contentType =
				postOptions.contentType === undefined ? 'application/json' : postOptions.contentType;
			if (contentType !== null) headers['content-type'] = contentType;
			headers['content-length'] = String(Buffer.byteLength(text));
			const answeredSeq = await new Promise<number>((resolve, reject) => {
				const req = http.request(
					{
						host: '127.0.0.1',
						port,
						method: postOptions.method ?? 'POST',
						path: postOptions.path ?? routePath,
						headers,
						localAddress: postOptions.localAddress,
						agent: false,
					},
					(res) => {
						res.resume();
						res.on('end', () => resolve(Number(res.headers['x-harness-call'])));
					},
				);
				req.on('error', reject);
				req.end(text);
			});
			// The call record is complete once its execution (if any) has finished.
			const [call] = await waitFor(() => calls.filter((c) => c.seq === answeredSeq), 1, 10_000);
			return call;
		},
		async lifecycle(method) {
			const workflow = buildWorkflow();
			const additionalData = buildAdditionalData({ store: options.store, mode, workflowData });
			const webhookData = webhookDataFor(additionalData);
			const context = new HookContext(
				workflow,
				workflow.getNode(TRIGGER_NAME)!,
				additionalData,
				mode,
				'activate',
				webhookData,
			);
			const fn = nodeType.webhookMethods?.default?.[method];
			if (!fn) throw new Error(`The trigger has no webhookMethods.default.${method}`);
			const mark = logMark();
			try {
				const result = await fn.call(context);
				return { result, logs: logLinesSince(mark) };
			} catch (error) {
				return { error: error as Error, logs: logLinesSince(mark) };
			}
		},
		async waitForCalls(count, timeoutMs = 10_000) {
			return await waitFor(() => calls, count, timeoutMs);
		},
		async close() {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};

	async function waitFor(
		select: () => WebhookCall[],
		count: number,
		timeoutMs: number,
	): Promise<WebhookCall[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const found = select();
			if (found.length >= count) return found;
			const left = deadline - Date.now();
			if (left <= 0)
				throw new Error(`Timed out waiting for ${count} webhook call(s); got ${found.length}`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, Math.min(left, 1000));
				waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
	}
}

/** The trigger node class loaded in a module registry of its own: a new process's copy. */
function freshTriggerNode(): INodeType {
	let fresh: INodeType | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const loaded = require('../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node') as {
			PaymentGatewayTrigger: new () => INodeType;
		};
		fresh = new loaded.PaymentGatewayTrigger();
	});
	return fresh!;
}

function respond(res: http.ServerResponse, call: WebhookCall, code: number, body: unknown): void {
	call.body = body;
	sendJson(res, code, body);
}

function sendJson(res: http.ServerResponse, code: number, body: unknown): void {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	res.writeHead(code, {
		'content-type': typeof body === 'string' ? 'text/plain' : 'application/json; charset=utf-8',
	});
	res.end(text);
}

async function readRaw(req: http.IncomingMessage): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > PAYLOAD_SIZE_MAX) return undefined;
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** express `req.ip` with `trust proxy` set to a hop count (n8n's N8N_PROXY_HOPS). */
function clientIp(req: http.IncomingMessage, hops: number): string | undefined {
	const forwarded = String(req.headers['x-forwarded-for'] ?? '')
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean)
		.reverse();
	const addresses = [req.socket.remoteAddress ?? '', ...forwarded];
	return addresses[Math.min(hops, addresses.length - 1)];
}

// What the node wrote itself (noWebhookResponse), kept for the test to read.
const written = new WeakMap<http.ServerResponse, Buffer[]>();

function captureBody(res: http.ServerResponse): void {
	const chunks: Buffer[] = [];
	written.set(res, chunks);
	const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
	res.end = ((...args: unknown[]) => {
		const first = args[0];
		if (typeof first === 'string' || Buffer.isBuffer(first))
			chunks.push(Buffer.from(first as string));
		return end(...args);
	}) as typeof res.end;
}

function capturedBody(res: http.ServerResponse): string {
	return Buffer.concat(written.get(res) ?? []).toString('utf8');
}

function parseMaybe(text: string): unknown {
	try {
		return JSON.parse(text) as IDataObject;
	} catch {
		return text;
	}
}
