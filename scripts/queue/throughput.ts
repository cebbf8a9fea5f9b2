// Executions per second and payouts per second with two workers, then with one, at the sandbox's
// latency L. Executions: many one-payout executions queued at once. Payouts: two 500-row runs
// queued at once. Time runs from the first request to the webhook process to the last
// execution's stop as n8n recorded it.
import os from 'os';
import { assert } from '../n8n/check';
import type { Check, QueueContext, ThroughputRow } from './context';
import { elapsedUntilLastStop, executionIds, startRun, waitForNew } from './executions';
import { PAYOUT_ROWS } from './payouts';
import { PAYOUTS, payoutRows, payoutWebhookUrl } from './workflows';

export const LATENCY_MS = 20;
const SMALL_EXECUTIONS = 40;
const LARGE_RUNS = 2;

export async function throughputChecks(ctx: QueueContext, check: Check): Promise<void> {
	const { rest, sandbox, cluster, webhookBase, figures } = ctx;
	const url = payoutWebhookUrl(webhookBase, PAYOUTS);

	/** Queues `runs`, waits for them all; seconds from the first request to the last stop. */
	async function timed(runs: Array<ReturnType<typeof payoutRows>>): Promise<number> {
		const known = await executionIds(rest, PAYOUTS.id);
		const started = Date.now();
		await Promise.all(runs.map((rows) => startRun(url, rows)));
		const executions = await waitForNew(rest, PAYOUTS.id, known, runs.length, 600000);
		const failed = executions.filter((e) => e.status !== 'success');
		assert(!failed.length, `${failed.length} executions did not succeed`);
		const created = (await sandbox.stats()).creationsByReference;
		const notOnce = runs.flat().filter((r) => created[r.reference_no] !== 1);
		assert(!notOnce.length, `${notOnce.length} payouts not created exactly once`);
		return elapsedUntilLastStop(started, executions);
	}

	async function measure(workers: number): Promise<void> {
		assert(
			cluster.workers().length === workers,
			`${cluster.workers().length} workers running, expected ${workers}`,
		);
		const small = Array.from({ length: SMALL_EXECUTIONS }, (_, i) =>
			payoutRows(`QUEUE-TP${workers}-E${i + 1}`, 1),
		);
		const executionSeconds = await timed(small);
		const large = Array.from({ length: LARGE_RUNS }, (_, i) =>
			payoutRows(`QUEUE-TP${workers}-P${i + 1}`, PAYOUT_ROWS),
		);
		const payoutSeconds = await timed(large);
		const row: ThroughputRow = {
			workers,
			executions: SMALL_EXECUTIONS,
			executionSeconds,
			payouts: LARGE_RUNS * PAYOUT_ROWS,
			payoutSeconds,
			load: os.loadavg()[0],
		};
		figures.throughput.push(row);
	}

	await sandbox.setLatency(LATENCY_MS);
	await check(`throughput with 2 workers at L = ${LATENCY_MS} ms`, () => measure(2));
	const [, last] = cluster.workers();
	if (last) await cluster.stopProcess(last);
	await check(`throughput with 1 worker at L = ${LATENCY_MS} ms`, () => measure(1));
}

export function throughputTable(rows: ThroughputRow[]): string {
	const lines = [
		`| workers | executions/s (${SMALL_EXECUTIONS} one-payout executions) | payouts/s (${LARGE_RUNS} x ${PAYOUT_ROWS}-row runs) | load average |`,
		'|---|---|---|---|',
		...rows.map(
			(r) =>
				`| ${r.workers} | ${(r.executions / r.executionSeconds).toFixed(1)} (${r.executionSeconds.toFixed(1)} s) | ${(r.payouts / r.payoutSeconds).toFixed(0)} (${r.payoutSeconds.toFixed(1)} s) | ${r.load.toFixed(1)} |`,
		),
	];
	return lines.join('\n');
}
