'use strict';
// Figures -> the printed table, the three checks, and the markdown block of docs/benchmarks.md.
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROUTE_LABELS = {
	node: 'Disbursement node',
	httpLoop: 'HTTP Request in Loop Over Items',
	httpBatching: 'HTTP Request, batching, interval 0',
};
const TARGET_RATIO = 0.85;
const CHECK_CONCURRENCY = 16;
const RSS_FACTOR = 1.5;
const RSS_ALLOWANCE_MB = 50;

/** What one run measured, in the units the table prints. */
function figures(spec, answer, sandbox, loadAverage) {
	const base = { engine: spec.engineId, route: spec.route, n: spec.n, concurrency: spec.concurrency, latencyMs: spec.latencyMs, loadAverage };
	if (!answer.ok) return { ...base, ok: false, error: answer.error };
	const seconds = answer.wallMs / 1000;
	const itemsPerSecond = spec.n / seconds;
	const bound = (spec.concurrency * 1000) / spec.latencyMs;
	return {
		...base,
		ok: answer.complete,
		error: answer.complete ? undefined : `only ${answer.succeeded} of ${spec.n} items came out as payouts: ${answer.problems.join('; ')}`,
		node: answer.node,
		n8nCore: answer.n8nCore,
		expressionEngine: answer.expressionEngine,
		wallMs: answer.wallMs,
		nodeMs: answer.nodeMs,
		itemsPerSecond,
		bound,
		ratio: itemsPerSecond / bound,
		tokenRequests: sandbox.tokenRequests.disbursement,
		requests: sandbox.requests,
		payoutsCreated: sandbox.payoutsCreated,
		peakInFlight: sandbox.peakInFlight,
		serverMsPerRequest: sandbox.serverMsPerRequest,
		loopDelayMeanMs: answer.loopDelayMeanMs,
		loopDelayP99Ms: answer.loopDelayP99Ms,
		cpuMsPerItem: answer.cpuMs / spec.n,
		cpuSystemMsPerItem: answer.cpuSystemMs / spec.n,
		sandboxCpuMsPerItem: sandbox.cpuMs / spec.n,
		cpuBusy: answer.cpuMs / answer.wallMs,
		peakRssMb: answer.peakRssMb,
		rssBeforeMb: answer.rssBeforeMb,
		peakHeapMb: answer.peakHeapMb,
		heapAfterGcMb: answer.heapAfterGcMb,
		loadMs: answer.loadMs,
		profile: answer.profile,
	};
}

/**
 * The fastest of repeated runs of one configuration (least disturbed by other load), keeping the
 * worst of what the checks look at: any failure, any token count other than 1, the highest RSS.
 */
function pickBest(attempts) {
	if (attempts.length === 1) return attempts[0];
	const failed = attempts.find((r) => !r.ok);
	if (failed) return { ...failed, attempts: attempts.length };
	const best = attempts.reduce((a, b) => (b.itemsPerSecond > a.itemsPerSecond ? b : a));
	const badTokens = attempts.find((r) => r.tokenRequests !== 1);
	return {
		...best,
		tokenRequests: badTokens ? badTokens.tokenRequests : best.tokenRequests,
		peakRssMb: Math.max(...attempts.map((r) => r.peakRssMb)),
		otherItemsPerSecond: attempts.filter((r) => r !== best).map((r) => r.itemsPerSecond),
	};
}

const fixed = (value, digits) => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '-');

