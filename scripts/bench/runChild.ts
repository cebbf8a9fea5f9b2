// One benchmark run in a fresh process, so peak RSS belongs to this run alone. Started by
// scripts/bench.ts with the run as JSON in argv[2], after engineModules.ts (preloaded) chose the
// engine's n8n-core; writes what it measured, as JSON, to the run's `answerFile`.
// The workflow runs in n8n-core's WorkflowExecute (manual mode) with the test harness's pieces:
// its credentials helper (preAuthentication and token write-back as n8n's server does it), its
// node types and additionalData. Unlike the harness's runWorkflow it does not scan the outputs for
// secrets (a test's guard, not something n8n does); it times each node through n8n's hooks.
import fs from 'fs';
import inspector from 'inspector';
import path from 'path';
import { monitorEventLoopDelay } from 'perf_hooks';
import { WorkflowExecute } from 'n8n-core';
import { Expression, type IDataObject, type INodeType, type IRun } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../sandbox/credentials';
import { CredentialStore } from '../../test/harness/credentialStore';
import { prepareWorkflow } from '../../test/harness/engine';
import * as harness from '../../test/harness/nodeTypes';
import { HTTP_REQUEST_TYPE, LOOP_TYPE, payoutItems, ROUTES, type BenchWorkflow } from './workflows';
import { ROOT } from '../n8n/paths';

const LOOP_RESOLUTION_MS = 10;
const MB = 2 ** 20;

/** One run, as scripts/bench.ts describes it. */
export interface RunSpec {
	route: string;
	n: number;
	concurrency: number;
	latencyMs: number;
	url: string;
	/** Makes the run's reference numbers its own. */
	tag: string;
	engineId: string;
	appModules: string;
	profile?: string;
	answerFile: string;
}

/** n8n-workflow 2.41's expression engine switch; absent in 2.8 (its types are the project's). */
const expressions = Expression as unknown as {
	initExpressionEngine?: (options: Record<string, unknown>) => Promise<void>;
	setExpressionEngine(engine: string): void;
	getActiveImplementation(): string;
	disposeExpressionEngine?: () => Promise<void>;
};

/** A module known only at run time (the engine's own install, a node file): loaded as n8n would. */
const loadModule = async (id: string) => await import(id);

/**
 * Starts the expression engine as n8n's start-up does (n8n 2.x's BaseCommand): the one its
 * configuration names (@n8n/config, N8N_EXPRESSION_ENGINE; default vm = isolated-vm since 2.x),
 * with that configuration's pool size and limits. n8n-core 2.8 has no such choice: legacy.
 * Resolves with the implementation expressions now run in.
 */
async function startExpressionEngine(): Promise<string> {
	if (typeof expressions.initExpressionEngine !== 'function') return 'legacy';
	// Only n8n 2.41's own install has these (resolved in it by engineModules), hence untyped here.
	const { Container } = await loadModule('@n8n/di');
	const { GlobalConfig } = await loadModule('@n8n/config');
	const config = Container.get(GlobalConfig).expressionEngine;
	if (config.engine === 'legacy') expressions.setExpressionEngine('legacy');
	else {
		await expressions.initExpressionEngine({
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
	return expressions.getActiveImplementation();
}

/** The node types the workflow needs besides the harness's: ours, or the app's HTTP Request and loop. */
async function nodeTypesFor(spec: RunSpec, workflow: BenchWorkflow, store: CredentialStore) {
	const types = harness.defaultNodeTypes();
	const add = async (file: string, className: string, typeName: string) => {
		const loaded = await loadModule(file);
		types.register(new loaded[className]() as INodeType, typeName);
	};
	if (!workflow.credentialType) {
		const nodes = path.join(spec.appModules, 'n8n-nodes-base', 'dist', 'nodes');
		await add(
			path.join(nodes, 'HttpRequest', 'HttpRequest.node'),
			'HttpRequest',
			HTTP_REQUEST_TYPE,
		);
		await add(
			path.join(nodes, 'SplitInBatches', 'SplitInBatches.node'),
			'SplitInBatches',
			LOOP_TYPE,
		);
		return types;
	}
	const { username, password } = SANDBOX_CREDENTIALS.disbursement;
	const credentials = { environment: 'sandbox', baseUrl: spec.url, username, password };
	const ref = store.add(workflow.credentialType, credentials);
	for (const node of workflow.nodes) {
		if (node.type.endsWith('.disbursement')) node.credentials = { [workflow.credentialType]: ref };
	}
	const entry = harness.PACKAGE_NODES.find((node) => node.name === 'disbursement')!;
	// With the extension, as the harness loads the node's own file.
	await add(
		path.join(ROOT, `${entry.file}.ts`),
		entry.className,
		`${harness.PACKAGE_NAME}.disbursement`,
	);
	return types;
}

async function main(spec: RunSpec) {
	const loadStarted = performance.now();
	const expressionEngine = await startExpressionEngine();
	const workflow = ROUTES[spec.route].build({
		...spec,
		credentials: SANDBOX_CREDENTIALS.disbursement,
	});
	const store = new CredentialStore();
	const nodeTypes = await nodeTypesFor(spec, workflow, store);
	nodeTypes.register(harness.itemsNode(payoutItems(spec.n, spec.tag)));
	const prepared = prepareWorkflow({ ...workflow, store, nodeTypes });
	const { additionalData } = prepared;
	const nodeMs: Record<string, number> = {};
	const startedAt: Record<string, number> = {};
	additionalData.hooks!.addHandler('nodeExecuteBefore', (name) => {
		startedAt[name] = performance.now();
	});
	additionalData.hooks!.addHandler('nodeExecuteAfter', (name) => {
		nodeMs[name] = (nodeMs[name] || 0) + performance.now() - startedAt[name];
	});
	const trigger = prepared.nodes.find((node) => node.type === harness.MANUAL_TRIGGER_TYPE)!;
	const startNode = prepared.workflow.getNode(trigger.name) ?? undefined;
	const loadMs = performance.now() - loadStarted;
	global.gc?.();
	const rssBeforeMb = process.memoryUsage().rss / MB;

	// Peak of the JS heap in use, sampled: with peak RSS it tells live data from garbage not yet collected.
	let peakHeapMb = process.memoryUsage().heapUsed / MB;
	const sampler = setInterval(() => {
		peakHeapMb = Math.max(peakHeapMb, process.memoryUsage().heapUsed / MB);
	}, 50);
	// How late the event loop ran its callbacks: time a ready response waited for the engine.
	// The histogram counts whole intervals of the timer, so its resolution is taken off below.
	const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
	loopDelay.enable();
	const profiler = spec.profile ? await startProfile() : undefined;

	// Timed: WorkflowExecute.run, wall time and this process's CPU time (user + kernel).
	const cpu = process.cpuUsage();
	const started = performance.now();
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow: prepared.workflow,
		startNode,
	});
	const wallMs = performance.now() - started;
	const { user, system } = process.cpuUsage(cpu);

	await profiler?.stop(spec.profile!);
	await expressions.disposeExpressionEngine?.();
	clearInterval(sampler);
	loopDelay.disable();
	const peakRssMb = process.resourceUsage().maxRSS / 1024;
	const outputs = checkOutputs(run, workflow, spec.n);
	global.gc?.();
	return {
		ok: true,
		node: process.version,
		n8nCore: JSON.parse(fs.readFileSync(require.resolve('n8n-core/package.json'), 'utf8')).version,
		expressionEngine,
		loadMs,
		wallMs,
		nodeMs,
		cpuMs: (user + system) / 1000,
		cpuSystemMs: system / 1000,
		rssBeforeMb,
		peakRssMb,
		loopDelayMeanMs: Math.max(0, loopDelay.mean / 1e6 - LOOP_RESOLUTION_MS),
		loopDelayP99Ms: Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS),
		peakHeapMb,
		// After a forced collection, with the run's output still held.
		heapAfterGcMb: run && process.memoryUsage().heapUsed / MB,
		...outputs,
		profile: spec.profile,
	};
}

