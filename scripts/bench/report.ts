// Figures -> the printed table, the checks, and the markdown block of docs/benchmarks.md.
import fs from 'fs';
import os from 'os';
import path from 'path';

import { NODE_ROUTES, type BenchOptions } from './args';
import { sideBySideLines, topCostLines } from './engineReport';
import type { Engine } from './engines';
import type { Answer, RunAnswer, SandboxAnswer } from './processes';

/** One run's figures as the table shows them (see docs/benchmarks.md, Columns). */
export interface RunResult {
	engine: string;
	route: string;
	n: number;
	concurrency: number;
	latencyMs: number;
	loadAverage: number;
	ok: boolean;
	error?: string;
	node?: string;
	n8nCore?: string;
	expressionEngine?: string;
	wallMs?: number;
	nodeMs?: Record<string, number>;
	itemsPerSecond: number;
	bound: number;
	ratio: number;
	tokenRequests?: number;
	requests?: number;
	payoutsCreated?: number;
	peakInFlight?: number;
	serverMsPerRequest?: number;
	loopDelayMeanMs?: number;
	loopDelayP99Ms?: number;
	cpuMsPerItem: number;
	cpuSystemMsPerItem?: number;
	sandboxCpuMsPerItem?: number;
	cpuBusy?: number;
	peakRssMb: number;
	rssBeforeMb?: number;
	peakHeapMb?: number;
	heapAfterGcMb?: number;
	loadMs?: number;
	profile?: string;
	cpuBreakdown?: Array<{ name: string; share: number }>;
	topFunctions?: Array<{ name: string; share: number }>;
	otherItemsPerSecond?: number[];
	attempts?: number;
	vsLoop?: number;
	vsBatching?: number;
}

export interface Check {
	name: string;
	status: 'PASS' | 'FAIL' | 'SKIP';
	detail: string;
}

export interface MachineInfo {
	date: string;
	command: string;
	cores: number;
	cpuModel: string;
	memoryGb: number;
	node: string;
	platform: string;
	n8nCore: string;
	n8nApp?: string;
	engines: Array<Pick<Engine, 'id' | 'nodeVersion' | 'n8nCore' | 'n8nWorkflow' | 'appVersion'>>;
	latencyMs: number;
}

export const ROUTE_LABELS: Record<string, string> = {
	node: 'Disbursement node',
	nodeAuto: 'Disbursement node, columns mapped automatically',
	httpLoop: 'HTTP Request in Loop Over Items',
	httpBatching: 'HTTP Request, batching, interval 0',
	reconcile: 'Disbursement node, Payout > Reconcile',
};
/** Payout > Reconcile: checks 1 and 2 apply to it as to the payout routes; it sends no payout to compare. */
const RECONCILE_ROUTE = 'reconcile';
const TARGET_RATIO = 0.85;
const CHECK_CONCURRENCY = 16;
const RSS_FACTOR = 1.5;
const RSS_ALLOWANCE_MB = 50;
/**
 * Issue 21's targets for automatic mapping: share of the bound per concurrency (n8n 2.41's default
 * engine is where it is asked for; it is checked on every engine) and the lead over HTTP Request.
 */
const AUTO_TARGET_RATIOS: Record<number, number> = { 16: 0.9, 64: 0.6 };
const AUTO_TARGET_VS_LOOP = 1.5;

/** What one run measured, in the units the table prints. */
export interface RunSpec {
	route: string;
	n: number;
	concurrency: number;
	latencyMs: number;
	engineId: string;
}

