// The benchmark: bulk payouts through the Disbursement node in n8n's engine against the sandbox
// gateway with injected latency, next to the HTTP Request route a user would build without it.
import fs from 'fs';
import os from 'os';
import path from 'path';

import { ensureN8n } from '../n8n/app';
import { appDir } from '../n8n/paths';
import { targetFor } from '../n8n/targets';
import { HTTP_ROUTES, parseArgs, USAGE, type BenchOptions } from './args';
import { ENGINES, resolveEngine, type Engine } from './engines';
import { runInChild, startSandbox } from './processes';
import { ROUTES } from './workflows';
import { summarise } from './profileSummary';
import * as report from './report';
import type { MachineInfo, RunResult } from './report';

const ROOT = path.resolve(__dirname, '..', '..');
const DOC = path.join(ROOT, 'docs', 'benchmarks.md');

const say = (line = '') => process.stdout.write(`${line}\n`);

/** The engine's n8n app (for its HTTP Request node), installed if allowed; else a note why not. */
async function ensureApp(
	options: BenchOptions,
	engine: Engine,
): Promise<{ note?: string; version?: string }> {
	const benchN8n = ENGINES[engine.id].n8n;
	const appRoot = appDir(benchN8n);
	const nodeFile = path.join(
		appRoot,
		'node_modules',
		'n8n-nodes-base',
		'dist',
		'nodes',
		'HttpRequest',
		'HttpRequest.node.js',
	);
	if (!fs.existsSync(nodeFile) && options.install) {
		try {
			await ensureN8n(targetFor(benchN8n));
		} catch (error) {
			return {
				note: `installing n8n into .n8n-app failed (${String(error.message).split('\n')[0]}): the HTTP Request route was skipped`,
			};
		}
	}
	if (!fs.existsSync(nodeFile)) {
		return {
			note: options.install
				? 'n8n is not installed in .n8n-app and could not be installed: the HTTP Request route was skipped'
				: 'n8n is not installed in .n8n-app (--no-install): the HTTP Request route was skipped',
		};
	}
	const version = JSON.parse(
		fs.readFileSync(path.join(appRoot, 'node_modules', 'n8n', 'package.json'), 'utf8'),
	).version;
	return { version };
}

/** Generous: the slowest route at concurrency 1, three times over, plus start-up. */
function timeoutFor(spec: { n: number; latencyMs: number }): number {
	return 60_000 + spec.n * (spec.latencyMs + 30) * 3;
}

function progressLine(result: RunResult): string {
	const label = `  ${`${result.engine}${result.expressionEngine ? ` (${result.expressionEngine})` : ''}`.padEnd(20)} ${report.ROUTE_LABELS[result.route].padEnd(34)} N=${String(result.n).padEnd(6)} c=${String(result.concurrency).padEnd(3)}`;
	if (result.wallMs === undefined) return `${label} FAILED: ${result.error}`;
	return `${label} ${(result.wallMs / 1000).toFixed(2).padStart(7)} s  ${result.itemsPerSecond.toFixed(0).padStart(5)} items/s  ${(result.ratio * 100).toFixed(0).padStart(4)}% of bound  peak in flight ${result.peakInFlight}  load ${result.loadAverage.toFixed(1)}${result.ok ? '' : `  INCOMPLETE: ${result.error}`}`;
}

