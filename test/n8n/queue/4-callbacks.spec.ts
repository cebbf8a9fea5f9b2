// The Payment Gateway Trigger in queue mode: callbacks arrive at a webhook process, which queues
// the execution for a worker. Duplicate deliveries are recognised in the process's memory and in
// the workflow's static data (see nodes/PaymentGatewayTrigger/helpers/duplicates.ts); two webhook
// processes receiving the same callback at the same moment is measured, not assumed.
import { freePort } from '../../../scripts/n8n/proc';
import { CALLBACKS, PAYOUTS, callbackWebhookUrl, payoutRows, payoutWebhookUrl } from './workflows';
import type { N8nProcess, QueueCluster } from './cluster';
import {
	executionIds,
	settledCount,
	startRun,
	waitForNew,
	type DeliveredCallback,
	type SandboxControl,
} from './executions';
import { expect, test, type Queue } from './fixtures';

test.describe.configure({ mode: 'serial' });

async function post(url: string, body: unknown): Promise<number> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	await res.arrayBuffer();
	return res.status;
}

/** Creates payouts through the payout workflow, each with `callbackTo` as its callback URL. */
async function createPayouts({ rest, webhookBase }: Queue, prefix: string, callbackTo: string) {
	const rows = payoutRows(prefix, 1, callbackTo);
	const known = await executionIds(rest, PAYOUTS.id);
	await startRun(payoutWebhookUrl(webhookBase, PAYOUTS), rows);
	const [execution] = await waitForNew(rest, PAYOUTS.id, known, 1);
	expect(execution.status, 'payout execution status').toBe('success');
	return rows[0];
}

/** A signed callback the sandbox tried to deliver to a closed port: nobody has seen it yet. */
async function undeliveredCallback(queue: Queue, sandbox: SandboxControl, prefix: string) {
	const closed = `http://127.0.0.1:${await freePort()}/nobody-listens`;
	const row = await createPayouts(queue, prefix, closed);
	await sandbox.settle(row.reference_no, 'completed');
	const found = (await sandbox.callbacks()).find(
		(c) => c.referenceNo === row.reference_no && c.url === closed,
	);
	expect(found, `the sandbox's record of a callback for ${row.reference_no}`).toBeDefined();
	return found!;
}

let delivered: DeliveredCallback | undefined;
let second: { cluster: QueueCluster; process: N8nProcess; callbackUrl: string } | undefined;

test.afterAll(async () => {
	if (second) await second.cluster.stopProcess(second.process);
});

test('a callback delivered to the webhook process starts one execution, on a worker', async ({
	queue,
	sandbox,
}) => {
	const row = await createPayouts(
		queue,
		'QUEUE-CB-DELIVERED',
		callbackWebhookUrl(queue.webhookBase),
	);
	const known = await executionIds(queue.rest, CALLBACKS.id);
	await sandbox.settle(row.reference_no, 'completed');
	const [execution] = await waitForNew(queue.rest, CALLBACKS.id, known, 1);
	expect(execution.status, 'callback execution status').toBe('success');
	expect(
		queue.cluster.executionsByWorker().has(String(execution.id)),
		`execution ${execution.id} ran on a worker`,
	).toBe(true);
	delivered = (await sandbox.callbacks()).find(
		(c) => c.referenceNo === row.reference_no && c.statusCode === 200,
	);
	expect(delivered, 'the sandbox recorded a delivery answered 200').toBeDefined();
});

test('a repeated delivery to the same webhook process starts no execution', async ({
	queue: { rest, webhookBase },
}) => {
	const known = await executionIds(rest, CALLBACKS.id);
	const status = await post(callbackWebhookUrl(webhookBase), delivered!.body);
	expect(status, 'HTTP status of the repeated delivery').toBe(200);
	const started = await settledCount(rest, CALLBACKS.id, known);
	expect(started.length, 'executions after the repeated delivery').toBe(0);
});

test('a second webhook process starts on the same database', async ({ queue }) => {
	const port = await freePort(20000 + Math.floor(Math.random() * 20000));
	const callbackUrl = callbackWebhookUrl(queue.webhookBase);
	const webhook = await queue.cluster.startWebhook(port, [callbackUrl]);
	second = {
		cluster: queue.cluster,
		process: webhook,
		callbackUrl: callbackUrl.replace(queue.webhookBase, `http://127.0.0.1:${port}/`),
	};
	expect(webhook.hasExited(), `${webhook.name} still running`).toBe(false);
});

test('one callback on two webhook processes at the same moment: measured, nothing lost', async ({
	queue,
	sandbox,
	figures,
}) => {
	const callback = await undeliveredCallback(queue, sandbox, 'QUEUE-CB-TWICE');
	const known = await executionIds(queue.rest, CALLBACKS.id);
	const answers = await Promise.all([
		post(callbackWebhookUrl(queue.webhookBase), callback.body),
		post(second!.callbackUrl, callback.body),
	]);
	expect(answers, 'HTTP statuses of the two deliveries').toEqual([200, 200]);
	const started = await settledCount(queue.rest, CALLBACKS.id, known);
	figures.executionsFromSimultaneousDelivery = started.length;
	expect(started.length, 'executions the callback started').toBeGreaterThanOrEqual(1);
});

test('one callback on one webhook process, then again on the other: measured, nothing lost', async ({
	queue,
	sandbox,
	figures,
}) => {
	const callback = await undeliveredCallback(queue, sandbox, 'QUEUE-CB-AFTER');
	const known = await executionIds(queue.rest, CALLBACKS.id);
	const first = await post(callbackWebhookUrl(queue.webhookBase), callback.body);
	expect(first, 'HTTP status on the first webhook process').toBe(200);
	await waitForNew(queue.rest, CALLBACKS.id, known, 1);
	const again = await post(second!.callbackUrl, callback.body);
	expect(again, 'HTTP status on the second webhook process').toBe(200);
	const started = await settledCount(queue.rest, CALLBACKS.id, known);
	figures.executionsFromSequentialDelivery = started.length;
	expect(started.length, 'executions the callback started').toBeGreaterThanOrEqual(1);
});

test("the trigger's duplicate record in the database: measured", async ({ postgres, figures }) => {
	// Three different callbacks were accepted above (delivered, twice at once, one then the other).
	figures.callbacksAccepted = 3;
	const stored = postgres.query(
		`select "staticData" from workflow_entity where id = '${CALLBACKS.id}'`,
	);
	const record = (
		JSON.parse(stored || '{}') as Record<string, { acceptedCallbacks?: Record<string, number> }>
	)[`node:${CALLBACKS.node}`];
	figures.callbacksRememberedInDatabase = Object.keys(record?.acceptedCallbacks ?? {}).length;
	// The trigger answers accepted callbacks itself so that n8n saves each one (webhook.ts).
	expect(figures.callbacksRememberedInDatabase, 'accepted callbacks in the stored record').toBe(
		figures.callbacksAccepted,
	);
});