export type RunAnswer = { ok: boolean; error?: string } & Partial<Awaited<ReturnType<typeof main>>>;

/**
 * Every input item must come out as a created payout (reconciling: found pending with nothing
 * mismatched, then the summary), or the figures mean nothing.
 */
function checkOutputs(run: IRun, workflow: BenchWorkflow, expected: number) {
	let outputItems = 0;
	let succeeded = 0;
	let summaries = 0;
	const problems = new Map<string, number>();
	const problem = (message: string) => problems.set(message, (problems.get(message) || 0) + 1);
	for (const taskData of run.data.resultData.runData[workflow.payoutNode] || []) {
		if (taskData.error) problem(taskData.error.message);
		for (const item of taskData.data?.main?.[0] || []) {
			outputItems++;
			const json: IDataObject = item.json || {};
			if (workflow.reconciles) {
				const mismatches = json.mismatches;
				const asSent = json.status === 'pending' && Array.isArray(mismatches) && !mismatches.length;
				if (json.summary === true) summaries++;
				else if (asSent) succeeded++;
				else problem(`status ${String(json.status)}, mismatches ${JSON.stringify(mismatches)}`);
				continue;
			}
			const record = (json.data && typeof json.data === 'object' ? json.data : json) as IDataObject;
			if (!json.error && typeof record.reference_no === 'string') succeeded++;
			else problem(String(json.error || json.message || 'no reference_no in the output'));
		}
	}
	const runError = run.data.resultData.error;
	if (runError) problems.set(`run: ${runError.message}`, 1);
	if (workflow.reconciles && summaries !== 1) problems.set(`${summaries} summary items`, 1);
	return {
		outputItems,
		succeeded,
		complete: succeeded === expected && !runError && (!workflow.reconciles || summaries === 1),
		problems: [...problems].slice(0, 5).map(([message, count]) => `${count} x ${message}`),
	};
}

/** A CPU profile of the run through the inspector, written as a .cpuprofile file. */
async function startProfile() {
	const session = new inspector.Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<{ profile?: object }>((resolve, reject) =>
			session.post(method, params, (error, result) => (error ? reject(error) : resolve(result!))),
		);
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 500 });
	await post('Profiler.start');
	return {
		async stop(file: string) {
			const { profile } = await post('Profiler.stop');
			fs.writeFileSync(file, JSON.stringify(profile));
			session.disconnect();
		},
	};
}

if (require.main === module) {
	const spec = JSON.parse(process.argv[2]) as RunSpec;
	const answer = (result: object) => fs.writeFileSync(spec.answerFile, JSON.stringify(result));
	main(spec).then(
		(result) => {
			answer(result);
			process.exit(0);
		},
		(error) => {
			answer({ ok: false, error: String(error?.stack || error) });
			process.exit(1);
		},
	);
}
