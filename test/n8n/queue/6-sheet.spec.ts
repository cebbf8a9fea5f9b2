// A sheet of QUEUE_SHEET_ROWS rows paid through example 09 (docs/scaling.md, "A sheet of 100,000
// rows"): its manual branch, run by `n8n execute` outside the workers, posts batches of 1,000 rows
// to its published webhook; the webhook process queues each batch and a worker pays it. Measured
// with two workers, then one fresh worker; then a worker is killed (SIGKILL) mid-way and the same
// sheet is run again. Left out of `npm run e2e:queue` unless QUEUE_SHEET_ROWS is set:
//   QUEUE_SHEET_ROWS=100000 npx playwright test -c test/n8n --project=queue 6-sheet
// QUEUE_WORKER_HEAP_MB=512 starts each worker with --max-old-space-size=512 (its peak memory then
// flat from 10,000 rows: docs/scaling.md). QUEUE_SHEET_STORE=1 stores the runs as
// docs/results/queue-sheet.json and renders docs/scaling.md's table from them.
import fs from 'fs';
import os from 'os';
import { renderDocs, type SheetRun, type WorkerPeak } from '../../../scripts/bench/render';
import { nowUtc, thisMachine, writeResult } from '../../../scripts/bench/results';
import type { N8nRuntime } from '../../../scripts/n8n/app';
import { log } from '../../../scripts/n8n/log';
import { signalGroup, sleep } from '../../../scripts/n8n/proc';
import { WORKER_CONCURRENCY, type N8nProcess } from './cluster';
import type { SandboxControl, SandboxStats } from './executions';
import { LATENCY_MS } from './figures';
import { expect, test, type Queue } from './fixtures';
import { SHEET_ROWS, sheetExample, sheetRun } from './workflows';

/** Rows of the sheet run when a worker is killed mid-way (QUEUE_SHEET_KILL_ROWS, else the same). */
const KILL_ROWS = Number(process.env.QUEUE_SHEET_KILL_ROWS) || SHEET_ROWS;
/** The row counts at which each worker's peak memory is read before the end. */
const MILESTONES = [10000, 50000];
const POLL_MS = 2000;
/** Rows per batch in example 09. */
const BATCH_ROWS = 1000;

test.describe.configure({ mode: 'serial', timeout: 120 * 60_000 });
test.skip(!SHEET_ROWS, 'QUEUE_SHEET_ROWS is not set');

/** Peak resident memory (VmHWM) in MB of a process and, apart, of its descendants (the task runner). */
function peakMb(pid: number): { worker: number; runner: number } {
	const hwm = (p: number) => {
		try {
			const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
			return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
		} catch {
			return 0;
		}
	};
	const children = (p: number): number[] => {
		try {
			return fs
				.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8')
				.split(/\s+/)
				.filter(Boolean)
				.map(Number);
		} catch {
			return [];
		}
	};
	const descendants = (p: number): number[] => children(p).flatMap((c) => [c, ...descendants(c)]);
	return { worker: hwm(pid), runner: Math.max(0, ...descendants(pid).map(hwm)) };
}

interface Summary {
	batches_queued: number;
	batches_answered: number;
	batches_without_answer: number;
	paid: number;
	replayed: number;
	failed: number;
}

interface SheetResult {
	label: string;
	workers: number;
	rows: number;
	/** From the first payout the service created to the last, polled every POLL_MS. */
	payoutSeconds: number;
	/** Payouts of the sheet the service created during this run. */
	newPayouts: number;
	/** `n8n execute` from start to end, its own start-up included. */
	runSeconds: number;
	/** Each worker's peak memory when the service had created MILESTONES[i] of the sheet's payouts. */
	peakAt: Array<Record<string, { worker: number; runner: number }>>;
	peakEnd: Record<string, { worker: number; runner: number }>;
	tokens: { collection: number; disbursement: number };
	summary: Summary;
	/** The machine's 1-minute load average at the end (other programs included). */
	load: number;
	/** The sheet's references checked after this run: never created, created more than once. */
	paidOnce?: { lost: number; duplicates: number };
	killedAtPayouts?: number;
}

