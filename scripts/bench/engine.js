'use strict';
// Runs one workflow in n8n's engine (n8n-core WorkflowExecute, manual mode) with the test
// harness's pieces: its credentials helper (preAuthentication and token write-back as n8n's
// server does it), its node types and its additionalData. Unlike the harness's runWorkflow it
// does not scan every output item for secrets (a test's guard, not something n8n does), and it
// times each node through n8n's own lifecycle hooks.
const path = require('path');
const Module = require('module');

const ROOT = path.resolve(__dirname, '..', '..');
const APP_MODULES = path.join(ROOT, '.n8n-app', 'node_modules');

require('ts-node').register({ transpileOnly: true, project: path.join(ROOT, 'tsconfig.json') });

const { WorkflowExecute } = require('n8n-core');
const { prepareWorkflow } = require(path.join(ROOT, 'test/harness/engine'));
const { CredentialStore } = require(path.join(ROOT, 'test/harness/credentialStore'));
const nodeTypesModule = require(path.join(ROOT, 'test/harness/nodeTypes'));

const { MANUAL_TRIGGER_TYPE, defaultNodeTypes, itemsNode } = nodeTypesModule;

/**
 * Inside a real n8n process every node shares the process's one n8n-workflow and n8n-core. The
 * installed app has its own copies (same versions), so requests for them from the app's
 * n8n-nodes-base go to the copies the engine here uses; error classes then compare as in n8n.
 */
const SHARED = new Set(['n8n-workflow', 'n8n-core']);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveShared(request, parent, ...rest) {
	if (SHARED.has(request) && parent && parent.filename && parent.filename.startsWith(APP_MODULES)) {
		return resolveFilename.call(this, request, module, ...rest);
	}
	return resolveFilename.call(this, request, parent, ...rest);
};

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


module.exports = { runBenchWorkflow, appNodeType, packageNodeType, CredentialStore, MANUAL_TRIGGER_TYPE, APP_MODULES };
