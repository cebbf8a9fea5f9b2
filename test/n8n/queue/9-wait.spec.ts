// Send and Wait for Final Status in queue mode (docs/waiting.md): 200 payment links generated on the
// workers, each execution parked in the database; the main's, the webhook process's and the
// workers' memory read while they wait; then each link paid, each callback arriving at the webhook
// process resumes its own execution, which a worker finishes, every one exactly once.
import fs from 'fs';
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import { PACKAGE_NAME } from '../../../scripts/n8n/paths';
import { DEMO_CREDENTIALS } from '../../../scripts/n8n/credentials';
import { sleep } from '../../../scripts/n8n/proc';
import { expect, test, type Queue } from './fixtures';
import type { N8nProcess } from './cluster';
import type { Postgres } from './services';

test.describe.configure({ mode: 'serial', timeout: 15 * 60_000 });

const WAITS = {
	id: 'pgwQueueWaits',
	path: 'pgw-queue-wait',
	webhookId: 'b9d3a0c1-5a1e-4f00-9000-0000000000c3',
};
const COUNT = 200;
/** How long the memory is watched while every execution waits. */
const WATCH_MS = 30_000;
const refs = Array.from(
	{ length: COUNT },
	(_, i) => `QUEUE-WAIT-${String(i + 1).padStart(4, '0')}`,
);

