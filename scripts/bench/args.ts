// Command-line options of `npm run bench -- [options]`.
export const USAGE = `Usage: npm run bench -- [options]
  --quick               N = 200 and 1000, concurrency 4 and 16 (a sanity run; does not write the doc)
  --sizes 1000,10000    item counts (each N runs in a fresh process)
  --concurrency 1,4,16,64
  --latency 20          milliseconds the sandbox adds to every request
  --routes node,nodeAuto,httpLoop,httpBatching
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
  --write / --no-write  write docs/benchmarks.md (default: yes, except with --quick)
  --repeat 1            runs per configuration; the fastest is shown (the others are listed),
                        token requests must be 1 in every one, and the highest peak RSS is kept
  --json <file>         also write the raw figures as JSON
  --from-json <file>    no runs: print the checks and write the doc from figures saved with --json
  --profile <dir>       write a CPU profile (.cpuprofile) of every run into <dir>
  --help`;

import { parseArgs as parseNodeArgs } from 'node:util';

import { ENGINE_IDS } from './engines';

const ALL_ROUTES = ['node', 'nodeAuto', 'httpLoop', 'httpBatching', 'reconcile'];
/** The Disbursement node's payout routes: every HTTP Request route is compared with these. */
export const NODE_ROUTES = ['node', 'nodeAuto'];
/** The routes through n8n's HTTP Request node (they need the n8n app in .n8n-app). */
export const HTTP_ROUTES = ['httpLoop', 'httpBatching'];

export interface BenchOptions {
	quick: boolean;
	sizes: number[];
	concurrency: number[];
	latencyMs: number;
	routes: string[];
	engines: string[];
	install: boolean;
	write: boolean | undefined;
	json: string | undefined;
	profileDir: string | undefined;
	repeat: number;
	fromJson: string | undefined;
	help: boolean;
	httpNote?: string;
	n8nAppVersion?: string;
}

/** A comma-separated list of positive whole numbers. */
function list(value: string | undefined, name: string): number[] | undefined {
	if (value === undefined) return undefined;
	const numbers = value.split(',').map((part) => Number(part.trim()));
	if (numbers.some((n) => !Number.isInteger(n) || n < 1)) {
		throw new Error(
			`${name} needs a comma-separated list of positive whole numbers, got "${value}"`,
		);
	}
	return numbers;
}

/** The known entries of a comma-separated list, or an error naming the unknown ones. */
function known(value: string, name: string, allowed: string[]): string[] {
	const entries = [...new Set(value.split(',').map((entry) => entry.trim()))];
	const unknown = entries.filter((entry) => !allowed.includes(entry));
	if (unknown.length || !entries.length) {
		throw new Error(`unknown ${name}(s) ${unknown.join(', ')}; known: ${allowed.join(', ')}`);
	}
	return entries;
}

function positive(value: string | undefined, name: string, whole: boolean): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isFinite(number) || number <= 0 || (whole && !Number.isInteger(number))) {
		throw new Error(`${name} needs a positive ${whole ? 'whole number' : 'number'}`);
	}
	return number;
}

/** Node's own argument parser; the checks of each value are the benchmark's. */
export function parseArgs(argv: string[]): BenchOptions {
	let parsed: ReturnType<typeof parseCommandLine>;
	try {
		parsed = parseCommandLine(argv);
	} catch (error) {
		throw new Error(`${(error as Error).message}\n${USAGE}`);
	}
	const { values } = parsed;
	const quick = values.quick === true;
	const engineList = values['all-engines']
		? ENGINE_IDS.join(',')
		: (values.engine ?? values['n8n-core']);
	let routes =
		values.routes === undefined ? [...ALL_ROUTES] : known(values.routes, 'route', ALL_ROUTES);
	if (values['no-http']) routes = routes.filter((route) => !HTTP_ROUTES.includes(route));
	if (!routes.some((route) => NODE_ROUTES.includes(route))) routes.unshift('node');
	const sorted = (numbers: number[]) => [...new Set(numbers)].sort((a, b) => a - b);
	return {
		quick,
		sizes: sorted(list(values.sizes, '--sizes') ?? (quick ? [200, 1000] : [1000, 10000])),
		concurrency: sorted(
			list(values.concurrency, '--concurrency') ?? (quick ? [4, 16] : [1, 4, 16, 64]),
		),
		latencyMs: positive(values.latency, '--latency', false) ?? 20,
		routes,
		engines: engineList === undefined ? ['2.8'] : known(engineList, 'engine', ENGINE_IDS),
		install: values['no-install'] !== true,
		write: values['no-write'] ? false : values.write ? true : !quick,
		json: values.json,
		profileDir: values.profile,
		repeat: positive(values.repeat, '--repeat', true) ?? 1,
		fromJson: values['from-json'],
		help: values.help === true,
	};
}

function parseCommandLine(argv: string[]) {
	return parseNodeArgs({
		args: argv,
		strict: true,
		options: {
			quick: { type: 'boolean' },
			sizes: { type: 'string' },
			concurrency: { type: 'string' },
			latency: { type: 'string' },
			routes: { type: 'string' },
			engine: { type: 'string' },
			'n8n-core': { type: 'string' },
			'all-engines': { type: 'boolean' },
			'no-http': { type: 'boolean' },
			'no-install': { type: 'boolean' },
			write: { type: 'boolean' },
			'no-write': { type: 'boolean' },
			repeat: { type: 'string' },
			json: { type: 'string' },
			'from-json': { type: 'string' },
			profile: { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
	});
}
