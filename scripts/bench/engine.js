'use strict';
// Runs one workflow in n8n's engine (n8n-core WorkflowExecute, manual mode) with the test
// harness's pieces: its credentials helper (preAuthentication and token write-back as n8n's
// server does it), its node types and its additionalData. Unlike the harness's runWorkflow it
// does not scan every output item for secrets (a test's guard, not something n8n does), and it
// times each node through n8n's own lifecycle hooks.
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
// Set by runChild through n8nModules.use() before this file loads: which n8n-core this is.
const { appModules: APP_MODULES } = require('./n8nModules').current();

require('ts-node').register({ transpileOnly: true, project: path.join(ROOT, 'tsconfig.json') });

const { WorkflowExecute } = require('n8n-core');
const { Expression } = require('n8n-workflow');
const { prepareWorkflow } = require(path.join(ROOT, 'test/harness/engine'));
const { CredentialStore } = require(path.join(ROOT, 'test/harness/credentialStore'));
const nodeTypesModule = require(path.join(ROOT, 'test/harness/nodeTypes'));

const { MANUAL_TRIGGER_TYPE, defaultNodeTypes, itemsNode } = nodeTypesModule;

/**
 * Starts the expression engine as n8n's start-up does (n8n 2.x's BaseCommand): the one its
 * configuration names (@n8n/config, N8N_EXPRESSION_ENGINE; default vm = isolated-vm since 2.x),
 * with that configuration's pool size and limits. n8n-core 2.8 has no such choice: legacy.
 * @returns {Promise<string>} the implementation expressions now run in
 */
async function startExpressionEngine() {
	if (typeof Expression.initExpressionEngine !== 'function') return 'legacy';
	const { Container } = require('@n8n/di');
	const { GlobalConfig } = require('@n8n/config');
	const config = Container.get(GlobalConfig).expressionEngine;
	if (config.engine === 'legacy') Expression.setExpressionEngine('legacy');
	else {
		await Expression.initExpressionEngine({
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
	return Expression.getActiveImplementation();
}

async function stopExpressionEngine() {
	if (typeof Expression.disposeExpressionEngine === 'function') await Expression.disposeExpressionEngine();
}

/** A node type of the installed n8n app, e.g. ('HttpRequest/HttpRequest.node', 'HttpRequest'). */
function appNodeType(file, className, typeName) {
	const loaded = require(path.join(APP_MODULES, 'n8n-nodes-base', 'dist', 'nodes', file));
	const nodeType = new loaded[className]();
	return { typeName, nodeType };
}

/** One of our nodes, by its DESIGN.md name, for a bench workflow's extra node types. */
function packageNodeType(name) {
	const entry = nodeTypesModule.PACKAGE_NODES.find((node) => node.name === name);
	const loaded = require(path.join(ROOT, `${entry.file}.ts`));
	return { typeName: `${nodeTypesModule.PACKAGE_NAME}.${name}`, nodeType: new loaded[entry.className]() };
}

/**
 * @param {{ nodes: object[], connections: object, store: object, items: object[], extraTypes?: Array<{typeName: string, nodeType: object}> }} options
 * @returns {Promise<{ run: object, wallMs: number, nodeMs: Record<string, number>, cpuMs: number, cpuSystemMs: number }>}
 */
async function runBenchWorkflow(options) {
	const nodeTypes = defaultNodeTypes();
	nodeTypes.register(itemsNode(options.items));
	for (const { typeName, nodeType } of options.extraTypes || []) nodeTypes.register(nodeType, typeName);

	const { workflow, nodes, additionalData } = prepareWorkflow({ ...options, nodeTypes });
	const nodeMs = {};
	const startedAt = {};
	additionalData.hooks.addHandler('nodeExecuteBefore', (name) => {
		startedAt[name] = performance.now();
	});
	additionalData.hooks.addHandler('nodeExecuteAfter', (name) => {
		nodeMs[name] = (nodeMs[name] || 0) + performance.now() - startedAt[name];
	});

	const startNode = workflow.getNode(nodes.find((node) => node.type === MANUAL_TRIGGER_TYPE).name);
	const cpuBefore = process.cpuUsage();
	const before = performance.now();
	const run = await new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode });
	const wallMs = performance.now() - before;
	const cpu = process.cpuUsage(cpuBefore);
	return { run, wallMs, nodeMs, cpuMs: (cpu.user + cpu.system) / 1000, cpuSystemMs: cpu.system / 1000 };
}


module.exports = { runBenchWorkflow, startExpressionEngine, stopExpressionEngine, appNodeType, packageNodeType, CredentialStore, MANUAL_TRIGGER_TYPE, APP_MODULES };
