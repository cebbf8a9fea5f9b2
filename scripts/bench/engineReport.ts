// The engines side by side (`--engine` with more than one): one row per route, N and c, one
// column per engine, and per engine the CPU profile's top costs.
import { engineOf, fixed, ROUTE_LABELS, type RunResult } from './report';

const engineIds = (results: RunResult[]) => [...new Set(results.map((r) => r.engine))];

/** "n8n-core 2.41.1 on Node.js v24.21.0, expressions in vm" for the engine's first run. */
function engineTitle(results: RunResult[], id: string): string {
	const run = results.find((r) => r.engine === id && r.n8nCore);
	if (!run) return id;
	return `${id}: n8n-core ${run.n8nCore} on Node.js ${run.node}, expression engine ${run.expressionEngine}`;
}

function cell(r: RunResult | undefined): string {
	if (!r) return '';
	if (r.wallMs === undefined)
		return `failed: ${String(r.error).split('\n')[0].replace(/\|/g, '\\|')}`;
	const others = r.otherItemsPerSecond
		? ` (also ${r.otherItemsPerSecond.map((v) => fixed(v, 0)).join(', ')})`
		: '';
	return `${fixed(r.itemsPerSecond, 0)}${others}, ${fixed(r.ratio * 100, 0)}% of bound, ${fixed(r.cpuMsPerItem, 2)} ms CPU/item, ${r.tokenRequests} token, ${fixed(r.peakRssMb, 0)} MB${r.ok ? '' : ' (incomplete)'}`;
}

/** Markdown lines of the side-by-side table (empty with one engine). */
export function sideBySideLines(results: RunResult[]): string[] {
	const ids = engineIds(results);
	if (ids.length < 2) return [];
	const keys: string[] = [];
	for (const r of results) {
		const key = `${r.route}|${r.n}|${r.concurrency}`;
		if (!keys.includes(key)) keys.push(key);
	}
	const lines = [
		'Each cell: items/s (the other runs), share of the bound c/L, engine CPU per item, token requests, peak RSS.',
		'',
		...ids.map((id) => `- ${engineTitle(results, id)}`),
		'',
		`| route | N | c | ${ids.map((id) => engineOf(results.find((r) => r.engine === id))).join(' | ')} |`,
		`|---|---:|---:|${ids.map(() => '---').join('|')}|`,
	];
	for (const key of keys) {
		const [route, n, c] = key.split('|');
		const of = (id: string) =>
			results.find(
				(r) =>
					r.engine === id && r.route === route && String(r.n) === n && String(r.concurrency) === c,
			);
		lines.push(
			`| ${ROUTE_LABELS[route]} | ${n} | ${c} | ${ids.map((id) => cell(of(id))).join(' | ')} |`,
		);
	}
	return lines;
}

/** Per profiled run: the top functions by self time, as ms per item and share. */
export function topCostLines(results: RunResult[]): string[] {
	const profiled = results.filter((r) => r.topFunctions && r.topFunctions.length);
	if (!profiled.length) return [];
	const lines = [
		'Top functions by own (self) time in the CPU profile, ms per item (share of busy samples):',
		'',
	];
	for (const r of profiled) {
		const parts = r
			.topFunctions!.slice(0, 6)
			.map(
				(f) => `\`${f.name}\` ${fixed(f.share * r.cpuMsPerItem, 2)} (${fixed(f.share * 100, 0)}%)`,
			);
		lines.push(
			`- ${engineOf(r)}, ${ROUTE_LABELS[r.route]} N=${r.n} c=${r.concurrency}, ${fixed(r.cpuMsPerItem, 2)} ms/item: ${parts.join('; ')}`,
		);
	}
	return lines;
}
