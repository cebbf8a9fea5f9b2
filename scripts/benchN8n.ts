// The benchmark in a real n8n (docs/benchmarks.md, "Real n8n"): `n8n start` on SQLite with the
// packed package installed as a community package, executions saved, the sandbox gateway (in this
// process) at an injected latency. Each run POSTs N rows to its workflow's production webhook and
// is measured by n8n's own execution record (startedAt -> stoppedAt); the sandbox counts the token
// requests, payout requests and payouts created, and /proc gives the n8n process's peak RSS during
// the run. Stores the figures with the machine, versions, date and command in
// docs/results/bench-n8n.json and renders docs/benchmarks.md from it (scripts/bench/render.ts).
// Exits with 1 when a run failed or did not create exactly N payouts with one token request.
import fs from 'fs';
import os from 'os';
import path from 'path';

import { EditorApi } from '../test/n8n/editorApi';
import { SANDBOX_CREDENTIALS } from '../sandbox';
import { startGateway } from './bench/gateway';
import { N8N_ROUTES, n8nRoute } from './bench/n8nWorkflows';
import { known, numbers, optionsOrExit, positive, readArgs, runMain } from './bench/options';
import { summarise } from './bench/profile';
import { benchN8nTable, renderDocs, type BenchN8nFigures, type N8nRow } from './bench/render';
import {
	commandLine,
	nowUtc,
	resultFile,
	thisMachine,
	writeResult,
	type StoredResult,
} from './bench/results';
import { payoutItems } from './bench/workflows';
import { ensureN8n } from './n8n/app';
import { sandboxCredentials } from './n8n/credentials';
import { N8nInstance, type N8nServer } from './n8n/instance';
import { installPackage } from './n8n/pack';
import { freePort, sleep } from './n8n/proc';
import { major, targetFor } from './n8n/targets';

const USAGE = `Usage: npm run bench:n8n -- [options]
  --quick               N = 500, concurrency 16, one pass (a sanity run; stores nothing unless --write)
  --sizes 2000,10000    rows per run
  --concurrency 16,64   the Disbursement node's Options > Concurrency, Loop Over Items' batch size
  --routes A,B,C        A: Disbursement v2 Create, columns mapped automatically;
                        B: the same with its fields mapped as {{ $json.… }};
                        C: HTTP Request in Loop Over Items (batch size c) after a token request
  --repeat 2            passes over every configuration, the routes' order reversed each pass
  --latency 20          milliseconds the sandbox adds to every request
  --n8n 2.41.1          the installed n8n version to start (scripts/n8n/targets.ts)
  --no-warmup           no warm-up run (500 rows, not counted) of each workflow before the passes
  --profile <dir>       start n8n with --cpu-prof into <dir>; summarised when n8n stops
  --write / --no-write  store the result in docs/results/bench-n8n.json and render
                        docs/benchmarks.md from it (default: yes, except with --quick)
  --note <text>         a note stored with the result and shown beside its table (repeatable)
  --help`;

const OWNER = {
	email: 'bench@example.com',
	firstName: 'Bench',
	lastName: 'Mark',
	password: 'Bench-Password-1',
};

/** A little more than the 30 s for which the node reuses a token it fetched. */
const TOKEN_REUSE_MS = 31_000;
/** Rows of each workflow's warm-up run. */
const WARMUP_ROWS = 500;

const say = (line = '') => process.stdout.write(`${line}\n`);

type Options = NonNullable<ReturnType<typeof options>>;

function options(argv: string[]) {
	const values = readArgs(argv, {
		routes: { type: 'string', default: Object.keys(N8N_ROUTES).join(',') },
		n8n: { type: 'string', default: '2.41.1' },
		'no-warmup': { type: 'boolean' },
		note: { type: 'string', multiple: true },
	});
	if (values.help) return undefined;
	const { quick } = values;
	return {
		sizes: numbers(values.sizes, '--sizes', quick ? [500] : [2000, 10000]),
		concurrency: numbers(values.concurrency, '--concurrency', quick ? [16] : [16, 64]),
		routes: known(values.routes, 'route', Object.keys(N8N_ROUTES)),
		repeat: positive(values.repeat, '--repeat', quick ? 1 : 2, true),
		latencyMs: positive(values.latency, '--latency', 20),
		n8n: values.n8n,
		warmup: !values['no-warmup'] && !quick,
		profileDir: values.profile && path.resolve(values.profile),
		write: values['no-write'] ? false : (values.write ?? !quick),
		notes: values.note ?? [],
	};
}

