// The n8n engines a benchmark run can use (`--engine`): the n8n-core the tests use, on this
// machine's Node.js, and the newest n8n-core from the installed n8n app, on the Node.js that n8n
// requires, with its default expression engine (isolated-vm) or its legacy one.
import fs from 'fs';
import path from 'path';

import { appDir } from '../n8n/paths';
import { targetFor } from '../n8n/targets';
import { ensureNode } from '../n8n/app';

export interface EngineSpec {
	id: string;
	/** The n8n app whose nodes (and, with coreFromApp, whose n8n-core) a run uses. */
	n8n: string;
	coreFromApp: boolean;
	expressionEngine: string | undefined;
}

/** An engine ready to run on this machine. */
export interface Engine {
	id: string;
	execPath: string;
	nodeVersion: string;
	env: NodeJS.ProcessEnv;
	coreModules: string;
	coreFromApp: boolean;
	appModules: string;
	appVersion?: string;
	n8nCore?: string;
	n8nWorkflow?: string;
}

const ROOT = path.resolve(__dirname, '..', '..');

export const ENGINES: Record<string, EngineSpec> = {
	'2.8': {
		id: '2.8',
		n8n: '2.8.4',
		// n8n-core comes from the project's own node_modules (what jest uses); the app only lends its nodes.
		coreFromApp: false,
		expressionEngine: undefined,
	},
	'2.41': {
		id: '2.41',
		n8n: '2.41.1',
		coreFromApp: true,
		// Unset: @n8n/config's default (N8N_EXPRESSION_ENGINE=vm, isolated-vm), what n8n 2.41 runs.
		expressionEngine: undefined,
	},
	'2.41-legacy': {
		id: '2.41-legacy',
		n8n: '2.41.1',
		coreFromApp: true,
		expressionEngine: 'legacy',
	},
};
export const ENGINE_IDS = Object.keys(ENGINES);

const appModules = (engine: EngineSpec) => path.join(appDir(engine.n8n), 'node_modules');

function readVersion(dir: string, name: string): string | undefined {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, name, 'package.json'), 'utf8')).version;
	} catch {
		return undefined;
	}
}

/**
 * What a run process needs to use the engine: the Node.js binary, the folder n8n-core and
 * n8n-workflow come from, the app's node_modules (HTTP Request node) and the environment.
 * Fetches that Node.js from the npm registry when it is missing (as the e2e matrix does); throws
 * with the reason when the engine cannot run here.
 */
export async function resolveEngine(id: string): Promise<Engine> {
	const engine = ENGINES[id];
	if (!engine) throw new Error(`unknown engine ${id}; known: ${ENGINE_IDS.join(', ')}`);
	const modules = appModules(engine);
	const coreModules = engine.coreFromApp ? modules : path.join(ROOT, 'node_modules');
	if (engine.coreFromApp && !readVersion(modules, 'n8n-core')) {
		throw new Error(
			`engine ${id} needs n8n ${engine.n8n} installed in ${path.relative(ROOT, appDir(engine.n8n))} (npm run e2e -- ${engine.n8n} installs it)`,
		);
	}
	let execPath = process.execPath;
	let nodeVersion = process.version;
	if (engine.coreFromApp) {
		const node = await ensureNode(targetFor(engine.n8n).node);
		execPath = path.join(node.binDir, 'node');
		nodeVersion = `v${node.version}`;
	}
	const env = { ...process.env };
	delete env.N8N_EXPRESSION_ENGINE;
	if (engine.expressionEngine) env.N8N_EXPRESSION_ENGINE = engine.expressionEngine;
	return {
		id,
		execPath,
		nodeVersion,
		env,
		coreModules,
		coreFromApp: engine.coreFromApp,
		appModules: modules,
		appVersion: readVersion(modules, 'n8n'),
		n8nCore: readVersion(coreModules, 'n8n-core'),
		n8nWorkflow: readVersion(coreModules, 'n8n-workflow'),
	};
}

/** "n8n-core 2.41.1, Node.js v24.21.0, expression engine vm" (the expression engine as the run reported it). */
export function engineLabel(engine: Engine, expressionEngine?: string): string {
	return `n8n-core ${engine.n8nCore}, Node.js ${engine.nodeVersion}${expressionEngine ? `, expression engine ${expressionEngine}` : ''}`;
}
