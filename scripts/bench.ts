// The benchmark (docs/benchmarks.md): bulk payouts through the Disbursement node in n8n's engine
// against the sandbox gateway with injected latency, next to the HTTP Request route a user would
// build without it. Prints the figures and a PASS/FAIL line per check, stores them with the machine,
// versions, date and command in docs/results/bench.json and renders docs/benchmarks.md from it
// (scripts/bench/render.ts); exits with 1 when a check fails, 2 on a usage error.
import fs from 'fs';
import os from 'os';
import path from 'path';

import { batchApprovalRoute } from './bench/batchApproval';
import { dailyMaximumRoute } from './bench/dailyMaximum';
import { startGateway } from './bench/gateway';
import { known, numbers, optionsOrExit, positive, readArgs, runMain } from './bench/options';
import { ENGINES, resolveEngine, type Engine } from './bench/engines';
import { summarise } from './bench/profile';
import { renderDocs, type BenchFigures } from './bench/render';
import * as report from './bench/report';
import type { RunResult } from './bench/report';
import {
	commandLine,
	nowUtc,
	resultFile,
	thisMachine,
	writeResult,
	type StoredResult,
} from './bench/results';
import type { RunAnswer, RunSpec } from './bench/runChild';
import { HTTP_ROUTES, NODE_ROUTES, ROUTES } from './bench/workflows';
import { ensureN8n, installedVersion } from './n8n/app';
import { appDir } from './n8n/paths';
import { lastLines } from './n8n/log';
import { runLogged } from './n8n/proc';
import { targetFor } from './n8n/targets';

const USAGE = `Usage: npm run bench -- [options]
  --quick               N = 200 and 1000, concurrency 4 and 16 (a sanity run; stores nothing
                        unless --write)
  --sizes 1000,10000    item counts (each N runs in a fresh process)
  --concurrency 1,4,16,64
  --latency 20          milliseconds the sandbox adds to every request
  --routes node,nodeAuto,httpLoop,httpBatching,reconcile
                        node: the Disbursement node, fields mapped with expressions (manual);
                        nodeAuto: the Disbursement node, Map Input Columns Automatically;
                        httpLoop: HTTP Request in Loop Over Items;
                        httpBatching: HTTP Request with its batching option (interval 0);
                        reconcile: Payout > Reconcile of N payouts the sandbox holds
  --engine 2.8,2.41,2.41-legacy
                        n8n engines, run alternately within each configuration (default 2.8):
                        2.8: the n8n-core the tests use, on this machine's Node.js;
                        2.41: n8n-core 2.41 from the installed n8n 2.41.1 on Node.js 24, its
                        default expression engine (isolated-vm); 2.41-legacy: the same with
                        N8N_EXPRESSION_ENGINE=legacy
  --all-engines         all three (--engine 2.8,2.41,2.41-legacy)
  --no-http             the Disbursement node only
  --no-install          do not install n8n into .n8n-app when it is missing (HTTP routes skipped)
  --write / --no-write  store the result in docs/results/bench.json and render docs/benchmarks.md
                        from it (default: yes, except with --quick)
  --repeat 1            runs per configuration; the fastest is shown (the others are listed),
                        token requests must be 1 in every one, and the highest peak RSS is kept
  --json <file>         also write the result (the stored result's form) to <file>
  --note <text>         a note stored with the result and shown beside its table (repeatable)
  --profile <dir>       write a CPU profile (.cpuprofile) of every run into <dir>
  --daily-maximum       the daily-maximum route alone: each size without and with Maximum Total
                        per Day, wall times, their ratio and ledger requests per payout (--sizes,
                        --concurrency, --repeat; scripts/bench/dailyMaximum.ts)
  --batch-approval      the batch-approval route alone: Prepare + Confirm of one batch against Create
  --help`;

const RUN_CHILD = path.join(__dirname, 'bench', 'runChild.ts');
const ENGINE_MODULES = path.join(__dirname, 'bench', 'engineModules.ts');
// Run processes are TypeScript too, on whichever Node.js their engine needs.
const TS_NODE = require.resolve('ts-node/register/transpile-only');
const WORK_DIR = path.join(os.tmpdir(), `n8n-bench-${process.pid}`);

const say = (line = '') => process.stdout.write(`${line}\n`);

type BenchOptions = NonNullable<ReturnType<typeof options>>;

