// Figures -> the checks and the tables (docs/benchmarks.md, "Columns"); render.ts puts them in the
// docs from the stored result.
import type { GatewayFigures } from './gateway';
import type { RunAnswer, RunSpec } from './runChild';
import { NODE_ROUTES, ROUTES } from './workflows';

export type RunResult = ReturnType<typeof figures> & {
	cpuBreakdown?: Array<{ name: string; share: number }>;
	topFunctions?: Array<{ name: string; share: number }>;
	otherItemsPerSecond?: number[];
	attempts?: number;
	vsLoop?: number;
	vsBatching?: number;
};

/** What the checks need to know of the run's settings (scripts/bench.ts reads them from argv). */
export interface CheckSettings {
	sizes: number[];
	concurrency: number[];
	latencyMs: number;
	routes: string[];
	/** Why the HTTP Request routes did not run, if they did not. */
	httpNote?: string;
}

export interface Check {
	name: string;
	status: 'PASS' | 'FAIL' | 'SKIP';
	detail: string;
}

const RECONCILE = 'reconcile';
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

export const label = (route: string) => ROUTES[route].label;

/** One run's figures in the units the table prints (a failed run: what there is). */
export function figures(
	spec: RunSpec,
	answer: RunAnswer,
	gateway: GatewayFigures,
	loadAverage: number,
) {
	const { route, n, concurrency, latencyMs, engineId } = spec;
	const { cpuMs = NaN, cpuSystemMs = NaN, ...measured } = answer;
	const { cpuMs: sandboxCpuMs, ...served } = gateway;
	const bound = (concurrency * 1000) / latencyMs;
	const itemsPerSecond = answer.wallMs === undefined ? 0 : (n * 1000) / answer.wallMs;
	const found = route === RECONCILE ? 'rows found as sent' : 'payouts';
	return {
		...measured,
		...served,
		engine: engineId,
		route,
		n,
		concurrency,
		latencyMs,
		loadAverage,
		ok: answer.complete === true,
		error:
			answer.complete || !answer.ok
				? answer.error
				: `only ${answer.succeeded} of ${n} items came out as ${found}: ${answer.problems?.join('; ')}`,
		itemsPerSecond,
		bound,
		ratio: itemsPerSecond / bound,
		cpuMsPerItem: cpuMs / n,
		cpuSystemMsPerItem: cpuSystemMs / n,
		sandboxCpuMsPerItem: sandboxCpuMs / n,
		cpuBusy: cpuMs / (answer.wallMs ?? NaN),
		peakRssMb: answer.peakRssMb ?? NaN,
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
		tokenRequests: (badTokens ?? best).tokenRequests,
		peakRssMb: Math.max(...attempts.map((r) => r.peakRssMb)),
		otherItemsPerSecond: attempts.filter((r) => r !== best).map((r) => r.itemsPerSecond),
	};
}

/** Adds the node-vs-HTTP ratios (items/s of the node divided by items/s of the HTTP route). */
export function compare(results: RunResult[]): void {
	const find = (route: string, r: RunResult) =>
		results.find(
			(o) =>
				o.route === route &&
				o.n === r.n &&
				o.concurrency === r.concurrency &&
				o.engine === r.engine &&
				o.ok,
		);
	for (const r of results) {
		if (!NODE_ROUTES.includes(r.route) || !r.ok) continue;
		const loop = find('httpLoop', r);
		const batching = find('httpBatching', r);
		r.vsLoop = loop && r.itemsPerSecond / loop.itemsPerSecond;
		r.vsBatching = batching && r.itemsPerSecond / batching.itemsPerSecond;
	}
}

export const fixed = (value: unknown, digits: number): string =>
	typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '-';

/** "2.41 (vm)": the engine of a run and the expression engine it reported. */
export const engineOf = (r: RunResult) =>
	`${r.engine}${r.expressionEngine ? ` (${r.expressionEngine})` : ''}`;

const alsoRan = (r: RunResult) =>
	r.otherItemsPerSecond
		? ` (also ${r.otherItemsPerSecond.map((v) => fixed(v, 0)).join(', ')})`
		: '';

const times = (ratio: number | undefined) => (ratio === undefined ? '' : `${fixed(ratio, 2)}x`);

