'use strict';
// One benchmark run in a fresh process, so peak RSS belongs to this run alone. Started by
// scripts/bench.js with the run as JSON in argv[2]; answers with one JSON message over IPC.
const path = require('path');
const { monitorEventLoopDelay } = require('perf_hooks');

const ROOT = path.resolve(__dirname, '..', '..');
const LOOP_RESOLUTION_MS = 10;

async function main() {
	const spec = JSON.parse(process.argv[2]);
	const loadStarted = performance.now();
	require('./n8nModules').use(spec.engine);
	const engine = require('./engine');
	const expressionEngine = await engine.startExpressionEngine();
	const { ROUTES, payoutItems, HTTP_REQUEST_TYPE, LOOP_TYPE } = require('./workflows');
	const { SANDBOX_CREDENTIALS } = require(path.join(ROOT, 'sandbox/credentials'));

	const route = ROUTES[spec.route];
	const credentials = SANDBOX_CREDENTIALS.disbursement;
	const workflow = route.build({ concurrency: spec.concurrency, url: spec.url, credentials });
	const store = new engine.CredentialStore();
	const extraTypes = [];
	if (workflow.credentialType) {
		const ref = store.add(workflow.credentialType, {
			environment: 'sandbox',
			baseUrl: spec.url,
			username: credentials.username,
			password: credentials.password,
		});
		extraTypes.push(engine.packageNodeType('disbursement'));
		for (const node of workflow.nodes) {
			if (node.type.endsWith('.disbursement')) node.credentials = { [workflow.credentialType]: ref };
		}
	} else {
		extraTypes.push(engine.appNodeType('HttpRequest/HttpRequest.node', 'HttpRequest', HTTP_REQUEST_TYPE));
		extraTypes.push(engine.appNodeType('SplitInBatches/SplitInBatches.node', 'SplitInBatches', LOOP_TYPE));
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
	const result = await engine.runBenchWorkflow({ ...workflow, store, items, extraTypes });
	const profile = profiling ? await profiling.stop(spec.profile) : undefined;
	await engine.stopExpressionEngine();

	clearInterval(sampler);
	loopDelay.disable();
	const peakRssMb = process.resourceUsage().maxRSS / 1024;
	const check = checkOutputs(result.run, workflow.payoutNode, spec.n);
	if (global.gc) global.gc();
	const heapAfterGcMb = process.memoryUsage().heapUsed / 2 ** 20;
	process.send({
		ok: true,
		node: process.version,
		n8nCore: require('n8n-core/package.json').version,
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
	}, () => process.exit(0));
}

/** Every input item must come out as a created payout, or the figures mean nothing. */
function checkOutputs(run, payoutNode, expected) {
	const runs = run.data.resultData.runData[payoutNode] || [];
	let items = 0;
	let succeeded = 0;
	const problems = new Map();
	for (const taskData of runs) {
		if (taskData.error) problems.set(taskData.error.message, (problems.get(taskData.error.message) || 0) + 1);
		for (const item of (taskData.data && taskData.data.main && taskData.data.main[0]) || []) {
			items++;
			const json = item.json || {};
			const record = json.data && typeof json.data === 'object' ? json.data : json;
			if (!json.error && typeof record.reference_no === 'string') succeeded++;
			else {
				const message = String(json.error || json.message || 'no reference_no in the output');
				problems.set(message, (problems.get(message) || 0) + 1);
			}
		}
	}
	const runError = run.data.resultData.error;
	if (runError) problems.set(`run: ${runError.message}`, 1);
	return {
		outputItems: items,
		succeeded,
		complete: succeeded === expected && !runError,
		problems: [...problems].slice(0, 5).map(([message, count]) => `${count} x ${message}`),
	};
}

/** CPU profile of the run through the inspector, written as a .cpuprofile file. */
async function startProfile() {
	const inspector = require('inspector');
	const fs = require('fs');
	const session = new inspector.Session();
	session.connect();
	const post = (method, params) =>
		new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 500 });
	await post('Profiler.start');
	return {
		async stop(file) {
			const { profile } = await post('Profiler.stop');
			fs.writeFileSync(file, JSON.stringify(profile));
			session.disconnect();
			return file;
		},
	};
}

main().catch((error) => {
	process.send({ ok: false, error: String((error && error.stack) || error) }, () => process.exit(1));
});