function options(argv: string[]) {
	const values = readArgs(argv, {
		routes: { type: 'string', default: Object.keys(ROUTES).join(',') },
		engine: { type: 'string', default: '2.8' },
		'all-engines': { type: 'boolean' },
		'no-http': { type: 'boolean' },
		'no-install': { type: 'boolean' },
		json: { type: 'string' },
		note: { type: 'string', multiple: true },
	});
	if (values.help) return undefined;
	const { quick } = values;
	let routes = known(values.routes, 'route', Object.keys(ROUTES));
	if (values['no-http']) routes = routes.filter((route) => !HTTP_ROUTES.includes(route));
	if (!routes.some((route) => NODE_ROUTES.includes(route))) routes.unshift('node');
	const engines = values['all-engines'] ? Object.keys(ENGINES).join(',') : values.engine;
	return {
		quick,
		sizes: numbers(values.sizes, '--sizes', quick ? [200, 1000] : [1000, 10000]),
		concurrency: numbers(values.concurrency, '--concurrency', quick ? [4, 16] : [1, 4, 16, 64]),
		latencyMs: positive(values.latency, '--latency', 20),
		routes,
		engines: known(engines, 'engine', Object.keys(ENGINES)),
		install: !values['no-install'],
		write: values['no-write'] ? false : (values.write ?? !quick),
		json: values.json,
		profileDir: values.profile,
		repeat: positive(values.repeat, '--repeat', 1, true),
		notes: values.note ?? [],
		/** Why the HTTP Request routes did not run, if they did not. */
		httpNote: undefined as string | undefined,
		n8nAppVersion: undefined as string | undefined,
	};
}

/** The engine's n8n app (for its HTTP Request node), installed if allowed; else a note why not. */
async function ensureApp(options: BenchOptions, engine: Engine): Promise<string | undefined> {
	const { n8n } = ENGINES[engine.id];
	const httpNode = 'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js';
	const installed = () => fs.existsSync(path.join(appDir(n8n), 'node_modules', httpNode));
	let failure = '';
	if (!installed() && options.install) {
		try {
			await ensureN8n(targetFor(n8n));
			engine.appVersion = installedVersion(engine.appModules, 'n8n');
		} catch (error) {
			failure = String((error as Error).message).split('\n')[0];
		}
	}
	if (installed()) return undefined;
	const why = failure
		? `installing n8n into .n8n-app failed (${failure})`
		: options.install
			? 'n8n is not installed in .n8n-app and could not be installed'
			: 'n8n is not installed in .n8n-app (--no-install)';
	return `${why}: the HTTP Request route was skipped`;
}

/** The versions the figures belong to: each engine's n8n-core and Node.js, and the HTTP Request node's n8n. */
function versionsOf(engines: Engine[]): Record<string, string> {
	return Object.fromEntries(
		engines.flatMap(({ id, nodeVersion, n8nCore, appVersion }) => [
			[`engine ${id}`, `n8n-core ${n8nCore} on Node.js ${nodeVersion}`],
			...(appVersion ? [[`engine ${id} HTTP Request node`, `n8n ${appVersion}`]] : []),
		]),
	);
}

/** One run in a fresh process on its engine's Node.js; what it measured, or why not. */
async function runInChild(spec: RunSpec, engine: Engine): Promise<RunAnswer> {
	const logFile = spec.answerFile.replace(/\.json$/, '.log');
	// Generous: the slowest route at concurrency 1, three times over, plus start-up.
	const timeoutMs = 60_000 + spec.n * (spec.latencyMs + 30) * 3;
	const { code, output } = await runLogged(
		engine.execPath,
		['-r', TS_NODE, '-r', ENGINE_MODULES, '--expose-gc', RUN_CHILD, JSON.stringify(spec)],
		{ env: { ...engine.env, BENCH_ENGINE_MODULES: JSON.stringify(engine) }, logFile, timeoutMs },
	);
	if (fs.existsSync(spec.answerFile)) return JSON.parse(fs.readFileSync(spec.answerFile, 'utf8'));
	const ended =
		code === 124
			? `no answer within ${Math.round(timeoutMs / 1000)} s; stopped`
			: `the run process exited with code ${code} without an answer`;
	return {
		ok: false,
		error: `${ended} (${logFile}):\n${lastLines(output.trim(), 20)}`,
	};
}

function progressLine(r: RunResult): string {
	const where = `  ${report.engineOf(r).padEnd(20)} ${report.label(r.route).padEnd(34)} N=${String(r.n).padEnd(6)} c=${String(r.concurrency).padEnd(3)}`;
	if (r.wallMs === undefined) return `${where} FAILED: ${r.error}`;
	return `${where} ${(r.wallMs / 1000).toFixed(2).padStart(7)} s  ${r.itemsPerSecond.toFixed(0).padStart(5)} items/s  ${(r.ratio * 100).toFixed(0).padStart(4)}% of bound  peak in flight ${r.peakInFlight}  load ${r.loadAverage.toFixed(1)}${r.ok ? '' : `  INCOMPLETE: ${r.error}`}`;
}