const COLUMNS: Array<[string, (r: RunResult) => string]> = [
	['wall s', (r) => fixed((r.wallMs ?? NaN) / 1000, 2)],
	['items/s', (r) => fixed(r.itemsPerSecond, 0) + alsoRan(r)],
	['bound c/L', (r) => fixed(r.bound, 0)],
	['achieved/bound', (r) => fixed(r.ratio, 2)],
	['vs HTTP loop', (r) => times(r.vsLoop)],
	['vs HTTP batching', (r) => times(r.vsBatching)],
	['token req.', (r) => String(r.tokenRequests ?? '-')],
	['peak in flight', (r) => String(r.peakInFlight ?? '-')],
	[
		'CPU ms/item (of it kernel)',
		(r) => `${fixed(r.cpuMsPerItem, 2)} (${fixed(r.cpuSystemMsPerItem, 2)})`,
	],
	['CPU busy', (r) => `${fixed((r.cpuBusy ?? NaN) * 100, 0)}%`],
	['sandbox CPU ms/item', (r) => fixed(r.sandboxCpuMsPerItem, 2)],
	['gateway ms/request', (r) => fixed(r.serverMsPerRequest, 1)],
	[
		'event-loop lag mean / p99 ms',
		(r) => `${fixed(r.loopDelayMeanMs, 1)} / ${fixed(r.loopDelayP99Ms, 1)}`,
	],
	['peak RSS MB', (r) => fixed(r.peakRssMb, 0)],
	['RSS before run MB', (r) => fixed(r.rssBeforeMb, 0)],
	['heap peak / live after MB', (r) => `${fixed(r.peakHeapMb, 0)} / ${fixed(r.heapAfterGcMb, 0)}`],
	['load avg', (r) => fixed(r.loadAverage, 1)],
];

const engineIds = (results: RunResult[]) => [...new Set(results.map((r) => r.engine))];
const row = (cells: Array<string | number>) =>
	`| ${cells.map((cell) => String(cell).replace(/\|/g, '\\|')).join(' | ')} |`;

/** Every figure of every run, one row each; with an engine column when the runs used more than one. */
export function markdownTable(results: RunResult[]): string {
	const engines = engineIds(results).length > 1;
	const lead = (r: RunResult) => [
		label(r.route),
		...(engines ? [engineOf(r)] : []),
		r.n,
		r.concurrency,
	];
	const header = [
		'route',
		...(engines ? ['engine'] : []),
		'N',
		'c',
		...COLUMNS.map(([name]) => name),
	];
	const lines = results.map((r) =>
		r.wallMs === undefined
			? row([...lead(r), `FAILED: ${r.error}`, ...COLUMNS.slice(1).map(() => '')])
			: row([...lead(r), ...COLUMNS.map(([, cell]) => cell(r))]),
	);
	const rule = `|---|${header
		.slice(1)
		.map(() => '---:')
		.join('|')}|`;
	return [row(header), rule, ...lines].join('\n');
}

/** The engines side by side (with more than one): a row per route, N and c, a column per engine. */
export function sideBySide(results: RunResult[]): string[] {
	const ids = engineIds(results);
	if (ids.length < 2) return [];
	const first = (id: string) => results.find((r) => r.engine === id && r.n8nCore) ?? results[0];
	const cell = (r: RunResult | undefined) => {
		if (!r) return '';
		if (r.wallMs === undefined) return `failed: ${String(r.error).split('\n')[0]}`;
		return `${fixed(r.itemsPerSecond, 0)}${alsoRan(r)}, ${fixed(r.ratio * 100, 0)}% of bound, ${fixed(r.cpuMsPerItem, 2)} ms CPU/item, ${r.tokenRequests} token, ${fixed(r.peakRssMb, 0)} MB${r.ok ? '' : ' (incomplete)'}`;
	};
	const keys = [...new Set(results.map((r) => `${r.route}|${r.n}|${r.concurrency}`))];
	return [
		'Each cell: items/s (the other runs), share of the bound c/L, engine CPU per item, token requests, peak RSS.',
		'',
		...ids.map((id) => {
			const r = first(id);
			return `- ${id}: n8n-core ${r.n8nCore} on Node.js ${r.node}, expression engine ${r.expressionEngine}`;
		}),
		'',
		row(['route', 'N', 'c', ...ids.map((id) => engineOf(first(id)))]),
		`|---|---:|---:|${ids.map(() => '---').join('|')}|`,
		...keys.map((key) => {
			const of = (id: string) =>
				results.find((r) => r.engine === id && `${r.route}|${r.n}|${r.concurrency}` === key);
			const [route, n, c] = key.split('|');
			return row([label(route), n, c, ...ids.map((id) => cell(of(id)))]);
		}),
		'',
		'All figures:',
		'',
	];
}

