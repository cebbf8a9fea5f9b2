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
                        httpBatching: HTTP Request with its batching option (interval 0)
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

import { ENGINE_IDS } from './engines';

const ALL_ROUTES = ['node', 'nodeAuto', 'httpLoop', 'httpBatching'];
/** The Disbursement node's routes: every other route is compared with these. */
export const NODE_ROUTES = ['node', 'nodeAuto'];

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

function list(value: unknown, name: string): number[] {
	const numbers = String(value || '')
		.split(',')
		.map((part) => Number(part.trim()));
	if (numbers.length === 0 || numbers.some((n) => !Number.isInteger(n) || n < 1)) {
		throw new Error(
			`${name} needs a comma-separated list of positive whole numbers, got "${value}"`,
		);
	}
	return numbers;
}

export function parseArgs(argv: string[]): BenchOptions {
	const options: BenchOptions = {
		quick: false,
		sizes: [1000, 10000],
		concurrency: [1, 4, 16, 64],
		latencyMs: 20,
		routes: [...ALL_ROUTES],
		engines: ['2.8'],
		install: true,
		write: undefined,
		json: undefined,
		profileDir: undefined,
		repeat: 1,
		fromJson: undefined,
		help: false,
	};
	const explicit = new Set<string>();
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		const value = () => (inline !== undefined ? inline : argv[++i]);
		switch (flag) {
			case '--quick':
				options.quick = true;
				break;
			case '--sizes':
				options.sizes = list(value(), '--sizes');
				explicit.add('sizes');
				break;
			case '--concurrency':
				options.concurrency = list(value(), '--concurrency');
				explicit.add('concurrency');
				break;
			case '--latency': {
				const ms = Number(value());
				if (!Number.isFinite(ms) || ms <= 0)
					throw new Error('--latency needs a positive number of milliseconds');
				options.latencyMs = ms;
				break;
			}
			case '--routes': {
				const routes = String(value())
					.split(',')
					.map((r) => r.trim());
				const unknown = routes.filter((r) => !ALL_ROUTES.includes(r));
				if (unknown.length)
					throw new Error(
						`unknown route(s) ${unknown.join(', ')}; known: ${ALL_ROUTES.join(', ')}`,
					);
				options.routes = routes;
				break;
			}
			case '--engine':
			case '--n8n-core': {
				const engines = String(value())
					.split(',')
					.map((e) => e.trim());
				const unknown = engines.filter((e) => !ENGINE_IDS.includes(e));
				if (unknown.length || !engines.length)
					throw new Error(
						`unknown engine(s) ${unknown.join(', ')}; known: ${ENGINE_IDS.join(', ')}`,
					);
				options.engines = [...new Set(engines)];
				break;
			}
			case '--all-engines':
				options.engines = [...ENGINE_IDS];
				break;
			case '--no-http':
				options.routes = options.routes.filter((route) => NODE_ROUTES.includes(route));
				break;
			case '--no-install':
				options.install = false;
				break;
			case '--write':
				options.write = true;
				break;
			case '--no-write':
				options.write = false;
				break;
			case '--repeat': {
				const k = Number(value());
				if (!Number.isInteger(k) || k < 1)
					throw new Error('--repeat needs a positive whole number');
				options.repeat = k;
				break;
			}
			case '--json':
				options.json = value();
				break;
			case '--from-json':
				options.fromJson = value();
				break;
			case '--profile':
				options.profileDir = value();
				break;
			case '--help':
			case '-h':
				options.help = true;
				break;
			default:
				throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
		}
	}
	if (options.quick) {
		if (!explicit.has('sizes')) options.sizes = [200, 1000];
		if (!explicit.has('concurrency')) options.concurrency = [4, 16];
	}
	if (options.write === undefined) options.write = !options.quick;
	options.sizes = [...new Set(options.sizes)].sort((a, b) => a - b);
	options.concurrency = [...new Set(options.concurrency)].sort((a, b) => a - b);
	if (!options.routes.some((route) => NODE_ROUTES.includes(route))) options.routes.unshift('node');
	return options;
}
