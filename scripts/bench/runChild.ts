// One benchmark run in a fresh process, so peak RSS belongs to this run alone. Started by
// scripts/bench/main.ts with the run as JSON in argv[2]; answers with one JSON message over IPC.
import fs from 'fs';
import inspector from 'inspector';
import { monitorEventLoopDelay } from 'perf_hooks';
import type { IDataObject, IRun } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../sandbox/credentials';
import { use } from './n8nModules';
import { HTTP_REQUEST_TYPE, LOOP_TYPE, payoutItems, ROUTES, type BenchWorkflow } from './workflows';

const LOOP_RESOLUTION_MS = 10;

const send = (message: object, done?: () => void) =>
	process.send?.(message, undefined, undefined, done);

async function main() {
	const spec = JSON.parse(process.argv[2]);
	const loadStarted = performance.now();
	use(spec.engine);
	// Only now: its n8n-core and n8n-workflow must be the engine's.
	const engine = await import('./engine');
	const expressionEngine = await engine.startExpressionEngine();

	const route = ROUTES[spec.route];
	const credentials = SANDBOX_CREDENTIALS.disbursement;
	const workflow = route.build({ concurrency: spec.concurrency, url: spec.url, credentials });
	const store = new engine.CredentialStore();
	const extraTypes: import('./engine').ExtraNodeType[] = [];
	if (workflow.credentialType) {
		const ref = store.add(workflow.credentialType, {
			environment: 'sandbox',
			baseUrl: spec.url,
			username: credentials.username,
			password: credentials.password,
		});
		extraTypes.push(await engine.packageNodeType('disbursement'));
		for (const node of workflow.nodes) {
			if (node.type.endsWith('.disbursement'))
				node.credentials = { [workflow.credentialType]: ref };
		}
	} else {
		extraTypes.push(
			await engine.appNodeType('HttpRequest/HttpRequest.node', 'HttpRequest', HTTP_REQUEST_TYPE),
		);
		extraTypes.push(
			await engine.appNodeType('SplitInBatches/SplitInBatches.node', 'SplitInBatches', LOOP_TYPE),
		);
	}
	const items = payoutItems(spec.n, spec.tag);
	const loadMs = performance.now() - loadStarted;
	if (global.gc) global.gc();
	const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;

	// Peak of the JS heap in use, sampled: with peak RSS it tells live data from garbage not yet collected.
	let peakHeapMb = process.memoryUsage().heapUsed / 2 ** 20;
	const sampler = setInterval(() => {
		peakHeapMb = Math.max(peakHeapMb, process.memoryUsage().heapUsed / 2 ** 20);
	}, 50);
	// How late the event loop ran its callbacks: time a ready response waited for the engine.
	// The histogram counts whole intervals of the timer, so its resolution is taken off below.
	const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
	loopDelay.enable();
	const profiling = spec.profile ? await startProfile() : undefined;
	const result = await engine.runBenchWorkflow({
		...workflow,
		store,
		items: items as unknown as import('n8n-workflow').IDataObject[],
		extraTypes,
	} as import('./engine').BenchRunOptions);
	const profile = profiling ? await profiling.stop(spec.profile) : undefined;
	await engine.stopExpressionEngine();

	clearInterval(sampler);
	loopDelay.disable();
	const peakRssMb = process.resourceUsage().maxRSS / 1024;
	const check = checkOutputs(result.run, workflow, spec.n);
	if (global.gc) global.gc();
	const heapAfterGcMb = process.memoryUsage().heapUsed / 2 ** 20;
	send(
		{
			ok: true,
			node: process.version,
			n8nCore: JSON.parse(fs.readFileSync(require.resolve('n8n-core/package.json'), 'utf8'))
				.version,
			expressionEngine,
			loadMs,
			wallMs: result.wallMs,
			nodeMs: result.nodeMs,
			cpuMs: result.cpuMs,
			cpuSystemMs: result.cpuSystemMs,
			rssBeforeMb,
			peakRssMb,
			loopDelayMeanMs: Math.max(0, loopDelay.mean / 1e6 - LOOP_RESOLUTION_MS),
			loopDelayP99Ms: Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS),
			peakHeapMb,
			heapAfterGcMb,
			...check,
			profile,
		},
		() => process.exit(0),
	);
}

/**
 * Every input item must come out as a created payout (reconciling: found pending with nothing
 * mismatched, then the summary), or the figures mean nothing.
 */
function checkOutputs(run: IRun, workflow: BenchWorkflow, expected: number) {
	const runs = run.data.resultData.runData[workflow.payoutNode] || [];
	let items = 0;
	let succeeded = 0;
	let summaries = 0;
	const problems = new Map<string, number>();
	for (const taskData of runs) {
		if (taskData.error)
			problems.set(taskData.error.message, (problems.get(taskData.error.message) || 0) + 1);
		for (const item of (taskData.data && taskData.data.main && taskData.data.main[0]) || []) {
			items++;
			const json = item.json || {};
			if (workflow.reconciles) {
				if (json.summary === true) summaries++;
				else if (reconciledAsSent(json)) succeeded++;
				else {
					const found = `status ${String(json.status)}, mismatches ${JSON.stringify(json.mismatches)}`;
					problems.set(found, (problems.get(found) || 0) + 1);
				}
				continue;
			}
			const record = (json.data && typeof json.data === 'object' ? json.data : json) as Record<
				string,
				unknown
			>;
			if (!json.error && typeof record.reference_no === 'string') succeeded++;
			else {
				const message = String(json.error || json.message || 'no reference_no in the output');
				problems.set(message, (problems.get(message) || 0) + 1);
			}
		}
	}
	const runError = run.data.resultData.error;
	if (runError) problems.set(`run: ${runError.message}`, 1);
	if (workflow.reconciles && summaries !== 1) problems.set(`${summaries} summary items`, 1);
	return {
		outputItems: items,
		succeeded,
		complete: succeeded === expected && !runError && (!workflow.reconciles || summaries === 1),
		problems: [...problems].slice(0, 5).map(([message, count]) => `${count} x ${message}`),
	};
}

/** A reconciled row of a seeded payout: the sandbox holds it pending, as sent. */
const reconciledAsSent = (json: IDataObject) =>
	json.status === 'pending' && Array.isArray(json.mismatches) && json.mismatches.length === 0;

/** CPU profile of the run through the inspector, written as a .cpuprofile file. */
async function startProfile() {
	const session = new inspector.Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<{ profile?: object }>((resolve, reject) =>
			session.post(method, params, (err, res) =>
				err ? reject(err) : resolve(res as { profile?: object }),
			),
		);
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 500 });
	await post('Profiler.start');
	return {
		async stop(file: string) {
			const { profile } = await post('Profiler.stop');
			fs.writeFileSync(file, JSON.stringify(profile));
			session.disconnect();
			return file;
		},
	};
}

main().catch((error) => {
	send({ ok: false, error: String((error && error.stack) || error) }, () => process.exit(1));
});