async function main(argv: string[]): Promise<number> {
	if (argv.includes('--batch-approval'))
		return await batchApprovalRoute(argv.filter((arg) => arg !== '--batch-approval'));
	if (argv.includes('--daily-maximum'))
		return await dailyMaximumRoute(argv.filter((arg) => arg !== '--daily-maximum'));
	const opts = optionsOrExit(() => options(argv), USAGE);
	if (typeof opts === 'number') return opts;
	const engines: Engine[] = [];
	for (const id of opts.engines) engines.push(await resolveEngine(id));
	// HTTP routes per engine: the HTTP Request node of that engine's n8n app.
	const httpEngines = new Set<string>();
	if (opts.routes.some((route) => HTTP_ROUTES.includes(route))) {
		for (const engine of engines) {
			const note = await ensureApp(opts, engine);
			if (note) say(`NOTE: ${(opts.httpNote = `${engine.id}: ${note}`)}`);
			else httpEngines.add(engine.id);
		}
		if (!httpEngines.size)
			opts.routes = opts.routes.filter((route) => !HTTP_ROUTES.includes(route));
		if (engines.length === 1) opts.n8nAppVersion = engines[0].appVersion;
	}
	if (opts.profileDir) fs.mkdirSync(opts.profileDir, { recursive: true });
	fs.mkdirSync(WORK_DIR, { recursive: true });

	const machine = thisMachine();
	say(
		`Benchmark: ${opts.sizes.join(', ')} items x concurrency ${opts.concurrency.join(', ')}, L = ${opts.latencyMs} ms`,
	);
	say(`routes: ${opts.routes.map(report.label).join('; ')}`);
	say(
		`machine: ${machine.cores} cores, ${machine.memoryGb!.toFixed(1)} GB, Node.js ${machine.node}; sandbox in the parent process; each run in a fresh process`,
	);
	for (const engine of engines) {
		const app = engine.appVersion ? `, HTTP Request node from n8n ${engine.appVersion}` : '';
		say(`engine ${engine.id}: n8n-core ${engine.n8nCore} on Node.js ${engine.nodeVersion}${app}`);
	}
	if (engines.length > 1) say('engines run alternately within each configuration');
	say();

	const gateway = await startGateway();
	const results: RunResult[] = [];
	try {
		for (const n of opts.sizes) {
			for (const concurrency of opts.concurrency) {
				for (const route of opts.routes) {
					const ran = engines.filter((e) => !HTTP_ROUTES.includes(route) || httpEngines.has(e.id));
					const attempts = new Map<string, RunResult[]>(ran.map((engine) => [engine.id, []]));
					for (let attempt = 1; attempt <= opts.repeat; attempt++) {
						for (const engine of ran) {
							const engineTag = engine.id.replace(/[^A-Za-z0-9_-]/g, '');
							const tag = `${route}-${n}-${concurrency}-${engineTag}-${attempt}`;
							const name = `${route}-${n}-c${concurrency}${engines.length > 1 ? `-${engine.id}` : ''}${opts.repeat > 1 ? `-${attempt}` : ''}`;
							const spec: RunSpec = {
								route,
								n,
								concurrency,
								latencyMs: opts.latencyMs,
								url: gateway.url,
								tag,
								engineId: engine.id,
								appModules: engine.appModules,
								profile: opts.profileDir && path.resolve(opts.profileDir, `${name}.cpuprofile`),
								answerFile: path.join(WORK_DIR, `${tag}.json`),
							};
							await gateway.prepare(opts.latencyMs, ROUTES[route].seeded ? { n, tag } : undefined);
							const loadAverage = os.loadavg()[0];
							const answer = await runInChild(spec, engine);
							const result = report.figures(spec, answer, gateway.collect(), loadAverage);
							if (result.profile) Object.assign(result, summarise(result.profile));
							attempts.get(engine.id)!.push(result);
							say(progressLine(result));
						}
					}
					for (const list of attempts.values()) results.push(report.pickBest(list));
				}
			}
		}
	} finally {
		await gateway.close();
	}
	// The run processes' logs: kept when a run failed (its error names its log).
	if (results.every((r) => r.ok)) fs.rmSync(WORK_DIR, { recursive: true, force: true });
	say();
	return finish(results, opts, {
		kind: 'bench',
		date: nowUtc(),
		command: commandLine('npm run bench', argv),
		machine,
		versions: versionsOf(engines),
		settings: {
			sizes: opts.sizes,
			concurrency: opts.concurrency,
			latencyMs: opts.latencyMs,
			routes: opts.routes,
			engines: opts.engines,
			repeat: opts.repeat,
			httpNote: opts.httpNote,
		},
		notes: opts.notes,
	});
}

/** The stored result without its figures: where and how they were measured. */
type Provenance = Omit<StoredResult<BenchFigures>, 'figures'>;

/** Prints the table and the checks, stores the result and renders the doc when asked; the exit code. */
function finish(results: RunResult[], options: BenchOptions, run: Provenance): number {
	report.compare(results);
	const checks = report.checks(results, options);
	say(report.markdownTable(results));
	say();
	const profile = report.profileLines(results, false);
	if (profile.length) say(`${profile.join('\n')}\n`);
	for (const check of checks) say(`${check.status} ${check.name}: ${check.detail}`);
	if (options.httpNote) say(`NOTE: ${options.httpNote}`);

	const stored: StoredResult<BenchFigures> = { ...run, figures: { results, checks } };
	if (options.json) writeResult(stored, options.json);
	if (options.write) {
		const file = writeResult(stored, resultFile('bench'));
		say(`\nresult stored in ${path.relative(process.cwd(), file)}`);
		for (const doc of renderDocs()) say(`${doc} rendered from it`);
	} else {
		say('\n(nothing stored: --quick or --no-write)');
	}
	return checks.some((check) => check.status === 'FAIL') ? 1 : 0;
}

runMain(main);
