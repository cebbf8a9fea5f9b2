// The command-line options both benchmarks share: lists of numbers and names, positive numbers,
// and the usage error that makes them exit with code 2.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

/** A comma-separated list of positive whole numbers, sorted, without repeats. */
export function numbers(value: string | undefined, name: string, fallback: number[]): number[] {
	if (value === undefined) return fallback;
	const list = value.split(',').map((part) => Number(part.trim()));
	if (list.some((n) => !Number.isInteger(n) || n < 1)) {
		throw new UsageError(
			`${name} needs a comma-separated list of positive whole numbers, got "${value}"`,
		);
	}
	return [...new Set(list)].sort((a, b) => a - b);
}

/** The entries of a comma-separated list, all of them known. */
export function known(value: string, name: string, allowed: string[]): string[] {
	const entries = [...new Set(value.split(',').map((entry) => entry.trim()))];
	const unknown = entries.filter((entry) => !allowed.includes(entry));
	if (unknown.length || !entries.length) {
		throw new UsageError(`unknown ${name}(s) ${unknown.join(', ')}; known: ${allowed.join(', ')}`);
	}
	return entries;
}

export function positive(value: string | undefined, name: string, fallback: number, whole = false) {
	if (value === undefined) return fallback;
	const number = Number(value);
	if (!Number.isFinite(number) || number <= 0 || (whole && !Number.isInteger(number))) {
		throw new UsageError(`${name} needs a positive ${whole ? 'whole number' : 'number'}`);
	}
	return number;
}

/** The options both benchmarks take, as `parseArgs` declares them. */
export const SHARED_OPTIONS = {
	quick: { type: 'boolean', default: false },
	sizes: { type: 'string' },
	concurrency: { type: 'string' },
	latency: { type: 'string' },
	repeat: { type: 'string' },
	profile: { type: 'string' },
	write: { type: 'boolean' },
	'no-write': { type: 'boolean' },
	help: { type: 'boolean', short: 'h' },
} as const;

/**
 * The options `read` takes from the command line, or the exit code once the usage is printed: 0
 * after --help (`read` answers undefined), 2 after a usage error.
 */
export function optionsOrExit<T>(read: () => T | undefined, usage: string): T | number {
	let options: T | undefined;
	try {
		options = read();
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n${usage}\n`);
		return 2;
	}
	if (options === undefined) process.stdout.write(`${usage}\n`);
	return options ?? 0;
}

/** The command line read with the shared options and a benchmark's own (`own`). */
export function readArgs<T extends NonNullable<ParseArgsConfig['options']>>(
	argv: string[],
	own: T,
) {
	return parseArgs({ args: argv, options: { ...SHARED_OPTIONS, ...own } }).values;
}

/**
 * Runs a benchmark's `main` on the command line and exits with its code (2 on an error). Ctrl-C
 * exits through process.exit, whose 'exit' handler (scripts/n8n/proc.ts) stops the processes the
 * benchmark started (run processes, n8n).
 */
export function runMain(main: (argv: string[]) => Promise<number>): void {
	process.on('SIGINT', () => process.exit(130));
	main(process.argv.slice(2)).then(
		(code) => process.exit(code),
		(error: unknown) => {
			console.error(error instanceof Error ? error.stack : error);
			process.exit(2);
		},
	);
}