/** The checks of the benchmark issues, per engine and node route. */
export function checks(results: RunResult[], options: CheckSettings): Check[] {
	const engines = engineIds(results);
	const routes = [...NODE_ROUTES, RECONCILE].filter((route) =>
		results.some((r) => r.route === route),
	);
	return engines.flatMap((engine) => {
		const own = results.filter((r) => r.engine === engine);
		return routes.flatMap((route) => {
			const prefix = [
				engines.length > 1 ? engineOf(own[0]) : '',
				routes.length > 1 ? label(route) : '',
			]
				.filter(Boolean)
				.join(', ');
			const list = [
				...checksOf(own, options, route),
				...(route === 'nodeAuto' ? autoTargets(own, options) : []),
			];
			return list.map((check) =>
				prefix ? { ...check, name: `[${prefix}] ${check.name}` } : check,
			);
		});
	});
}

const where = (r: RunResult) => `N=${r.n} c=${r.concurrency}`;

/** Issue 21's targets for the automatic mapping: share of the bound at c = 16 and 64; 1.5x HTTP Request. */
function autoTargets(results: RunResult[], options: CheckSettings): Check[] {
	const auto = results.filter((r) => r.route === 'nodeAuto' && r.ok);
	const out: Check[] = [];
	for (const [c, target] of Object.entries(AUTO_TARGET_RATIOS)) {
		const largest = Math.max(...options.sizes);
		const runs = auto.filter((r) => r.concurrency === Number(c) && r.n === largest);
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
			detail: compared.map((r) => `${where(r)}: ${times(r.vsLoop)}`).join(', '),
		});
	}
	return out;
}

