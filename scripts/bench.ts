// npm run bench -- [--quick] [--sizes 1000,10000] [--concurrency 1,4,16,64] [--latency 20] ...
// (see scripts/bench/args.ts or --help). Prints the figures and a PASS/FAIL line per check;
// exits non-zero when a check fails.
import { main } from './bench/main';

main(process.argv.slice(2)).then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error instanceof Error ? error.stack : error);
		process.exit(2);
	},
);
