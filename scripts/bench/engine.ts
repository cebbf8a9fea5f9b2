// Runs one workflow in n8n's engine (n8n-core WorkflowExecute, manual mode) with the test
// harness's pieces: its credentials helper (preAuthentication and token write-back as n8n's
// server does it), its node types and its additionalData. Unlike the harness's runWorkflow it
// does not scan every output item for secrets (a test's guard, not something n8n does), and it
// times each node through n8n's own lifecycle hooks.
// Load this file only after n8nModules.use(): its imports of n8n-core and n8n-workflow (and the
// harness's) must resolve to the run's engine.
import path from 'path';
import { WorkflowExecute } from 'n8n-core';
import { Expression, type IDataObject, type INodeType, type IRun } from 'n8n-workflow';

import { prepareWorkflow, type RunWorkflowOptions } from '../../test/harness/engine';
import { CredentialStore } from '../../test/harness/credentialStore';
import * as nodeTypesModule from '../../test/harness/nodeTypes';
import { current } from './n8nModules';

const ROOT = path.resolve(__dirname, '..', '..');
// Set by runChild through n8nModules.use() before this file loads: which n8n-core this is.
export const APP_MODULES = current().appModules;

const { MANUAL_TRIGGER_TYPE, defaultNodeTypes, itemsNode } = nodeTypesModule;
export { CredentialStore, MANUAL_TRIGGER_TYPE };

/** n8n-workflow 2.41's expression engine switch; absent in 2.8 (its types are the project's). */
interface ExpressionEngines {
	initExpressionEngine?: (options: Record<string, unknown>) => Promise<void>;
	setExpressionEngine(engine: string): void;
	getActiveImplementation(): string;
	disposeExpressionEngine?: () => Promise<void>;
}
const engines = Expression as unknown as ExpressionEngines;

export interface ExtraNodeType {
	typeName: string;
	nodeType: INodeType;
}

/**
 * Starts the expression engine as n8n's start-up does (n8n 2.x's BaseCommand): the one its
 * configuration names (@n8n/config, N8N_EXPRESSION_ENGINE; default vm = isolated-vm since 2.x),
 * with that configuration's pool size and limits. n8n-core 2.8 has no such choice: legacy.
 * Resolves with the implementation expressions now run in.
 */
export async function startExpressionEngine(): Promise<string> {
	if (typeof engines.initExpressionEngine !== 'function') return 'legacy';
	// Only n8n 2.41's own install has these (resolved in it by n8nModules), hence untyped here.
	const { Container } = await loadModule('@n8n/di');
	const { GlobalConfig } = await loadModule('@n8n/config');
	const config = Container.get(GlobalConfig).expressionEngine;
	if (config.engine === 'legacy') engines.setExpressionEngine('legacy');
	else {
		await engines.initExpressionEngine({
			engine: config.engine,
			poolSize: config.poolSize,
			maxCodeCacheSize: config.maxCodeCacheSize,
			bridgeTimeout: config.bridgeTimeout,
			bridgeMemoryLimit: config.bridgeMemoryLimit,
			idleTimeoutMs: config.idleTimeout === undefined ? undefined : config.idleTimeout * 1000,
			lazyAcquire: config.lazyAcquire,
			compileCache: config.compileCache,
		});
	}
	return engines.getActiveImplementation();
}

export async function stopExpressionEngine(): Promise<void> {
	if (typeof engines.disposeExpressionEngine === 'function')
		await engines.disposeExpressionEngine();
}

/** A module known only at run time (the engine's own install, a node file): loaded as n8n would. */
const loadModule = async (id: string) => await import(id);

/** A node type of the installed n8n app, e.g. ('HttpRequest/HttpRequest.node', 'HttpRequest'). */
export async function appNodeType(
	file: string,
	className: string,
	typeName: string,
): Promise<ExtraNodeType> {
	const loaded = await loadModule(path.join(APP_MODULES, 'n8n-nodes-base', 'dist', 'nodes', file));
	const nodeType = new loaded[className]();
	return { typeName, nodeType };
}

/** One of our nodes, by its stable name (docs/DEVELOPMENT.md), for a bench workflow's extra node types. */
export async function packageNodeType(name: string): Promise<ExtraNodeType> {
	const entry = nodeTypesModule.PACKAGE_NODES.find((node) => node.name === name);
	if (!entry) throw new Error(`no node ${name} in this package`);
	// With the extension: beside each node sits its codex, Disbursement.node.json.
	const loaded = await loadModule(path.join(ROOT, `${entry.file}.ts`));
	return {
		typeName: `${nodeTypesModule.PACKAGE_NAME}.${name}`,
		nodeType: new loaded[entry.className](),
	};
}

export interface BenchRunOptions
	extends Pick<RunWorkflowOptions, 'nodes' | 'connections' | 'store'> {
	items: IDataObject[];
	extraTypes?: ExtraNodeType[];
}

export interface BenchRun {
	run: IRun;
	wallMs: number;
	nodeMs: Record<string, number>;
	cpuMs: number;
	cpuSystemMs: number;
}

export async function runBenchWorkflow(options: BenchRunOptions): Promise<BenchRun> {
	const nodeTypes = defaultNodeTypes();
	nodeTypes.register(itemsNode(options.items));
	for (const { typeName, nodeType } of options.extraTypes || [])
		nodeTypes.register(nodeType, typeName);

	const { workflow, nodes, additionalData } = prepareWorkflow({ ...options, nodeTypes });
	const nodeMs: Record<string, number> = {};
	const startedAt: Record<string, number> = {};
	additionalData.hooks!.addHandler('nodeExecuteBefore', (name) => {
		startedAt[name] = performance.now();
	});
	additionalData.hooks!.addHandler('nodeExecuteAfter', (name) => {
		nodeMs[name] = (nodeMs[name] || 0) + performance.now() - startedAt[name];
	});

	const startNode =
		workflow.getNode(nodes.find((node) => node.type === MANUAL_TRIGGER_TYPE)!.name) ?? undefined;
	const cpuBefore = process.cpuUsage();
	const before = performance.now();
	const run = await new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode });
	const wallMs = performance.now() - before;
	const cpu = process.cpuUsage(cpuBefore);
	return {
		run,
		wallMs,
		nodeMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		cpuSystemMs: cpu.system / 1000,
	};
}