function checksOf(results: RunResult[], options: CheckSettings, route: string): Check[] {
	const node = results.filter((r) => r.route === route);
	const largest = Math.max(...options.sizes);
	const smallest = Math.min(...options.sizes);
	const out: Check[] = [];

	// 1. The latency bound.
	const boundName = `concurrency ${CHECK_CONCURRENCY}, L = ${options.latencyMs} ms, N = ${largest}: at least ${TARGET_RATIO * 100}% of the latency bound`;
	const run = node.find((r) => r.concurrency === CHECK_CONCURRENCY && r.n === largest);
	if (!options.concurrency.includes(CHECK_CONCURRENCY)) {
		const detail = `concurrency ${CHECK_CONCURRENCY} is not in this run`;
		out.push({ name: boundName, status: 'SKIP', detail });
	} else if (!run || !run.ok) {
		const detail = `the run failed: ${run ? run.error : 'missing'}`;
		out.push({ name: boundName, status: 'FAIL', detail });
	} else {
		const notes: string[] = [];
		if (options.latencyMs !== 20) {
			notes.push(`measured at L = ${options.latencyMs} ms, the issue asks for 20 ms`);
		}
		if (largest !== 10000) notes.push(`measured at N = ${largest}, the issue asks for 10000`);
		out.push({
			name: boundName,
			status: run.ratio >= TARGET_RATIO ? 'PASS' : 'FAIL',
			detail: `${fixed(run.itemsPerSecond, 0)} items/s of a ${fixed(run.bound, 0)} items/s bound = ${fixed(run.ratio * 100, 1)}%; engine CPU ${fixed(run.cpuMsPerItem, 2)} ms/item caps one process at ~${fixed(1000 / run.cpuMsPerItem, 0)} items/s${notes.length ? ` (${notes.join('; ')})` : ''}`,
		});
	}

	// 2. One token request per run; flat memory.
	const problems: string[] = [];
	for (const r of node) {
		if (!r.ok) problems.push(`${where(r)} failed`);
		else if (r.tokenRequests !== 1) problems.push(`${where(r)}: ${r.tokenRequests} token requests`);
	}
	const memory: string[] = [];
	for (const c of options.concurrency) {
		const small = node.find((r) => r.n === smallest && r.concurrency === c && r.ok);
		const big = node.find((r) => r.n === largest && r.concurrency === c && r.ok);
		if (!small || !big || smallest === largest) continue;
		const limit = RSS_FACTOR * small.peakRssMb + RSS_ALLOWANCE_MB;
		memory.push(`c=${c}: ${fixed(big.peakRssMb, 0)} <= ${fixed(limit, 0)} MB`);
		if (big.peakRssMb > limit) {
			problems.push(`c=${c}: peak RSS ${fixed(big.peakRssMb, 0)} MB > ${fixed(limit, 0)} MB`);
		}
	}
	const sizes = memory.length ? memory.join(', ') : 'one size only: memory not compared';
	out.push({
		name: `exactly one token request per run; peak RSS at N = ${largest} <= ${RSS_FACTOR} x (N = ${smallest}) + ${RSS_ALLOWANCE_MB} MB`,
		status: problems.length ? 'FAIL' : 'PASS',
		detail: problems.length
			? problems.join('; ')
			: `${node.filter((r) => r.ok).length} runs with 1 token request each; ${sizes}`,
	});

	// 3. Faster than the HTTP Request route at an equal concurrency budget (Reconcile has none).
	if (route === RECONCILE) return out;
	const name =
		'faster than the HTTP Request route at an equal concurrency budget (Loop Over Items, c per batch)';
	if (!options.routes.includes('httpLoop')) {
		const detail = options.httpNote || 'the HTTP Request route was not run';
		return [...out, { name, status: 'SKIP', detail }];
	}
	const compared = node.filter((r) => r.vsLoop !== undefined);
	const slower = compared.filter((r) => r.vsLoop! <= 1);
	const missing = node.filter((r) => r.ok && r.vsLoop === undefined);
	const ratios = compared.map((r) => `${where(r)}: ${times(r.vsLoop)}`).join(', ');
	const noFigure = missing.length ? `; no HTTP figure for ${missing.map(where).join(', ')}` : '';
	out.push({
		name,
		status: compared.length && !slower.length && !missing.length ? 'PASS' : 'FAIL',
		detail: `${ratios}${noFigure}`,
	});
	return out;
}

/** Per profiled run: CPU per item by where it went, and the top functions by self time. */
export function profileLines(results: RunResult[], markdown: boolean): string[] {
	const profiled = results.filter((r) => r.cpuBreakdown);
	if (!profiled.length) return [];
	const msPerItem = (r: RunResult, share: number) =>
		`${fixed(share * r.cpuMsPerItem, 2)} (${fixed(share * 100, 0)}%)`;
	const title = (r: RunResult) =>
		`${engineOf(r)}, ${label(r.route)} N=${r.n} c=${r.concurrency}, ${fixed(r.cpuMsPerItem, 2)} ms/item`;
	const lines = [
		markdown
			? 'CPU of the engine process by where it went (profiled runs; ms per item, the profiler adds overhead):'
			: 'Where the CPU of the engine process went (CPU profile, ms per item; the profiler adds its own overhead):',
		...(markdown ? [''] : []),
		...profiled.map((r) => {
			const parts = r.cpuBreakdown!.filter((b) => b.share >= 0.005);
			return `${markdown ? '- ' : '  '}${title(r)}: ${parts.map((b) => `${b.name} ${msPerItem(r, b.share)}`).join('; ')}`;
		}),
	];
	if (!markdown) return lines;
	return [
		...lines,
		'',
		'Top functions by own (self) time in the CPU profile, ms per item (share of busy samples):',
		'',
		...profiled.map((r) => {
			const top = r.topFunctions!.slice(0, 6);
			return `- ${title(r)}: ${top.map((f) => `\`${f.name}\` ${msPerItem(r, f.share)}`).join('; ')}`;
		}),
	];
}
