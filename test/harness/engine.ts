/**
 * Runs workflows in n8n's own engine (n8n-core WorkflowExecute, manual mode) with the harness's
 * credentials helper, so nodes execute exactly as in n8n: parameters, expressions, credentials,
 * token refresh, continue-on-fail and error outputs included. Every result passes the secret
 * guard before a test sees it.
 */
import './bootstrap';

import { WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	IConnections,
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	IPinData,
	IRun,
	IWorkflowBase,
	OnError,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additionalData';
import type { CredentialStore } from './credentialStore';
import type { LogLine } from './logging';
import { logLinesSince, logMark } from './logging';
import type { AnyNodeType, HarnessNodeTypes } from './nodeTypes';
import { ITEMS_NODE_TYPE, MANUAL_TRIGGER_TYPE, defaultNodeTypes, itemsNode } from './nodeTypes';
import { assertNoSecret, assertNoSecretInLogs, toText } from './secretGuard';

/** A workflow node as tests write it: id, position and typeVersion are filled in. */
export type WorkflowNode = Omit<INode, 'id' | 'position' | 'typeVersion'> &
	Partial<Pick<INode, 'id' | 'position' | 'typeVersion'>>;

export interface RunWorkflowOptions {
	nodes: WorkflowNode[];
	connections: IConnections;
	store: CredentialStore;
	/** Defaults to defaultNodeTypes(). */
	nodeTypes?: HarnessNodeTypes;
	/** Test-only node types for this run; registered under nodeTypeName(type). */
	extraNodeTypes?: AnyNodeType[];
	/** Name of the node to start from; default the Manual Trigger, else the first node. */
	startNode?: string;
	pinData?: IPinData;
}

export interface WorkflowRunResult {
	run: IRun;
	/** Items of each output index of a node's run (`[]` when it did not run or failed). */
	outputOf(nodeName: string, runIndex?: number): INodeExecutionData[][];
	/** The error a node's run ended with (stop-workflow mode), if any. */
	errorOf(nodeName: string, runIndex?: number): ExecutionError | undefined;
	/** The error that stopped the run, if any. */
	runError: ExecutionError | undefined;
	/** Names of the nodes that ran, in order. */
	executedNodes: string[];
	/** n8n's log lines written during the run. */
	logs: LogLine[];
}

/** A workflow ready for WorkflowExecute, built as n8n builds one for a manual run. */
export interface PreparedWorkflow {
	workflow: Workflow;
	nodes: INode[];
	/** The workflow as n8n's database holds it (an execution's `workflowData`). */
	workflowData: IWorkflowBase;
	additionalData: ReturnType<typeof buildAdditionalData>;
}

/**
 * Fills in ids, positions and type versions, builds the Workflow and the additionalData (with the
 * harness's credentials helper). Shared by runWorkflow and the benchmark, which times the run
 * itself and skips the secret scan.
 */
export function prepareWorkflow(
	options: Pick<RunWorkflowOptions, 'nodes' | 'connections' | 'store' | 'pinData'> & {
		nodeTypes: HarnessNodeTypes;
	},
): PreparedWorkflow {
	const { nodeTypes } = options;
	const nodes: INode[] = options.nodes.map((node, index) => ({
		...node,
		id: node.id ?? `node-${index + 1}`,
		position: node.position ?? [index * 220, 0],
		typeVersion: node.typeVersion ?? latestVersion(nodeTypes.getByName(node.type)),
	}));
	const executionId = nextExecutionId();
	const workflowData: IWorkflowBase = {
		id: `workflow-${executionId}`,
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: options.connections,
		settings: { executionOrder: 'v1' },
	};
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections: options.connections,
		active: false,
		nodeTypes,
		settings: workflowData.settings,
		pinData: options.pinData,
	});
	const additionalData = buildAdditionalData({
		store: options.store,
		mode: 'manual',
		executionId,
		workflowData,
	});
	return { workflow, nodes, workflowData, additionalData };
}

export async function runWorkflow(options: RunWorkflowOptions): Promise<WorkflowRunResult> {
	const nodeTypes = (options.nodeTypes ?? defaultNodeTypes()).clone();
	for (const nodeType of options.extraNodeTypes ?? []) nodeTypes.register(nodeType);
	const { workflow, nodes, additionalData } = prepareWorkflow({ ...options, nodeTypes });
	const executedNodes: string[] = [];
	additionalData.hooks?.addHandler('nodeExecuteBefore', (nodeName) => {
		executedNodes.push(nodeName);
	});

	const startName =
		options.startNode ??
		nodes.find((node) => node.type === MANUAL_TRIGGER_TYPE)?.name ??
		nodes[0].name;
	const startNode = workflow.getNode(startName);
	if (!startNode) throw new Error(`No node named "${startName}" to start from`);

	const mark = logMark();
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode,
		pinData: options.pinData,
	});
	const logs = logLinesSince(mark);

	const result: WorkflowRunResult = {
		run,
		outputOf: (nodeName, runIndex = 0) =>
			(run.data.resultData.runData[nodeName]?.[runIndex]?.data?.main ?? []).map(
				(items) => items ?? [],
			),
		errorOf: (nodeName, runIndex = 0) => run.data.resultData.runData[nodeName]?.[runIndex]?.error,
		runError: run.data.resultData.error,
		executedNodes,
		logs,
	};
	guardRun(options.store, result);
	return result;
}

