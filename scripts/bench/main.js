'use strict';
// The benchmark: bulk payouts through the Disbursement node in n8n's engine against the sandbox
// gateway with injected latency, next to the HTTP Request route a user would build without it.
const fs = require('fs');
const os = require('os');
const path = require('path');

const { parseArgs, USAGE } = require('./args');
const { startSandbox, runInChild } = require('./processes');
const report = require('./report');
const { summarise } = require('./profileSummary');

const ROOT = path.resolve(__dirname, '..', '..');
const DOC = path.join(ROOT, 'docs', 'benchmarks.md');
const HTTP_ROUTES = ['httpLoop', 'httpBatching'];

const say = (line = '') => process.stdout.write(`${line}\n`);

// The n8n whose HTTP Request node runs in this process's n8n-core (2.8.x, on Node 20).
const BENCH_N8N = '2.8.4';

/** The installed n8n app (for its HTTP Request node), installed if allowed; else a note why not. */
async function ensureApp(options) {
	const appHelper = path.join(ROOT, 'scripts', 'n8n', 'app.js');
	const appRoot = require('../n8n/paths').appDir(BENCH_N8N);
	const nodeFile = path.join(appRoot, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
	if (!fs.existsSync(nodeFile) && options.install && fs.existsSync(appHelper)) {
		try {
			await require(appHelper).ensureN8n(require('../n8n/targets').targetFor(BENCH_N8N));
		} catch (error) {
			return { note: `installing n8n into .n8n-app failed (${String(error.message).split('\n')[0]}): the HTTP Request route was skipped` };
		}
	}
	if (!fs.existsSync(nodeFile)) {
		return {
			note: options.install
				? 'n8n is not installed in .n8n-app and scripts/n8n/app.js is missing: the HTTP Request route was skipped'
				: 'n8n is not installed in .n8n-app (--no-install): the HTTP Request route was skipped',
		};
	}
	const version = JSON.parse(fs.readFileSync(path.join(appRoot, 'node_modules', 'n8n', 'package.json'), 'utf8')).version;
	return { version };
}

/** Generous: the slowest route at concurrency 1, three times over, plus start-up. */
function timeoutFor(spec) {
	return 60_000 + spec.n * (spec.latencyMs + 30) * 3;
}

function progressLine(result) {
	const label = `  ${report.ROUTE_LABELS[result.route].padEnd(34)} N=${String(result.n).padEnd(6)} c=${String(result.concurrency).padEnd(3)}`;
	if (result.wallMs === undefined) return `${label} FAILED: ${result.error}`;
	return `${label} ${(result.wallMs / 1000).toFixed(2).padStart(7)} s  ${result.itemsPerSecond.toFixed(0).padStart(5)} items/s  ${(result.ratio * 100).toFixed(0).padStart(4)}% of bound  peak in flight ${result.peakInFlight}  load ${result.loadAverage.toFixed(1)}${result.ok ? '' : `  INCOMPLETE: ${result.error}`}`;
}

async function main(argv) {
	let options;
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
	if (options.routes.some((route) => HTTP_ROUTES.includes(route))) {
		const app = await ensureApp(options);
		if (app.note) {
			options.httpNote = app.note;
			options.routes = options.routes.filter((route) => !HTTP_ROUTES.includes(route));
			say(`NOTE: ${app.note}`);
		} else {
			options.n8nAppVersion = app.version;
		}
	}
	if (options.profileDir) fs.mkdirSync(options.profileDir, { recursive: true });

	const info = report.machine(options, argv);
	say(`Benchmark: ${options.sizes.join(', ')} items x concurrency ${options.concurrency.join(', ')}, L = ${options.latencyMs} ms`);
	say(`routes: ${options.routes.map((r) => report.ROUTE_LABELS[r]).join('; ')}`);
	say(`machine: ${info.cores} cores, ${info.memoryGb.toFixed(1)} GB, Node.js ${info.node}; sandbox in its own process; each run in a fresh process`);
	say();

	const sandbox = await startSandbox();
	const results = [];
	try {
		for (const n of options.sizes) {
			for (const concurrency of options.concurrency) {
				for (const route of options.routes) {
					const attempts = [];
					for (let attempt = 1; attempt <= options.repeat; attempt++) {
						const spec = {
							route,
							n,
							concurrency,
							latencyMs: options.latencyMs,
							url: sandbox.url,
							tag: `${route}-${n}-${concurrency}-${attempt}`,
							profile: options.profileDir
								? path.resolve(options.profileDir, `${route}-${n}-c${concurrency}${options.repeat > 1 ? `-${attempt}` : ''}.cpuprofile`)
								: undefined,
						};
						await sandbox.request('prepare', { latencyMs: options.latencyMs });
						const loadAverage = os.loadavg()[0];
						const answer = await runInChild(spec, timeoutFor(spec));
						const stats = await sandbox.request('collect');
						const result = report.figures(spec, answer, stats, loadAverage);
						if (result.profile) result.cpuBreakdown = summarise(result.profile).buckets;
						attempts.push(result);
						say(progressLine(result));
					}
					results.push(report.pickBest(attempts));
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
function finish(results, options, info) {
	const checkList = report.checks(results, options);
	say(report.textTable(results));
	say();
	const breakdown = report.breakdownText(results);
	if (breakdown) say(`${breakdown}\n`);
	for (const check of checkList) say(`${check.status} ${check.name}: ${check.detail}`);
	if (options.httpNote) say(`NOTE: ${options.httpNote}`);

	if (options.json) fs.writeFileSync(options.json, `${JSON.stringify({ info, options, results, checks: checkList }, null, 2)}\n`);
	if (options.write) {
		report.writeDoc(DOC, report.markdownBlock(results, checkList, info, options));
		say(`\nfigures written to ${path.relative(process.cwd(), DOC) || DOC}`);
	} else {
		say('\n(docs/benchmarks.md not written: --quick or --no-write)');
	}
	return checkList.some((check) => check.status === 'FAIL') ? 1 : 0;
}

/** The checks and the doc again from a saved --json file (e.g. after editing the doc's prose). */
function rerender(cli) {
	const saved = JSON.parse(fs.readFileSync(cli.fromJson, 'utf8'));
	const options = { ...saved.options, write: cli.write !== false, json: undefined };
	say(`figures of ${saved.info.date} (${saved.info.command}) from ${cli.fromJson}\n`);
	return finish(saved.results, options, saved.info);
}

module.exports = { main };
