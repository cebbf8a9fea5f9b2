// A tiny sequential check runner for the end-to-end and browser scripts: each check is a named
// async function; a failure is reported and the next check still runs.
import { log, seconds } from './log';

/** Runs one named check; a failure is logged, never thrown. */
export type Check = (name: string, fn: () => unknown) => Promise<void>;

export function createChecks(label: string): {
	check: Check;
	summary: () => number;
	tally: () => { passed: number; failed: number };
} {
	const results: Array<{ name: string; ok: boolean; error?: unknown }> = [];

	async function check(name: string, fn: () => unknown): Promise<void> {
		const started = Date.now();
		try {
			await fn();
			results.push({ name, ok: true });
			log(`ok    ${name} (${seconds(started)})`);
		} catch (error) {
			results.push({ name, ok: false, error });
			const message = String((error as { message?: unknown } | null | undefined)?.message ?? error);
			log(`FAIL  ${name} (${seconds(started)})\n        ${message.replace(/\n/g, '\n        ')}`);
		}
	}

	/** Prints `<label>: N passed, M failed` on its own line; returns the number failed. */
	function summary(): number {
		const failed = results.filter((r) => !r.ok);
		if (failed.length)
			process.stdout.write(`\nfailed:\n${failed.map((r) => `  - ${r.name}`).join('\n')}\n`);
		process.stdout.write(
			`\n${label}: ${results.length - failed.length} passed, ${failed.length} failed\n`,
		);
		return failed.length;
	}

	/** { passed, failed } so far. */
	function tally(): { passed: number; failed: number } {
		const failed = results.filter((r) => !r.ok).length;
		return { passed: results.length - failed, failed };
	}

	return { check, summary, tally };
}

export function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

export function assertEqual(actual: unknown, expected: unknown, what: string): void {
	if (JSON.stringify(actual) !== JSON.stringify(expected)) {
		throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
	}
}

/** Polls `probe` until it returns a truthy value; throws `message` after `timeoutMs`. */
export async function waitFor<T>(
	probe: () => T | Promise<T>,
	{
		timeoutMs = 20000,
		intervalMs = 250,
		message = 'timed out',
	}: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
		if (Date.now() > deadline) throw new Error(message);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}