/** Everything of a run a user or the database could see, scanned for the store's secrets. */
function guardRun(store: CredentialStore, result: WorkflowRunResult): void {
	const { runData, error } = result.run.data.resultData;
	for (const [nodeName, runs] of Object.entries(runData)) {
		runs.forEach((taskData, runIndex) => {
			for (const [outputIndex, items] of (taskData.data?.main ?? []).entries()) {
				for (const [itemIndex, item] of (items ?? []).entries()) {
					assertNoSecret(
						store,
						`output ${outputIndex} item ${itemIndex} of "${nodeName}" (run ${runIndex})`,
						item,
					);
				}
			}
			if (taskData.error)
				assertNoSecret(store, `the error of "${nodeName}"`, describeError(taskData.error));
		});
	}
	if (error) assertNoSecret(store, 'the error of the run', describeError(error));
	// What n8n would save as the execution (errors through their toJSON), in one piece.
	assertNoSecret(store, 'the saved execution data', result.run.data);
	assertNoSecretInLogs(store, result.logs);
}

/** The parts of an n8n error the editor shows (toJSON drops some of them). */
function describeError(error: ExecutionError): IDataObject {
	const shown = error as ExecutionError & {
		httpCode?: unknown;
		messages?: unknown;
		errorResponse?: unknown;
	};
	return {
		saved: toText(error),
		message: error.message,
		description: error.description,
		context: error.context,
		httpCode: shown.httpCode as string,
		messages: shown.messages as string[],
		errorResponse: shown.errorResponse as IDataObject,
	};
}

function latestVersion(nodeType: AnyNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? version[version.length - 1] : version;
}

export interface RunNodeOptions {
	/** A registered type name, or a node type instance (registered for this run). */
	type: string | AnyNodeType;
	parameters: INode['parameters'];
	/**
	 * `{ [credentialType]: { id, name } }`. Default: for each credential the node type declares,
	 * the first one of that type in the store.
	 */
	credentials?: INodeCredentials;
	/** The items the node receives (default one empty item). `[]` means the node does not run. */
	items?: IDataObject[];
	/** n8n's "On Error" setting of the node; default stopWorkflow. */
	onError?: OnError;
	store: CredentialStore;
	typeVersion?: number;
	/** Node name in the workflow (shows in error messages); default 'Node'. */
	name?: string;
	nodeTypes?: HarnessNodeTypes;
	/** Other settings of the node (retryOnFail, alwaysOutputData, executeOnce...). */
	nodeSettings?: Partial<INode>;
}

export interface NodeRunError {
	message: string;
	description?: string | null;
	/** HTTP status as a string (n8n's NodeApiError), when the error came from a response. */
	httpCode?: string | null;
	context?: IDataObject;
	/** The error object n8n recorded. */
	error: ExecutionError;
}

export interface NodeRunResult {
	/** Items of each output index of the node under test (with continueErrorOutput, [1] holds the failed items). */
	outputs: INodeExecutionData[][];
	/** Set when the node failed the run (onError stopWorkflow). */
	error?: NodeRunError;
	/** The whole run: Manual Trigger -> Items -> node under test. */
	run: WorkflowRunResult;
}

/** Runs one node on the given items: Manual Trigger -> Items -> the node, in n8n's engine. */
export async function runNode(options: RunNodeOptions): Promise<NodeRunResult> {
	const nodeTypes = (options.nodeTypes ?? defaultNodeTypes()).clone();
	const type = typeof options.type === 'string' ? options.type : nodeTypes.register(options.type);
	const nodeType = nodeTypes.getByNameAndVersion(type, options.typeVersion);
	nodeTypes.register(itemsNode(options.items ?? [{}]));
	const name = options.name ?? 'Node';
	const credentials =
		options.credentials ?? options.store.credentialsFor(nodeType.description.credentials);
	const onError = options.onError ?? 'stopWorkflow';

	const run = await runWorkflow({
		store: options.store,
		nodeTypes,
		nodes: [
			{ name: 'Trigger', type: MANUAL_TRIGGER_TYPE, parameters: {} },
			{ name: 'Items', type: ITEMS_NODE_TYPE, parameters: {} },
			{
				...options.nodeSettings,
				name,
				type,
				typeVersion: options.typeVersion,
				parameters: options.parameters,
				credentials,
				// The editor's "On Error" setting; n8n derives continueOnFail() from it.
				onError,
			},
		],
		connections: {
			Trigger: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: name, type: 'main', index: 0 }]] },
		},
	});

	const error = run.errorOf(name);
	return {
		outputs: run.outputOf(name),
		error: error && {
			message: error.message,
			description: error.description,
			httpCode: (error as { httpCode?: string | null }).httpCode,
			context: error.context,
			error,
		},
		run,
	};
}

// Loading options belongs with the engine for callers; it lives in its own file.
export { listSearch, loadOptions } from './editorRequests';
