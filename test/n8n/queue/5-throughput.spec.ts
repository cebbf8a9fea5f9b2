// Executions per second and payouts per second with two workers, then with one, at the sandbox's
// latency L. Executions: many one-payout executions queued at once. Payouts: two 500-row runs
// queued at once. Time runs from the first request to the webhook process to the last
// execution's stop as n8n recorded it. Runs last: it stops a worker.
import os from 'os';
import { PAYOUTS, payoutRows, payoutWebhookUrl } from './workflows';
import {
	elapsedUntilLastStop,
	executionIds,
	expectCreatedOnce,
	startRun,
	waitForNew,
	type SandboxControl,
} from './executions';
import {
	LARGE_RUNS,
	LATENCY_MS,
	PAYOUT_ROWS,
	SMALL_EXECUTIONS,
	throughputTable,
	type Figures,
} from './figures';
import { expect, test, type Queue } from './fixtures';

test.describe.configure({ mode: 'serial', timeout: 25 * 60_000 });

/** Queues `runs`, waits for them all; seconds from the first request to the last stop. */
async function timed(
	{ rest, webhookBase }: Queue,
	sandbox: SandboxControl,
	runs: Array<ReturnType<typeof payoutRows>>,
): Promise<number> {
	const known = await executionIds(rest, PAYOUTS.id);
	const started = Date.now();
	await Promise.all(runs.map((rows) => startRun(payoutWebhookUrl(webhookBase, PAYOUTS), rows)));
	const executions = await waitForNew(rest, PAYOUTS.id, known, runs.length, 600000);
	const failed = executions.filter((e) => e.status !== 'success');
	expect(failed.length, 'executions that did not succeed').toBe(0);
	await expectCreatedOnce(
		sandbox,
		runs.flat().map((r) => r.reference_no),
	);
	return elapsedUntilLastStop(started, executions);
}

async function measure(queue: Queue, sandbox: SandboxControl, figures: Figures, workers: number) {
	expect(queue.cluster.workers().length, 'workers running').toBe(workers);
	await sandbox.setLatency(LATENCY_MS);
	const small = Array.from({ length: SMALL_EXECUTIONS }, (_, i) =>
		payoutRows(`QUEUE-TP${workers}-E${i + 1}`, 1),
	);
	const executionSeconds = await timed(queue, sandbox, small);
	const large = Array.from({ length: LARGE_RUNS }, (_, i) =>
		payoutRows(`QUEUE-TP${workers}-P${i + 1}`, PAYOUT_ROWS),
	);
	const payoutSeconds = await timed(queue, sandbox, large);
	figures.throughput.push({
		workers,
		executions: SMALL_EXECUTIONS,
		executionSeconds,
		payouts: LARGE_RUNS * PAYOUT_ROWS,
		payoutSeconds,
		load: os.loadavg()[0],
	});
}

test(`throughput with 2 workers at L = ${LATENCY_MS} ms`, async ({ queue, sandbox, figures }) => {
	await measure(queue, sandbox, figures, 2);
});

test(`throughput with 1 worker at L = ${LATENCY_MS} ms`, async ({
	queue,
	sandbox,
	figures,
}, testInfo) => {
	const [, last] = queue.cluster.workers();
	if (last) await queue.cluster.stopProcess(last);
	await measure(queue, sandbox, figures, 1);
	await testInfo.attach('throughput', { body: throughputTable(figures.throughput) });
});