const COLUMNS = [
	['route', (r) => ROUTE_LABELS[r.route]],
	['N', (r) => String(r.n)],
	['c', (r) => String(r.concurrency)],
	['wall s', (r) => fixed(r.wallMs / 1000, 2)],
	['items/s', (r) => fixed(r.itemsPerSecond, 0) + (r.otherItemsPerSecond ? ` (also ${r.otherItemsPerSecond.map((v) => fixed(v, 0)).join(', ')})` : '')],
	['bound c/L', (r) => fixed(r.bound, 0)],
	['achieved/bound', (r) => fixed(r.ratio, 2)],
	['vs HTTP loop', (r) => (r.vsLoop === undefined ? '' : `${fixed(r.vsLoop, 2)}x`)],
	['vs HTTP batching', (r) => (r.vsBatching === undefined ? '' : `${fixed(r.vsBatching, 2)}x`)],
	['token req.', (r) => String(r.tokenRequests ?? '-')],
	['peak in flight', (r) => String(r.peakInFlight ?? '-')],
	['CPU ms/item (of it kernel)', (r) => (r.cpuMsPerItem === undefined ? '-' : `${fixed(r.cpuMsPerItem, 2)} (${fixed(r.cpuSystemMsPerItem, 2)})`)],
	['CPU busy', (r) => (r.cpuBusy === undefined ? '-' : `${fixed(r.cpuBusy * 100, 0)}%`)],
	['sandbox CPU ms/item', (r) => fixed(r.sandboxCpuMsPerItem, 2)],
	['gateway ms/request', (r) => fixed(r.serverMsPerRequest, 1)],
	['event-loop lag mean / p99 ms', (r) => (r.loopDelayMeanMs === undefined ? '-' : `${fixed(r.loopDelayMeanMs, 1)} / ${fixed(r.loopDelayP99Ms, 1)}`)],
	['peak RSS MB', (r) => fixed(r.peakRssMb, 0)],
	['RSS before run MB', (r) => fixed(r.rssBeforeMb, 0)],
	['heap peak / live after MB', (r) => (r.peakHeapMb === undefined ? '-' : `${fixed(r.peakHeapMb, 0)} / ${fixed(r.heapAfterGcMb, 0)}`)],
	['load avg', (r) => fixed(r.loadAverage, 1)],
];

/** "2.41 (vm)": the engine of a run and the expression engine it reported. */
function engineOf(r) {
	return r.engine ? `${r.engine}${r.expressionEngine ? ` (${r.expressionEngine})` : ''}` : '';
}

/** The table's columns: with an engine column when the runs used more than one. */
function columnsFor(results) {
	if (new Set(results.map((r) => r.engine)).size < 2) return COLUMNS;
	return [COLUMNS[0], ['engine', engineOf], ...COLUMNS.slice(1)];
}

/** Adds the node-vs-HTTP ratios (items/s of the node divided by items/s of the HTTP route). */
function compare(results) {
	const find = (route, n, c, engine) => results.find((r) => r.route === route && r.n === n && r.concurrency === c && r.engine === engine && r.ok);
	for (const r of results) {
		if (r.route !== 'node' || !r.ok) continue;
		const loop = find('httpLoop', r.n, r.concurrency, r.engine);
		const batching = find('httpBatching', r.n, r.concurrency, r.engine);
		if (loop) r.vsLoop = r.itemsPerSecond / loop.itemsPerSecond;
		if (batching) r.vsBatching = r.itemsPerSecond / batching.itemsPerSecond;
	}
}

function rowsOf(results) {
	const columns = columnsFor(results);
	const lead = columns.indexOf(COLUMNS[3]);
	return results.map((r) =>
		r.ok || r.wallMs !== undefined
			? columns.map(([, cell]) => cell(r))
			: [...columns.slice(0, lead).map(([, cell]) => cell(r)), `FAILED: ${r.error}`, ...columns.slice(lead + 1).map(() => '')],
	);
}

