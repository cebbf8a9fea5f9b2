'use strict';
// Command-line options of `npm run bench -- [options]`.
const USAGE = `Usage: npm run bench -- [options]
  --quick               N = 200 and 1000, concurrency 4 and 16 (a sanity run; does not write the doc)
  --sizes 1000,10000    item counts (each N runs in a fresh process)
  --concurrency 1,4,16,64
  --latency 20          milliseconds the sandbox adds to every request
  --routes node,httpLoop,httpBatching
                        node: the Disbursement node; httpLoop: HTTP Request in Loop Over Items;
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

const ALL_ROUTES = ['node', 'httpLoop', 'httpBatching'];
const { ENGINE_IDS } = require('./engines');

function list(value, name) {
	const numbers = String(value || '')
		.split(',')
		.map((part) => Number(part.trim()));
	if (numbers.length === 0 || numbers.some((n) => !Number.isInteger(n) || n < 1)) {
		throw new Error(`${name} needs a comma-separated list of positive whole numbers, got "${value}"`);
	}
	return numbers;
}

function parseArgs(argv) {
	const options = {
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
	const explicit = new Set();
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
				if (!Number.isFinite(ms) || ms <= 0) throw new Error('--latency needs a positive number of milliseconds');
				options.latencyMs = ms;
				break;
			}
			case '--routes': {
				const routes = String(value()).split(',').map((r) => r.trim());
				const unknown = routes.filter((r) => !ALL_ROUTES.includes(r));
				if (unknown.length) throw new Error(`unknown route(s) ${unknown.join(', ')}; known: ${ALL_ROUTES.join(', ')}`);
				options.routes = routes;
				break;
			}
			case '--engine':
			case '--n8n-core': {
				const engines = String(value()).split(',').map((e) => e.trim());
				const unknown = engines.filter((e) => !ENGINE_IDS.includes(e));
				if (unknown.length || !engines.length) throw new Error(`unknown engine(s) ${unknown.join(', ')}; known: ${ENGINE_IDS.join(', ')}`);
				options.engines = [...new Set(engines)];
				break;
			}
			case '--all-engines':
				options.engines = [...ENGINE_IDS];
				break;
			case '--no-http':
				options.routes = ['node'];
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
				if (!Number.isInteger(k) || k < 1) throw new Error('--repeat needs a positive whole number');
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
	if (!options.routes.includes('node')) options.routes.unshift('node');
	return options;
}

module.exports = { parseArgs, USAGE };