export function figures(
	spec: RunSpec,
	given: RunAnswer | Answer,
	sandbox: SandboxAnswer,
	loadAverage: number,
): RunResult {
	const base = {
		engine: spec.engineId,
		route: spec.route,
		n: spec.n,
		concurrency: spec.concurrency,
		latencyMs: spec.latencyMs,
		loadAverage,
	};
	const bound = (spec.concurrency * 1000) / spec.latencyMs;
	if (!given.ok)
		return {
			...base,
			ok: false,
			error: given.error,
			itemsPerSecond: 0,
			bound,
			ratio: 0,
			cpuMsPerItem: NaN,
			peakRssMb: NaN,
		};
	const answer = given as RunAnswer;
	const seconds = answer.wallMs / 1000;
	const itemsPerSecond = spec.n / seconds;
	return {
		...base,
		ok: answer.complete,
		error: answer.complete
			? undefined
			: `only ${answer.succeeded} of ${spec.n} items came out as ${spec.route === RECONCILE_ROUTE ? 'rows found as sent' : 'payouts'}: ${answer.problems.join('; ')}`,
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
export function pickBest(attempts: RunResult[]): RunResult {
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

export const fixed = (value: unknown, digits: number): string =>
	typeof value === 'number' && Number.isFinite(value) ? (value as number).toFixed(digits) : '-';

type Column = [string, (r: RunResult) => string];

const COLUMNS: Column[] = [
	['route', (r) => ROUTE_LABELS[r.route]],
	['N', (r) => String(r.n)],
	['c', (r) => String(r.concurrency)],
	['wall s', (r) => fixed((r.wallMs ?? NaN) / 1000, 2)],
	[
		'items/s',
		(r) =>
			fixed(r.itemsPerSecond, 0) +
			(r.otherItemsPerSecond
				? ` (also ${r.otherItemsPerSecond.map((v) => fixed(v, 0)).join(', ')})`
				: ''),
	],
	['bound c/L', (r) => fixed(r.bound, 0)],
	['achieved/bound', (r) => fixed(r.ratio, 2)],
	['vs HTTP loop', (r) => (r.vsLoop === undefined ? '' : `${fixed(r.vsLoop, 2)}x`)],
	['vs HTTP batching', (r) => (r.vsBatching === undefined ? '' : `${fixed(r.vsBatching, 2)}x`)],
	['token req.', (r) => String(r.tokenRequests ?? '-')],
	['peak in flight', (r) => String(r.peakInFlight ?? '-')],
	[
		'CPU ms/item (of it kernel)',
		(r) =>
			r.cpuMsPerItem === undefined
				? '-'
				: `${fixed(r.cpuMsPerItem, 2)} (${fixed(r.cpuSystemMsPerItem, 2)})`,
	],
	['CPU busy', (r) => (r.cpuBusy === undefined ? '-' : `${fixed(r.cpuBusy * 100, 0)}%`)],
	['sandbox CPU ms/item', (r) => fixed(r.sandboxCpuMsPerItem, 2)],
	['gateway ms/request', (r) => fixed(r.serverMsPerRequest, 1)],
	[
		'event-loop lag mean / p99 ms',
		(r) =>
			r.loopDelayMeanMs === undefined
				? '-'
				: `${fixed(r.loopDelayMeanMs, 1)} / ${fixed(r.loopDelayP99Ms, 1)}`,
	],
	['peak RSS MB', (r) => fixed(r.peakRssMb, 0)],
	['RSS before run MB', (r) => fixed(r.rssBeforeMb, 0)],
	[
		'heap peak / live after MB',
		(r) =>
			r.peakHeapMb === undefined ? '-' : `${fixed(r.peakHeapMb, 0)} / ${fixed(r.heapAfterGcMb, 0)}`,
	],
	['load avg', (r) => fixed(r.loadAverage, 1)],
];

/** "2.41 (vm)": the engine of a run and the expression engine it reported. */
export function engineOf(r: RunResult | undefined): string {
	if (!r) return '';
	return r.engine ? `${r.engine}${r.expressionEngine ? ` (${r.expressionEngine})` : ''}` : '';
}

/** The table's columns: with an engine column when the runs used more than one. */
function columnsFor(results: RunResult[]): Column[] {
	if (new Set(results.map((r) => r.engine)).size < 2) return COLUMNS;
	return [COLUMNS[0], ['engine', engineOf] as Column, ...COLUMNS.slice(1)];
}

/** Adds the node-vs-HTTP ratios (items/s of the node divided by items/s of the HTTP route). */
export function compare(results: RunResult[]): void {
	const find = (route: string, n: number, c: number, engine: string) =>
		results.find(
			(r) => r.route === route && r.n === n && r.concurrency === c && r.engine === engine && r.ok,
		);
	for (const r of results) {
		if (!NODE_ROUTES.includes(r.route) || !r.ok) continue;
		const loop = find('httpLoop', r.n, r.concurrency, r.engine);
		const batching = find('httpBatching', r.n, r.concurrency, r.engine);
		if (loop) r.vsLoop = r.itemsPerSecond / loop.itemsPerSecond;
		if (batching) r.vsBatching = r.itemsPerSecond / batching.itemsPerSecond;
	}
}

function rowsOf(results: RunResult[]): string[][] {
	const columns = columnsFor(results);
	const lead = columns.indexOf(COLUMNS[3]);
	return results.map((r) =>
		r.ok || r.wallMs !== undefined
			? columns.map(([, cell]) => cell(r))
			: [
					...columns.slice(0, lead).map(([, cell]) => cell(r)),
					`FAILED: ${r.error}`,
					...columns.slice(lead + 1).map(() => ''),
				],
	);
}

export function textTable(results: RunResult[]): string {
	const header = columnsFor(results).map(([name]) => name);
	const rows = rowsOf(results);
	const widths = header.map((h, i) =>
		Math.max(h.length, ...rows.map((row) => (row[i] || '').length)),
	);
	const line = (cells: string[]) =>
		cells.map((cell, i) => (i < 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
	return [line(header), ...rows.map(line)].join('\n');
}

export function markdownTable(results: RunResult[]): string {
	const header = columnsFor(results).map(([name]) => name);
	const rows = rowsOf(results).map((row) => row.map((cell) => cell.replace(/\|/g, '\\|')));
	return [
		`| ${header.join(' | ')} |`,
		`|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	].join('\n');
}

/** The checks of the benchmark issues, per engine and node route; each { name, status: PASS|FAIL|SKIP, detail }. */
export function checks(results: RunResult[], options: BenchOptions): Check[] {
	const engines = [...new Set(results.map((r) => r.engine))];
	const routes = [...NODE_ROUTES, RECONCILE_ROUTE].filter((route) =>
		results.some((r) => r.route === route),
	);
	return engines.flatMap((engine) => {
		const own = results.filter((r) => r.engine === engine);
		return routes.flatMap((route) => {
			const label = [
				engines.length > 1 ? engineOf(own[0]) : '',
				routes.length > 1 ? ROUTE_LABELS[route] : '',
			]
				.filter(Boolean)
				.join(', ');
			const list =
				route === 'nodeAuto'
					? [...checksOf(own, options, route), ...autoTargets(own, options)]
					: checksOf(own, options, route);
			return list.map((check) => (label ? { ...check, name: `[${label}] ${check.name}` } : check));
		});
	});
}

/** Issue 21's targets for the automatic mapping: share of the bound at c = 16 and 64; 1.5x HTTP Request. */
function autoTargets(results: RunResult[], options: BenchOptions): Check[] {
	const auto = results.filter((r) => r.route === 'nodeAuto' && r.ok);
	const out: Check[] = [];
	for (const [c, target] of Object.entries(AUTO_TARGET_RATIOS)) {
		const runs = auto.filter(
			(r) => r.concurrency === Number(c) && r.n === Math.max(...options.sizes),
		);
		if (!runs.length) continue;
		out.push({
			name: `automatic mapping, concurrency ${c}: at least ${target * 100}% of the latency bound`,
			status: runs.every((r) => r.ratio >= target) ? 'PASS' : 'FAIL',
			detail: runs
				.map(
					(r) =>
						`N=${r.n}: ${fixed(r.itemsPerSecond, 0)} items/s = ${fixed(r.ratio * 100, 1)}% (${fixed(r.cpuMsPerItem, 2)} ms CPU/item, load ${fixed(r.loadAverage, 1)})`,
				)
				.join(', '),
		});
	}
	const compared = auto.filter((r) => r.vsLoop !== undefined);
	if (compared.length) {
		out.push({
			name: `automatic mapping: at least ${AUTO_TARGET_VS_LOOP}x the HTTP Request route (Loop Over Items) at every concurrency`,
			status: compared.every((r) => r.vsLoop! >= AUTO_TARGET_VS_LOOP) ? 'PASS' : 'FAIL',
			detail: compared.map((r) => `N=${r.n} c=${r.concurrency}: ${fixed(r.vsLoop, 2)}x`).join(', '),
		});
	}
	return out;
}

function checksOf(results: RunResult[], options: BenchOptions, route: string): Check[] {
	const node = results.filter((r) => r.route === route);
	const largest = Math.max(...options.sizes);
	const smallest = Math.min(...options.sizes);
	const out: Check[] = [];

	// 1. Latency bound.
	{
		const name = `concurrency ${CHECK_CONCURRENCY}, L = ${options.latencyMs} ms, N = ${largest}: at least ${TARGET_RATIO * 100}% of the latency bound`;
		const run = node.find((r) => r.concurrency === CHECK_CONCURRENCY && r.n === largest);
		if (!options.concurrency.includes(CHECK_CONCURRENCY)) {
			out.push({
				name,
				status: 'SKIP',
				detail: `concurrency ${CHECK_CONCURRENCY} is not in this run`,
			});
		} else if (!run || !run.ok) {
			out.push({ name, status: 'FAIL', detail: `the run failed: ${run ? run.error : 'missing'}` });
		} else {
			const notes: string[] = [];
			if (options.latencyMs !== 20)
				notes.push(`measured at L = ${options.latencyMs} ms, the issue asks for 20 ms`);
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
		const problems: string[] = [];
		for (const r of node) {
			if (!r.ok) problems.push(`N=${r.n} c=${r.concurrency} failed`);
			else if (r.tokenRequests !== 1)
				problems.push(`N=${r.n} c=${r.concurrency}: ${r.tokenRequests} token requests`);
		}
		const memory: string[] = [];
		for (const c of options.concurrency) {
			const small = node.find((r) => r.n === smallest && r.concurrency === c && r.ok);
			const big = node.find((r) => r.n === largest && r.concurrency === c && r.ok);
			if (!small || !big || smallest === largest) continue;
			const limit = RSS_FACTOR * small.peakRssMb + RSS_ALLOWANCE_MB;
			memory.push(`c=${c}: ${fixed(big.peakRssMb, 0)} <= ${fixed(limit, 0)} MB`);
			if (big.peakRssMb > limit)
				problems.push(`c=${c}: peak RSS ${fixed(big.peakRssMb, 0)} MB > ${fixed(limit, 0)} MB`);
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
	if (route !== RECONCILE_ROUTE) {
		const name =
			'faster than the HTTP Request route at an equal concurrency budget (Loop Over Items, c per batch)';
		if (!options.routes.includes('httpLoop')) {
			out.push({
				name,
				status: 'SKIP',
				detail: options.httpNote || 'the HTTP Request route was not run',
			});
		} else {
			const compared = node.filter((r) => r.vsLoop !== undefined);
			const slower = compared.filter((r) => r.vsLoop! <= 1);
			const missing = node.filter((r) => r.ok && r.vsLoop === undefined);
			const ratios = compared
				.map((r) => `N=${r.n} c=${r.concurrency}: ${fixed(r.vsLoop, 2)}x`)
				.join(', ');
			out.push({
				name,
				status: compared.length && !slower.length && !missing.length ? 'PASS' : 'FAIL',
				detail: `${ratios}${missing.length ? `; no HTTP figure for ${missing.map((r) => `N=${r.n} c=${r.concurrency}`).join(', ')}` : ''}`,
			});
		}
	}
	return out;
}

export function machine(
	options: BenchOptions,
	argv: string[],
	engines: Engine[] = [],
): MachineInfo {
	const cpus = os.cpus();
	return {
		date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
		command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
		cores: cpus.length,
		cpuModel: (cpus[0] && cpus[0].model) || 'unknown',
		memoryGb: os.totalmem() / 2 ** 30,
		node: process.version,
		platform: `${os.platform()} ${os.release()}`,
		n8nCore: JSON.parse(fs.readFileSync(require.resolve('n8n-core/package.json'), 'utf8')).version,
		n8nApp: options.n8nAppVersion,
		engines: engines.map(({ id, nodeVersion, n8nCore, n8nWorkflow, appVersion }) => ({
			id,
			nodeVersion,
			n8nCore,
			n8nWorkflow,
			appVersion,
		})),
		latencyMs: options.latencyMs,
	};
}

/** CPU per item by where it went, for the runs that were profiled (--profile). */
export function breakdownLines(results: RunResult[], markdown: boolean): string[] {
	const profiled = results.filter((r) => r.cpuBreakdown);
	if (!profiled.length) return [];
	const lines = [
		markdown
			? ''
			: 'Where the CPU of the engine process went (CPU profile, ms per item; the profiler adds its own overhead):',
	];
	for (const r of profiled) {
		const parts = r
			.cpuBreakdown!.filter((b) => b.share >= 0.005)
			.map((b) => `${b.name} ${fixed(b.share * r.cpuMsPerItem, 2)} (${fixed(b.share * 100, 0)}%)`);
		lines.push(
			`${markdown ? '- ' : '  '}${r.engine ? `${engineOf(r)}, ` : ''}${ROUTE_LABELS[r.route]} N=${r.n} c=${r.concurrency}, ${fixed(r.cpuMsPerItem, 2)} ms/item: ${parts.join('; ')}`,
		);
	}
	return lines;
}

export function breakdownText(results: RunResult[]): string {
	return breakdownLines(results, false).join('\n');
}

/** The engines of the runs; one line for a single 2.8 run as before. */
function engineLine(info: MachineInfo): string {
	const engines = info.engines || [];
	if (engines.length < 2)
		return `Node.js ${info.node}; n8n-core ${info.n8nCore}${info.n8nApp ? `, HTTP Request node from n8n ${info.n8nApp}` : ''}`;
	return `engines run alternately within each configuration: ${engines.map((e) => `${e.id} = n8n-core ${e.n8nCore} on Node.js ${e.nodeVersion}${e.appVersion ? ` (HTTP Request node from n8n ${e.appVersion})` : ''}`).join('; ')}`;
}

function sideBySide(results: RunResult[]): string[] {
	const lines = sideBySideLines(results);
	return lines.length ? [...lines, '', 'All figures:', ''] : [];
}

const BEGIN = '<!-- bench:figures:begin -->';
const END = '<!-- bench:figures:end -->';

export function markdownBlock(
	results: RunResult[],
	checkList: Check[],
	info: MachineInfo,
	options: BenchOptions,
): string {
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
	if (breakdown.length)
		lines.push(
			'',
			'CPU of the engine process by where it went (profiled runs; ms per item, the profiler adds overhead):',
			...breakdown,
		);
	const top = topCostLines(results);
	if (top.length) lines.push('', ...top);
	if (options.httpNote) lines.push('', `Note: ${options.httpNote}`);
	lines.push(END);
	return lines.join('\n');
}

/** Replaces the figures block of the doc (or appends one). */
export function writeDoc(file: string, block: string): void {
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
