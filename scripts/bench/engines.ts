// The n8n engines a run can use (`--engine`): the n8n-core the tests use, on this machine's
// Node.js, and the newest n8n-core from the installed n8n app, on the Node.js that n8n requires,
// with its default expression engine (isolated-vm) or its legacy one.
import path from 'path';

import { ensureNode, installedVersion } from '../n8n/app';
import { appDir, ROOT } from '../n8n/paths';
import { targetFor } from '../n8n/targets';

export const ENGINES: Record<
	string,
	{ n8n: string; coreFromApp: boolean; expressionEngine?: string }
> = {
	// n8n-core from the project's own node_modules (what jest uses); the app only lends its nodes.
	'2.8': { n8n: '2.8.4', coreFromApp: false },
	// No expression engine set: @n8n/config's default (vm, isolated-vm), what n8n 2.41 runs.
	'2.41': { n8n: '2.41.1', coreFromApp: true },
	'2.41-legacy': { n8n: '2.41.1', coreFromApp: true, expressionEngine: 'legacy' },
};

/** An engine ready to run on this machine. */
export type Engine = Awaited<ReturnType<typeof resolveEngine>>;

/**
 * What a run process needs to use the engine. Fetches its Node.js from the npm registry when it is
 * missing (as the e2e matrix does); throws with the reason when the engine cannot run here.
 */
export async function resolveEngine(id: string) {
	const { n8n, coreFromApp, expressionEngine } = ENGINES[id];
	const appModules = path.join(appDir(n8n), 'node_modules');
	const coreModules = coreFromApp ? appModules : path.join(ROOT, 'node_modules');
	if (coreFromApp && !installedVersion(appModules, 'n8n-core')) {
		throw new Error(
			`engine ${id} needs n8n ${n8n} installed in ${path.relative(ROOT, appDir(n8n))} (npx ts-node --transpile-only scripts/n8n/app.ts ${n8n} installs it)`,
		);
	}
	let execPath = process.execPath;
	let nodeVersion = process.version;
	if (coreFromApp) {
		const node = await ensureNode(targetFor(n8n).node);
		execPath = path.join(node.binDir, 'node');
		nodeVersion = `v${node.version}`;
	}
	const env = { ...process.env };
	delete env.N8N_EXPRESSION_ENGINE;
	if (expressionEngine) env.N8N_EXPRESSION_ENGINE = expressionEngine;
	return {
		id,
		/** The Node.js to run on, its version and environment. */
		execPath,
		nodeVersion,
		env,
		/** Where n8n-core and n8n-workflow come from; the app's node_modules (the HTTP Request node). */
		coreModules,
		coreFromApp,
		appModules,
		appVersion: installedVersion(appModules, 'n8n'),
		n8nCore: installedVersion(coreModules, 'n8n-core'),
		n8nWorkflow: installedVersion(coreModules, 'n8n-workflow'),
	};
}
