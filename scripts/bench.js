'use strict';
// npm run bench -- [--quick] [--sizes 1000,10000] [--concurrency 1,4,16,64] [--latency 20] ...
// (see scripts/bench/args.js or --help). Prints the figures and a PASS/FAIL line per check;
// exits non-zero when a check fails.
require('./bench/main')
	.main(process.argv.slice(2))
	.then(
		(code) => process.exit(code),
		(error) => {
			console.error(error instanceof Error ? error.stack : error);
			process.exit(2);
		},
	);