interface Run {
	route: string;
	n: number;
	concurrency: number;
	pass: number;
	load: number;
	/** n8n's own record: stoppedAt - startedAt. */
	seconds?: number;
	itemsPerSecond?: number;
	status?: string;
	/** The n8n process's CPU time per item, from the webhook call until the REST API lists the execution finished (saving it and answering the polls included). */
	cpuMsPerItem?: number;
	/** The n8n process's peak RSS during the run (VmHWM, reset before it). */
	peakRssMb?: number;
	tokenRequests?: number;
	payoutRequests?: number;
	/** Most payout requests at the gateway at once, and its time per request (L plus its own). */
	peakInFlight?: number;
	gatewayMs?: number;
	payoutsCreated?: number;
	/** Why the run does not count, if it does not. */
	problem?: string;
}

/** The n8n process's peak RSS since the last reset, in MB. */
function peakRssMb(pid: number): number {
	const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
	return kb ? Number(kb[1]) / 1024 : NaN;
}

/** CPU time (user + kernel) the process has used, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
	const fields = fs
		.readFileSync(`/proc/${pid}/stat`, 'utf8')
		.replace(/^.*\) /, '')
		.split(' ');
	// After the command name: state is field 3, utime field 14 and stime field 15 of the full line.
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Sets the peak RSS back to the current RSS (Linux: 5 > /proc/<pid>/clear_refs). */
function resetPeakRss(pid: number): void {
	fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

interface Listed {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt?: string;
}

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/** The workflow's first execution not in `known`, once it has finished. */
async function finishedExecution(
	rest: EditorApi,
	workflowId: string,
	known: Set<string>,
	timeoutMs: number,
): Promise<Listed> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const fresh = ((await rest.executions(workflowId)) as Listed[]).find(
			(e) => !known.has(String(e.id)),
		);
		if (fresh && FINISHED.has(fresh.status)) return fresh;
		if (Date.now() > deadline)
			throw new Error(
				`no finished execution of ${workflowId} within ${timeoutMs / 1000} s (${fresh?.status ?? 'none started'})`,
			);
		await sleep(500);
	}
}