function textTable(results) {
	const header = columnsFor(results).map(([name]) => name);
	const rows = rowsOf(results);
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] || '').length)));
	const line = (cells) => cells.map((cell, i) => (i < 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
	return [line(header), ...rows.map(line)].join('\n');
}

function markdownTable(results) {
	const header = columnsFor(results).map(([name]) => name);
	const rows = rowsOf(results).map((row) => row.map((cell) => cell.replace(/\|/g, '\\|')));
	return [
		`| ${header.join(' | ')} |`,
		`|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	].join('\n');
}

/** The three checks of the benchmark issue, per engine; each { name, status: PASS|FAIL|SKIP, detail }. */
function checks(results, options) {
	const engines = [...new Set(results.map((r) => r.engine))];
	if (engines.length < 2) return checksOf(results, options);
	return engines.flatMap((engine) => {
		const own = results.filter((r) => r.engine === engine);
		return checksOf(own, options).map((check) => ({ ...check, name: `[${engineOf(own[0])}] ${check.name}` }));
	});
}

function checksOf(results, options) {
	const node = results.filter((r) => r.route === 'node');
	const largest = Math.max(...options.sizes);
	const smallest = Math.min(...options.sizes);
	const out = [];

	// 1. Latency bound.
	{
		const name = `concurrency ${CHECK_CONCURRENCY}, L = ${options.latencyMs} ms, N = ${largest}: at least ${TARGET_RATIO * 100}% of the latency bound`;
		const run = node.find((r) => r.concurrency === CHECK_CONCURRENCY && r.n === largest);
		if (!options.concurrency.includes(CHECK_CONCURRENCY)) {
			out.push({ name, status: 'SKIP', detail: `concurrency ${CHECK_CONCURRENCY} is not in this run` });
		} else if (!run || !run.ok) {
			out.push({ name, status: 'FAIL', detail: `the run failed: ${run ? run.error : 'missing'}` });
		} else {
			const notes = [];
			if (options.latencyMs !== 20) notes.push(`measured at L = ${options.latencyMs} ms, the issue asks for 20 ms`);
			if (largest !== 10000) notes.push(`measured at N = ${largest}, the issue asks for 10000`);
			out.push({
				name,
				status: run.ratio >= TARGET_RATIO ? 'PASS' : 'FAIL',
				detail: `${fixed(run.itemsPerSecond, 0)} items/s of a ${fixed(run.bound, 0)} items/s bound = ${fixed(run.ratio * 100, 1)}%; engine CPU ${fixed(run.cpuMsPerItem, 2)} ms/item caps one process at ~${fixed(1000 / run.cpuMsPerItem, 0)} items/s${notes.length ? ` (${notes.join('; ')})` : ''}`,
			});
		}
	}

	// 2. One token request per run; flat memory.
	{
		const name = `exactly one token request per run; peak RSS at N = ${largest} <= ${RSS_FACTOR} x (N = ${smallest}) + ${RSS_ALLOWANCE_MB} MB`;
		const problems = [];
		for (const r of node) {
			if (!r.ok) problems.push(`N=${r.n} c=${r.concurrency} failed`);
			else if (r.tokenRequests !== 1) problems.push(`N=${r.n} c=${r.concurrency}: ${r.tokenRequests} token requests`);
		}
		const memory = [];
		for (const c of options.concurrency) {
			const small = node.find((r) => r.n === smallest && r.concurrency === c && r.ok);
			const big = node.find((r) => r.n === largest && r.concurrency === c && r.ok);
			if (!small || !big || smallest === largest) continue;
			const limit = RSS_FACTOR * small.peakRssMb + RSS_ALLOWANCE_MB;
			memory.push(`c=${c}: ${fixed(big.peakRssMb, 0)} <= ${fixed(limit, 0)} MB`);
			if (big.peakRssMb > limit) problems.push(`c=${c}: peak RSS ${fixed(big.peakRssMb, 0)} MB > ${fixed(limit, 0)} MB`);
		}
		const runs = node.filter((r) => r.ok).length;
		out.push({
			name,
			status: problems.length ? 'FAIL' : 'PASS',
			detail: problems.length
				? problems.join('; ')
				: `${runs} runs with 1 token request each; ${memory.length ? memory.join(', ') : 'one size only: memory not compared'}`,
		});
	}

	// 3. Faster than the HTTP Request route at an equal concurrency budget.
	{
		const name = 'faster than the HTTP Request route at an equal concurrency budget (Loop Over Items, c per batch)';
		if (!options.routes.includes('httpLoop')) {
			out.push({ name, status: 'SKIP', detail: options.httpNote || 'the HTTP Request route was not run' });
		} else {
			const compared = node.filter((r) => r.vsLoop !== undefined);
			const slower = compared.filter((r) => r.vsLoop <= 1);
			const missing = node.filter((r) => r.ok && r.vsLoop === undefined);
			const ratios = compared.map((r) => `N=${r.n} c=${r.concurrency}: ${fixed(r.vsLoop, 2)}x`).join(', ');
			out.push({
				name,
				status: compared.length && !slower.length && !missing.length ? 'PASS' : 'FAIL',
				detail: `${ratios}${missing.length ? `; no HTTP figure for ${missing.map((r) => `N=${r.n} c=${r.concurrency}`).join(', ')}` : ''}`,
			});
		}
	}
	return out;
}

function machine(options, argv, engines = []) {
	const cpus = os.cpus();
	return {
		date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
		command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
		cores: cpus.length,
		cpuModel: (cpus[0] && cpus[0].model) || 'unknown',
		memoryGb: os.totalmem() / 2 ** 30,
		node: process.version,
		platform: `${os.platform()} ${os.release()}`,
		n8nCore: require('n8n-core/package.json').version,
		n8nApp: options.n8nAppVersion,
		engines: engines.map(({ id, nodeVersion, n8nCore, n8nWorkflow, appVersion }) => ({ id, nodeVersion, n8nCore, n8nWorkflow, appVersion })),
		latencyMs: options.latencyMs,
	};
}

/** CPU per item by where it went, for the runs that were profiled (--profile). */
function breakdownLines(results, markdown) {
	const profiled = results.filter((r) => r.cpuBreakdown);
	if (!profiled.length) return [];
	const lines = [markdown ? '' : 'Where the CPU of the engine process went (CPU profile, ms per item; the profiler adds its own overhead):'];
	for (const r of profiled) {
		const parts = r.cpuBreakdown
			.filter((b) => b.share >= 0.005)
			.map((b) => `${b.name} ${fixed(b.share * r.cpuMsPerItem, 2)} (${fixed(b.share * 100, 0)}%)`);
		lines.push(`${markdown ? '- ' : '  '}${r.engine ? `${engineOf(r)}, ` : ''}${ROUTE_LABELS[r.route]} N=${r.n} c=${r.concurrency}, ${fixed(r.cpuMsPerItem, 2)} ms/item: ${parts.join('; ')}`);
	}
	return lines;
}

function breakdownText(results) {
	return breakdownLines(results, false).join('\n');
}

/** The engines of the runs; one line for a single 2.8 run as before. */
function engineLine(info) {
	const engines = info.engines || [];
	if (engines.length < 2) return `Node.js ${info.node}; n8n-core ${info.n8nCore}${info.n8nApp ? `, HTTP Request node from n8n ${info.n8nApp}` : ''}`;
	return `engines run alternately within each configuration: ${engines.map((e) => `${e.id} = n8n-core ${e.n8nCore} on Node.js ${e.nodeVersion}${e.appVersion ? ` (HTTP Request node from n8n ${e.appVersion})` : ''}`).join('; ')}`;
}

function sideBySide(results) {
	const lines = require('./engineReport').sideBySideLines(results);
	return lines.length ? [...lines, '', 'All figures:', ''] : [];
}

const BEGIN = '<!-- bench:figures:begin -->';
const END = '<!-- bench:figures:end -->';

function markdownBlock(results, checkList, info, options) {
	const lines = [
		BEGIN,
		`Measured ${info.date} with \`${info.command}\`.`,
		'',
		`Machine: ${info.cores} cores (${info.cpuModel}), ${fixed(info.memoryGb, 1)} GB memory, ${info.platform}; ${engineLine(info)}. Injected latency L = ${info.latencyMs} ms per request.`,
		'',
		...sideBySide(results),
		markdownTable(results),
		'',
		...checkList.map((c) => `- **${c.status}** ${c.name}: ${c.detail}`),
	];
	const breakdown = breakdownLines(results, true);
	if (breakdown.length) lines.push('', 'CPU of the engine process by where it went (profiled runs; ms per item, the profiler adds overhead):', ...breakdown);
	const top = require('./engineReport').topCostLines(results);
	if (top.length) lines.push('', ...top);
	if (options.httpNote) lines.push('', `Note: ${options.httpNote}`);
	lines.push(END);
	return lines.join('\n');
}

/** Replaces the figures block of the doc (or appends one). */
function writeDoc(file, block) {
	const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
	const start = current.indexOf(BEGIN);
	const end = current.indexOf(END);
	const next =
		start !== -1 && end > start
			? current.slice(0, start) + block + current.slice(end + END.length)
			: `${current.trimEnd()}\n\n${block}\n`;
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, next);
}

module.exports = { engineOf, fixed, markdownTable, breakdownLines, pickBest, figures, compare, textTable, breakdownText, checks, machine, markdownBlock, writeDoc, ROUTE_LABELS };