function waitingWorkflow(): WorkflowJson & { id: string } {
	return {
		id: WAITS.id,
		name: 'Queue check: payment links waited for',
		nodes: [
			{
				id: 'c3d4e5f6-0001-4f00-9000-000000000001',
				name: 'Order',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: WAITS.webhookId,
				parameters: {
					httpMethod: 'POST',
					path: WAITS.path,
					responseMode: 'onReceived',
					options: {},
				},
			},
			{
				id: 'c3d4e5f6-0002-4f00-9000-000000000002',
				name: 'Link, wait until paid',
				type: `${PACKAGE_NAME}.paymentCollection`,
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource: 'transaction',
					operation: 'generate',
					channelCode: 'GCASH_TRN',
					amount: '={{ $json.body.amount }}',
					referenceNo: '={{ $json.body.reference_no }}',
					sendAndWait: true,
					options: {},
				},
				credentials: {
					paymentCollectionApi: {
						id: DEMO_CREDENTIALS.collection.id,
						name: DEMO_CREDENTIALS.collection.name,
					},
				},
			},
		],
		connections: {
			Order: { main: [[{ node: 'Link, wait until paid', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson & { id: string };
}

/** Resident memory (VmRSS) of a process, in MB. */
function rssMb(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function memory(processes: N8nProcess[]): Record<string, number> {
	return Object.fromEntries(
		processes.filter((p) => !p.hasExited()).map((p) => [p.name, Math.round(rssMb(p.pid))]),
	);
}

/** Executions of the workflow by status, from the shared database. */
function byStatus(postgres: Postgres) {
	const rows = postgres.query(
		`select status, count(*) from execution_entity where "workflowId" = '${WAITS.id}' group by status`,
	);
	return Object.fromEntries(
		rows
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const [status, count] = line.split('|');
				return [status, Number(count)];
			}),
	) as Record<string, number>;
}

/** How many times each execution was started by a worker (its first run, then its resume). */
function workerStarts(queue: Queue): Map<string, number> {
	const starts = new Map<string, number>();
	for (const worker of queue.cluster.processes.filter((p) => p.role === 'worker')) {
		for (const match of fs
			.readFileSync(worker.logFile, 'utf8')
			.matchAll(/Worker started execution (\d+)/g))
			starts.set(match[1], (starts.get(match[1]) ?? 0) + 1);
	}
	return starts;
}

const url = (queue: Queue) => `${queue.webhookBase}webhook/${WAITS.path}`;

async function post(target: string, body: unknown): Promise<number> {
	const res = await fetch(target, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	await res.arrayBuffer();
	return res.status;
}

const memoryWhileWaiting: Array<Record<string, number>> = [];

test(`${COUNT} payment links generated on the workers, every execution waiting`, async ({
	queue,
	postgres,
}) => {
	await queue.cluster.main.importWorkflows([waitingWorkflow()]);
	const published = await queue.rest.publish(WAITS.id, 2);
	expect(published, 'the waiting workflow published').toEqual({ published: true });
	// The webhook process reads production webhooks from the database: the first order tells when.
	await expect
		.poll(async () => await post(url(queue), { reference_no: refs[0], amount: 100 }), {
			message: 'the first order accepted by the webhook process',
			timeout: 60_000,
		})
		.toBe(200);
	const started = Date.now();
	for (let i = 1; i < COUNT; i++) {
		const status = await post(url(queue), { reference_no: refs[i], amount: 100 + i });
		expect(status, `HTTP status of order ${refs[i]}`).toBe(200);
	}
	await expect
		.poll(() => byStatus(postgres).waiting ?? 0, {
			message: 'executions waiting',
			timeout: 10 * 60_000,
			intervals: [1000],
		})
		.toBe(COUNT);
	test.info().annotations.push({
		type: 'figure',
		description: `${COUNT} executions waiting ${Math.round((Date.now() - started) / 1000)} s after the last order`,
	});
	expect(byStatus(postgres)).toEqual({ waiting: COUNT });
});

test(`memory of the main, the webhook process and the workers while ${COUNT} executions wait`, async ({
	queue,
}) => {
	const n8n = queue.cluster.processes;
	memoryWhileWaiting.push(memory(n8n));
	await sleep(WATCH_MS);
	memoryWhileWaiting.push(memory(n8n));
	const [before, after] = memoryWhileWaiting;
	test.info().annotations.push({
		type: 'figure',
		description: `RSS MB at the start of the wait ${JSON.stringify(before)}, ${WATCH_MS / 1000} s later ${JSON.stringify(after)}`,
	});
	console.log(
		`memory while waiting (RSS MB): ${JSON.stringify(before)} -> ${JSON.stringify(after)}`,
	);
	// Nothing is held per waiting execution: no process grows while they wait.
	for (const [name, mb] of Object.entries(after))
		expect(mb - (before[name] ?? mb), `growth of ${name} (MB) while waiting`).toBeLessThan(40);
});

test('each link paid: its own callback resumes its own execution once, on a worker', async ({
	queue,
	postgres,
	sandbox,
}) => {
	const started = Date.now();
	for (const ref of refs) await sandbox.settle(ref, 'completed');
	await expect
		.poll(() => byStatus(postgres).success ?? 0, {
			message: 'executions finished',
			timeout: 10 * 60_000,
			intervals: [1000],
		})
		.toBe(COUNT);
	const seconds = Math.round((Date.now() - started) / 1000);
	expect(byStatus(postgres), 'executions by status').toEqual({ success: COUNT });
	test.info().annotations.push({
		type: 'figure',
		description: `${COUNT} executions resumed and finished ${seconds} s after the first payment`,
	});
	console.log(`${COUNT} executions resumed and finished in ${seconds} s`);

	// One callback per link, answered 200 the first time by the resume webhook.
	const callbacks = (await sandbox.callbacks()).filter((c) => refs.includes(c.referenceNo));
	const answered = callbacks.filter((c) => c.statusCode === 200);
	expect(new Set(answered.map((c) => c.referenceNo)).size, 'links whose callback resumed').toBe(
		COUNT,
	);
	expect(answered.length, 'callbacks answered 200').toBe(COUNT);
	// Each link made once, each execution started on a worker twice: its run, then its resume.
	const stats = await sandbox.stats();
	expect(refs.filter((ref) => stats.creationsByReference[ref] !== 1)).toEqual([]);
	const ids = postgres
		.query(`select id from execution_entity where "workflowId" = '${WAITS.id}'`)
		.split('\n')
		.filter(Boolean);
	expect(ids.length).toBe(COUNT);
	const starts = workerStarts(queue);
	expect(
		ids.filter((id) => starts.get(id) !== 2),
		'executions not run twice on a worker',
	).toEqual([]);

	// A repeated callback after the execution went on starts nothing.
	const again = answered[0];
	expect(await post(again.url, again.body), 'a repeated callback').toBe(409);
	await sleep(2000);
	expect(byStatus(postgres)).toEqual({ success: COUNT });
});