async function main(argv: string[]): Promise<number> {
	const opts = optionsOrExit(() => options(argv), USAGE);
	if (typeof opts === 'number') return opts;
	const runtime = await ensureN8n(targetFor(opts.n8n));
	const gateway = await startGateway();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'benchn8n-'));
	const instance = new N8nInstance(folder, runtime);
	const credentials = sandboxCredentials(gateway.url, SANDBOX_CREDENTIALS);
	const disbursement = credentials.find((c) => c.type === 'disbursementApi')!;
	const routes = opts.routes.flatMap((letter) =>
		opts.concurrency.map((concurrency) => ({
			letter,
			concurrency,
			...n8nRoute(letter, {
				concurrency,
				url: gateway.url,
				credentials: SANDBOX_CREDENTIALS.disbursement,
			}),
		})),
	);
	say(`n8n ${runtime.n8nVersion} on Node.js ${runtime.node.version}; user folder ${folder}`);
	await installPackage(folder);
	await instance.importCredentials(credentials);
	await instance.importWorkflows(routes.map((r) => r.workflow));

	// Only `n8n start` is profiled: the CLI commands above ran without it.
	const started = opts.profileDir
		? new N8nInstance(folder, {
				...runtime,
				env: {
					...runtime.env,
					NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${opts.profileDir}`,
				},
			})
		: instance;
	const server: N8nServer = await started.start({ port: await freePort(25678) });
	const results: Run[] = [];
	try {
		const pid = server.pid!;
		say(`n8n start: pid ${pid}, ${server.url}, log ${server.logFile}`);
		const rest = new EditorApi(server.url, runtime.appDir);
		await rest.setupOwnerOrLogin(OWNER);
		for (const { workflow } of routes) {
			const outcome = await rest.publish(workflow.id, major(runtime.n8nVersion));
			if (!outcome.published) throw new Error(`${workflow.id} not published: ${outcome.message}`);
		}
		let lastNodeRun = 0;
		/** One run of route `letter` at c with n rows: started by its webhook, checked, measured. */
		const measure = async (letter: string, concurrency: number, n: number, pass: number) => {
			const route = routes.find((r) => r.letter === letter && r.concurrency === concurrency)!;
			const run: Run = { route: letter, n, concurrency, pass, load: 0 };
			try {
				// No stored token: each run starts as the first run of the day does. Saving the
				// credential through the REST API keeps its hidden token; importing it again does not.
				await instance.importCredentials([disbursement]);
				// The node hands a token it fetched in the last 30 s to callers holding none
				// (nodes/shared/transport/token.ts); the sandbox forgets it below, so each
				// Disbursement run starts that long after the previous one began.
				if (letter !== 'C') await sleep(Math.max(0, lastNodeRun + TOKEN_REUSE_MS - Date.now()));
				await gateway.prepare(opts.latencyMs);
				const known = new Set((await rest.executions(route.workflow.id)).map((e) => e.id));
				const rows = payoutItems(n, `${letter}${concurrency}-${n}-${pass}`);
				await sleep(1000); // let the polling and the previous run's saving settle
				resetPeakRss(pid);
				run.load = os.loadavg()[0];
				const cpuBefore = cpuMs(pid);
				if (letter !== 'C') lastNodeRun = Date.now();
				const res = await fetch(`${server.url}/webhook/${route.path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ rows }),
				});
				if (res.status !== 200)
					throw new Error(`the webhook answered ${res.status}: ${await res.text()}`);
				const execution = await finishedExecution(
					rest,
					route.workflow.id,
					known,
					120_000 + n * 100,
				);
				run.peakRssMb = peakRssMb(pid);
				run.cpuMsPerItem = (cpuMs(pid) - cpuBefore) / n;
				const figures = gateway.collect();
				run.status = execution.status;
				run.seconds =
					(Date.parse(execution.stoppedAt ?? '') - Date.parse(execution.startedAt)) / 1000;
				run.itemsPerSecond = n / run.seconds;
				run.tokenRequests = figures.tokenRequests;
				run.payoutsCreated = figures.payoutsCreated;
				run.payoutRequests = figures.requests - figures.tokenRequests;
				run.peakInFlight = figures.peakInFlight;
				run.gatewayMs = figures.serverMsPerRequest;
				const wrong = [
					run.status !== 'success' && `execution ${execution.id} ended ${run.status}`,
					run.payoutsCreated !== n && `${run.payoutsCreated} payouts created, not ${n}`,
					run.payoutRequests !== n && `${run.payoutRequests} payout requests, not ${n}`,
					run.tokenRequests !== 1 && `${run.tokenRequests} token requests, not 1`,
				].filter(Boolean);
				if (wrong.length) run.problem = wrong.join('; ');
			} catch (error) {
				run.problem = (error as Error).message;
			}
			return run;
		};
		// A warm-up run per workflow, not counted: a long-running n8n has loaded the nodes' code and
		// compiled it; a fresh one spends the first runs doing so (up to twice the CPU per item).
		for (const { letter, concurrency } of opts.warmup ? routes : []) {
			const run = await measure(letter, concurrency, WARMUP_ROWS, 0);
			say(`${progressLine(run)}  (warm-up, not counted)`);
		}
		for (let pass = 1; pass <= opts.repeat; pass++) {
			for (const n of opts.sizes) {
				for (const concurrency of opts.concurrency) {
					const letters = pass % 2 ? opts.routes : [...opts.routes].reverse();
					for (const letter of letters) {
						const run = await measure(letter, concurrency, n, pass);
						results.push(run);
						say(progressLine(run));
					}
				}
			}
		}
	} finally {
		await server.stop();
		await gateway.close();
	}
	if (opts.profileDir) sayProfile(opts.profileDir);
	const rows = rowsOf(results, opts);
	say();
	say(benchN8nTable(rows));
	const failed = results.filter((r) => r.problem);
	if (opts.write) {
		const stored: StoredResult<BenchN8nFigures> = {
			kind: 'bench-n8n',
			date: nowUtc(),
			command: commandLine('npm run bench:n8n', argv),
			machine: thisMachine(),
			versions: { n8n: runtime.n8nVersion, 'n8n on Node.js': runtime.node.version },
			settings: {
				sizes: opts.sizes,
				concurrency: opts.concurrency,
				routes: opts.routes,
				repeat: opts.repeat,
				latencyMs: opts.latencyMs,
				warmup: opts.warmup,
				expressionEngine: process.env.N8N_EXPRESSION_ENGINE || 'n8n default',
			},
			notes: opts.notes,
			figures: { rows },
		};
		const file = writeResult(stored, resultFile('bench-n8n'));
		say(`\nresult stored in ${path.relative(process.cwd(), file)}`);
		for (const doc of renderDocs()) say(`${doc} rendered from it`);
	}
	if (failed.length) {
		say(`\nFAIL ${failed.length} run(s) did not count; the user folder is kept: ${folder}`);
		return 1;
	}
	fs.rmSync(folder, { recursive: true, force: true });
	return 0;
}

