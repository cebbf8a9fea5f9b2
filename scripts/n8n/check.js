'use strict';
// A tiny sequential check runner for the end-to-end and browser scripts: each check is a named
// async function; a failure is reported and the next check still runs.
const { log, seconds } = require('./log');

function createChecks(label) {
	const results = [];

	async function check(name, fn) {
		const started = Date.now();
		try {
			await fn();
			results.push({ name, ok: true });
			log(`ok    ${name} (${seconds(started)})`);
		} catch (error) {
			results.push({ name, ok: false, error });
			log(`FAIL  ${name} (${seconds(started)})\n        ${String(error?.message ?? error).replace(/\n/g, '\n        ')}`);
		}
	}

	/** Prints `<label>: N passed, M failed` on its own line; returns the number failed. */
	function summary() {
		const failed = results.filter((r) => !r.ok);
		if (failed.length) process.stdout.write(`\nfailed:\n${failed.map((r) => `  - ${r.name}`).join('\n')}\n`);
		process.stdout.write(`\n${label}: ${results.length - failed.length} passed, ${failed.length} failed\n`);
		return failed.length;
	}

	/** { passed, failed } so far. */
	function tally() {
		const failed = results.filter((r) => !r.ok).length;
		return { passed: results.length - failed, failed };
	}

	return { check, summary, tally };
}

function assert(condition, message) {
	if (!condition) throw new Error(message);
}

function assertEqual(actual, expected, what) {
	if (JSON.stringify(actual) !== JSON.stringify(expected)) {
		throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
	}
}

/** Polls `probe` until it returns a truthy value; throws `message` after `timeoutMs`. */
async function waitFor(probe, { timeoutMs = 20000, intervalMs = 250, message = 'timed out' } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(message);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

module.exports = { createChecks, assert, assertEqual, waitFor };