export async function main(argv: string[]): Promise<number> {
	let options: BenchOptions;
	try {
		options = parseArgs(argv);
	} catch (error) {
		process.stderr.write(`${error.message}\n`);
		return 2;
	}
	if (options.help) {
		say(USAGE);
		return 0;
	}
	if (options.fromJson) return rerender(options);
	const engines: Engine[] = [];
	for (const id of options.engines) {
		try {
			engines.push(await resolveEngine(id));
		} catch (error) {
			process.stderr.write(`${error.message}\n`);
			return 2;
		}
	}
	// HTTP routes per engine: the HTTP Request node of that engine's n8n app.
	const httpEngines = new Set<string>();
	if (options.routes.some((route) => HTTP_ROUTES.includes(route))) {
		for (const engine of engines) {
			const app = await ensureApp(options, engine);
			if (app.note) {
				options.httpNote = `${engine.id}: ${app.note}`;
				say(`NOTE: ${options.httpNote}`);
			} else {
				httpEngines.add(engine.id);
				engine.appVersion = app.version;
				if (engines.length === 1) options.n8nAppVersion = app.version;
			}
		}
		if (!httpEngines.size)
			options.routes = options.routes.filter((route) => !HTTP_ROUTES.includes(route));
	}
	if (options.profileDir) fs.mkdirSync(options.profileDir, { recursive: true });

	const info = report.machine(options, argv, engines);
	say(
		`Benchmark: ${options.sizes.join(', ')} items x concurrency ${options.concurrency.join(', ')}, L = ${options.latencyMs} ms`,
	);
	say(`routes: ${options.routes.map((r) => report.ROUTE_LABELS[r]).join('; ')}`);
	say(
		`machine: ${info.cores} cores, ${info.memoryGb.toFixed(1)} GB, Node.js ${info.node}; sandbox in its own process; each run in a fresh process`,
	);
	for (const engine of engines)
		say(
			`engine ${engine.id}: n8n-core ${engine.n8nCore} on Node.js ${engine.nodeVersion}${engine.appVersion ? `, HTTP Request node from n8n ${engine.appVersion}` : ''}`,
		);
	if (engines.length > 1) say('engines run alternately within each configuration');
	say();

	const sandbox = await startSandbox();
	const results: RunResult[] = [];
	try {
		for (const n of options.sizes) {
			for (const concurrency of options.concurrency) {
				for (const route of options.routes) {
					const ran = engines.filter(
						(engine) => !HTTP_ROUTES.includes(route) || httpEngines.has(engine.id),
					);
					const attempts = new Map<string, RunResult[]>(ran.map((engine) => [engine.id, []]));
					for (let attempt = 1; attempt <= options.repeat; attempt++) {
						for (const engine of ran) {
							const name = `${route}-${n}-c${concurrency}${engines.length > 1 ? `-${engine.id}` : ''}${options.repeat > 1 ? `-${attempt}` : ''}`;
							const spec = {
								route,
								n,
								concurrency,
								latencyMs: options.latencyMs,
								url: sandbox.url,
								tag: `${route}-${n}-${concurrency}-${engine.id.replace(/[^A-Za-z0-9_-]/g, '')}-${attempt}`,
								engineId: engine.id,
								profile: options.profileDir
									? path.resolve(options.profileDir, `${name}.cpuprofile`)
									: undefined,
							};
							await sandbox.request('prepare', {
								latencyMs: options.latencyMs,
								seed: ROUTES[route].seeded ? { n, tag: spec.tag } : undefined,
							});
							const loadAverage = os.loadavg()[0];
							const answer = await runInChild(spec, engine, timeoutFor(spec));
							const stats = await sandbox.request('collect');
							const result = report.figures(spec, answer, stats, loadAverage);
							if (result.profile) {
								const summary = summarise(result.profile);
								result.cpuBreakdown = summary.buckets;
								result.topFunctions = summary.topFunctions;
							}
							attempts.get(engine.id)!.push(result);
							say(progressLine(result));
						}
					}
					for (const list of attempts.values()) results.push(report.pickBest(list));
				}
			}
		}
	} finally {
		await sandbox.close();
	}

	report.compare(results);
	say();
	return finish(results, options, info);
}

/** Prints the table and the checks, saves and writes what was asked; the exit code. */
function finish(results: RunResult[], options: BenchOptions, info: MachineInfo): number {
	const checkList = report.checks(results, options);
	say(report.textTable(results));
	say();
	const breakdown = report.breakdownText(results);
	if (breakdown) say(`${breakdown}\n`);
	for (const check of checkList) say(`${check.status} ${check.name}: ${check.detail}`);
	if (options.httpNote) say(`NOTE: ${options.httpNote}`);

	if (options.json)
		fs.writeFileSync(
			options.json,
			`${JSON.stringify({ info, options, results, checks: checkList }, null, 2)}\n`,
		);
	if (options.write) {
		report.writeDoc(DOC, report.markdownBlock(results, checkList, info, options));
		say(`\nfigures written to ${path.relative(process.cwd(), DOC) || DOC}`);
	} else {
		say('\n(docs/benchmarks.md not written: --quick or --no-write)');
	}
	return checkList.some((check) => check.status === 'FAIL') ? 1 : 0;
}

/** The checks and the doc again from a saved --json file (e.g. after editing the doc's prose). */
function rerender(cli: BenchOptions): number {
	const saved = JSON.parse(fs.readFileSync(cli.fromJson!, 'utf8')) as {
		info: MachineInfo;
		options: BenchOptions;
		results: RunResult[];
	};
	const options = { ...saved.options, write: cli.write !== false, json: undefined };
	say(`figures of ${saved.info.date} (${saved.info.command}) from ${cli.fromJson}\n`);
	// The ratios again, with this version's pairing (same engine, N and c).
	for (const r of saved.results) {
		delete r.vsLoop;
		delete r.vsBatching;
	}
	report.compare(saved.results);
	return finish(saved.results, options, saved.info);
}