const results: SheetResult[] = [];
/** The n8n the runs used, for the stored result. */
let ranOn: N8nRuntime | undefined;

function refs(sheet: string, rows: number): string[] {
	return Array.from({ length: rows }, (_, i) => `${sheet}-${String(i + 1).padStart(6, '0')}`);
}

function createdCount(stats: SandboxStats, sheet: string): number {
	return Object.keys(stats.creationsByReference).filter((ref) => ref.startsWith(`${sheet}-`))
		.length;
}

/** References of the sheet the service never created, and those it created more than once. */
function lostAndDuplicated(stats: SandboxStats, sheet: string, rows: number) {
	const counts = refs(sheet, rows).map((ref) => stats.creationsByReference[ref] ?? 0);
	return {
		lost: counts.filter((c) => c === 0).length,
		duplicates: counts.filter((c) => c > 1).length,
	};
}

/** The "Run summary" node's item in `n8n execute --rawOutput`'s output (after n8n's log lines). */
function summaryOf(output: string): Summary {
	const start = output.search(/^\{/m);
	try {
		const run = JSON.parse(output.slice(start)) as {
			data: {
				resultData: {
					runData: Record<string, Array<{ data: { main: Array<Array<{ json: Summary }>> } }>>;
				};
			};
		};
		return run.data.resultData.runData['Run summary'][0].data.main[0][0].json;
	} catch (error) {
		throw new Error(
			`no run summary in the run's output (${String(error)}):\n${output.slice(-2000)}`,
		);
	}
}

const peaks = (workers: N8nProcess[]) =>
	Object.fromEntries(workers.map((w) => [w.name, peakMb(w.pid)]));

/**
 * Runs example 09's manual branch for `rows` rows of `sheet` and waits for it; `during` is called
 * with the service's count of the sheet's payouts at each poll.
 */
async function paySheet(
	{ cluster }: Queue,
	sandbox: SandboxControl,
	label: string,
	sheet: string,
	rows: number,
	during: (created: number) => void = () => {},
): Promise<SheetResult> {
	const workers = cluster.workers();
	const example = sheetExample(cluster.webhookBaseUrl.replace(/\/$/, ''));
	const id = `pgwSheet${sheet.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 16);
	await cluster.main.importWorkflows([sheetRun(example, id, sheet, rows)]);
	const atStart = await sandbox.stats();
	const before = atStart.tokenRequests;
	const createdBefore = createdCount(atStart, sheet);
	const started = Date.now();
	let done = false;
	const run = cluster.main
		.run(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs: 110 * 60_000 })
		.finally(() => (done = true));
	let first = 0;
	let last = 0;
	const peakAt: SheetResult['peakAt'] = [];
	while (!done) {
		await sleep(POLL_MS);
		const created = createdCount(await sandbox.stats(), sheet);
		if (created > createdBefore && !first) first = Date.now();
		while (
			peakAt.length < MILESTONES.length &&
			created - createdBefore >= MILESTONES[peakAt.length]
		)
			peakAt.push(peaks(workers));
		if (created >= rows && !last) last = Date.now();
		during(created);
	}
	const { code, output, logFile } = await run;
	expect(code, `n8n execute exit code, see ${logFile}`).toBe(0);
	const stats = await sandbox.stats();
	const result: SheetResult = {
		label,
		workers: workers.length,
		rows,
		// No new payout at the service (a re-run that only replays): no payout rate.
		payoutSeconds: first ? ((last || Date.now()) - first) / 1000 : NaN,
		runSeconds: (Date.now() - started) / 1000,
		newPayouts: createdCount(stats, sheet) - createdBefore,
		peakAt,
		peakEnd: peaks(workers),
		tokens: {
			collection: stats.tokenRequests.collection - before.collection,
			disbursement: stats.tokenRequests.disbursement - before.disbursement,
		},
		summary: summaryOf(output),
		load: os.loadavg()[0],
	};
	results.push(result);
	log(`${label}: ${JSON.stringify(result)}`);
	return result;
}

async function expectPaidOnce(
	sandbox: SandboxControl,
	sheet: string,
	rows: number,
	result: SheetResult,
) {
	result.paidOnce = lostAndDuplicated(await sandbox.stats(), sheet, rows);
	expect(result.paidOnce, `${sheet}: lost and duplicated`).toEqual({ lost: 0, duplicates: 0 });
}

/** Stops every running worker and starts `count` new ones (fresh peak memory). */
async function freshWorkers({ cluster }: Queue, count: number): Promise<void> {
	for (const worker of cluster.workers()) await cluster.stopProcess(worker);
	await Promise.all(Array.from({ length: count }, () => cluster.startWorker()));
}

function table(): string {
	const rate = (r: SheetResult) =>
		Number.isNaN(r.payoutSeconds)
			? 'none new'
			: `${(r.newPayouts / r.payoutSeconds).toFixed(0)} (${r.payoutSeconds.toFixed(0)} s)`;
	const mb = (p: Record<string, { worker: number; runner: number }>) =>
		Object.entries(p)
			.map(([name, { worker, runner }]) =>
				// A killed worker has no /proc entry left to read.
				worker ? `${name} ${worker.toFixed(0)} (+${runner.toFixed(0)})` : `${name} gone`,
			)
			.join(', ') || 'not reached';
	return [
		`| run | workers | rows | new payouts/s at the service | rows/s, whole run (n8n execute) | ${MILESTONES.map((m) => `peak RSS MB at ${m} rows: worker (+task runner)`).join(' | ')} | at the end | token requests (collection / disbursement) | batches queued / answered | paid / replayed / failed | load average |`,
		`|${'---|'.repeat(10 + MILESTONES.length)}`,
		...results.map(
			(r) =>
				`| ${r.label} | ${r.workers} | ${r.rows} | ${rate(r)} | ${(r.rows / r.runSeconds).toFixed(0)} (${r.runSeconds.toFixed(0)} s) | ${MILESTONES.map((_, i) => mb(r.peakAt[i] ?? {})).join(' | ')} | ${mb(r.peakEnd)} | ${r.tokens.collection} / ${r.tokens.disbursement} | ${r.summary.batches_queued} / ${r.summary.batches_answered} | ${r.summary.paid} / ${r.summary.replayed} / ${r.summary.failed} | ${r.load.toFixed(1)} |`,
		),
	].join('\n');
}

/** The runs as docs/results/queue-sheet.json stores them (scripts/bench/render.ts renders them). */
function storedRuns(): SheetRun[] {
	const peakList = (p: Record<string, { worker: number; runner: number }>): WorkerPeak[] =>
		Object.values(p).map((peak) => (peak.worker ? peak : null));
	return results.map((r) => {
		const payoutSeconds = Number.isNaN(r.payoutSeconds) ? null : r.payoutSeconds;
		return {
			label: r.label,
			workers: r.workers,
			rows: r.rows,
			newPayouts: r.newPayouts,
			payoutSeconds,
			payoutsPerSecond: payoutSeconds === null ? null : r.newPayouts / payoutSeconds,
			runSeconds: r.runSeconds,
			rowsPerSecond: r.rows / r.runSeconds,
			peakAt: r.peakAt.map(peakList),
			peakEnd: peakList(r.peakEnd),
			tokens: r.tokens,
			batchesQueued: r.summary.batches_queued,
			batchesAnswered: r.summary.batches_answered,
			paid: r.summary.paid,
			replayed: r.summary.replayed,
			failed: r.summary.failed,
			paidOnce: r.paidOnce,
			killedAtPayouts: r.killedAtPayouts,
			load: r.load,
		};
	});
}

test.afterAll(() => {
	process.stdout.write(`\nsheet at L = ${LATENCY_MS} ms, ${os.cpus().length} cores:\n${table()}\n`);
	if (!process.env.QUEUE_SHEET_STORE || !results.length || !ranOn) return;
	const env = ['QUEUE_SHEET_ROWS', 'QUEUE_SHEET_KILL_ROWS', 'QUEUE_WORKER_HEAP_MB']
		.filter((name) => process.env[name])
		.map((name) => `${name}=${process.env[name]}`);
	writeResult({
		kind: 'queue-sheet',
		date: nowUtc(),
		command: `QUEUE_SHEET_STORE=1 ${env.join(' ')} npm run e2e:queue -- 6-sheet`,
		machine: thisMachine(),
		versions: { n8n: ranOn.n8nVersion, 'n8n on Node.js': ranOn.node.version },
		settings: {
			latencyMs: LATENCY_MS,
			workerConcurrency: WORKER_CONCURRENCY,
			batchRows: BATCH_ROWS,
			workerHeapMb: Number(process.env.QUEUE_WORKER_HEAP_MB) || undefined,
			milestones: MILESTONES,
		},
		notes: [`Runs: ${results.map((r) => r.label).join('; ')}.`],
		figures: { runs: storedRuns() },
	});
	for (const doc of renderDocs()) log(`${doc} rendered from docs/results/queue-sheet.json`);
});

test(`a sheet of ${SHEET_ROWS} rows with 2 workers: each row paid once`, async ({
	queue,
	sandbox,
	runtime,
}) => {
	ranOn = runtime;
	await sandbox.setLatency(LATENCY_MS);
	expect(queue.cluster.workers().length, 'workers running').toBe(2);
	const r = await paySheet(queue, sandbox, '2 workers', 'SHEET-W2', SHEET_ROWS);
	expect([r.summary.paid, r.summary.replayed, r.summary.failed]).toEqual([SHEET_ROWS, 0, 0]);
	await expectPaidOnce(sandbox, 'SHEET-W2', SHEET_ROWS, r);
});

test(`a sheet of ${SHEET_ROWS} rows with 1 worker`, async ({ queue, sandbox, runtime }) => {
	ranOn = runtime;
	await freshWorkers(queue, 1);
	const r = await paySheet(queue, sandbox, '1 new worker', 'SHEET-W1', SHEET_ROWS);
	expect([r.summary.paid, r.summary.replayed, r.summary.failed]).toEqual([SHEET_ROWS, 0, 0]);
	await expectPaidOnce(sandbox, 'SHEET-W1', SHEET_ROWS, r);
});

test(`a worker killed mid-way through ${KILL_ROWS} rows, then the same sheet again: each row paid once`, async ({
	queue,
	sandbox,
	runtime,
}, testInfo) => {
	ranOn = runtime;
	await freshWorkers(queue, 2);
	const [victim] = queue.cluster.workers();
	let killedAt = 0;
	const killed = await paySheet(
		queue,
		sandbox,
		'2 new workers',
		'SHEET-K',
		KILL_ROWS,
		(created) => {
			if (killedAt || created < KILL_ROWS / 2) return;
			killedAt = created;
			signalGroup(victim.pid, 'SIGKILL');
			log(`${victim.name} killed (SIGKILL) at ${created} payouts`);
		},
	);
	expect(killedAt, 'payouts when the worker was killed').toBeGreaterThan(0);
	killed.killedAtPayouts = killedAt;
	const before = createdCount(await sandbox.stats(), 'SHEET-K');
	const again = await paySheet(
		queue,
		sandbox,
		'the same sheet again (the surviving worker alone)',
		'SHEET-K',
		KILL_ROWS,
	);
	expect(
		[again.summary.paid, again.summary.replayed, again.summary.failed],
		`the re-run: paid, replayed (${before} were paid before it), failed`,
	).toEqual([KILL_ROWS - before, before, 0]);
	await expectPaidOnce(sandbox, 'SHEET-K', KILL_ROWS, again);
	await testInfo.attach('sheet', { body: `killed at ${killedAt} payouts\n${table()}` });
});