function progressLine(r: Run): string {
	const where = `  pass ${r.pass} ${r.route} N=${String(r.n).padEnd(6)} c=${String(r.concurrency).padEnd(3)} load ${r.load.toFixed(2)}`;
	if (r.itemsPerSecond === undefined) return `${where} FAILED: ${r.problem}`;
	return `${where} ${r.seconds!.toFixed(2).padStart(7)} s ${r.itemsPerSecond.toFixed(0).padStart(5)} items/s  ${r.cpuMsPerItem!.toFixed(2)} CPU ms/item  peak RSS ${r.peakRssMb!.toFixed(0)} MB  in flight ${r.peakInFlight}  gateway ${r.gatewayMs!.toFixed(1)} ms/request  token ${r.tokenRequests}  created ${r.payoutsCreated}${r.problem ? `  PROBLEM: ${r.problem}` : ''}`;
}

/** The runs as the stored result keeps them: one row per route, N and c, with every pass. */
function rowsOf(results: Run[], opts: Options): N8nRow[] {
	return opts.sizes.flatMap((n) =>
		opts.concurrency.flatMap((concurrency) =>
			opts.routes.map((route) => {
				const runs = results.filter(
					(r) => r.route === route && r.n === n && r.concurrency === concurrency,
				);
				return {
					route,
					label: N8N_ROUTES[route].label,
					n,
					concurrency,
					passes: runs.map(({ pass, load, itemsPerSecond, cpuMsPerItem, gatewayMs, ...r }) => ({
						pass,
						load,
						itemsPerSecond,
						cpuMsPerItem,
						gatewayMs,
						tokenRequests: r.tokenRequests,
						payoutsCreated: r.payoutsCreated,
						problem: r.problem,
					})),
					peakInFlight: Math.max(...runs.map((r) => r.peakInFlight ?? 0)),
					peakRssMb: Math.max(...runs.map((r) => r.peakRssMb ?? 0)),
				};
			}),
		),
	);
}

/** Where n8n's CPU went over the whole profiled process (every run of this benchmark). */
function sayProfile(dir: string): void {
	const files = fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.cpuprofile'))
		.map((f) => path.join(dir, f))
		.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
	if (!files.length) {
		say(`no .cpuprofile in ${dir}`);
		return;
	}
	const { cpuBreakdown, topFunctions } = summarise(files[0]);
	say(`\nCPU profile of n8n (${files[0]}):`);
	for (const { name, share } of [...cpuBreakdown, ...topFunctions])
		say(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
}

runMain(main);
