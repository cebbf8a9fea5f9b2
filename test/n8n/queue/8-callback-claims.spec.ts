// One execution per delivery across webhook processes (docs/trigger.md, "Several webhook
// processes"): a Payment Gateway Trigger with a Payout Ledger credential claims each delivery in
// the ledger (an n8n Data Table on the main, reached through n8n's public API) before its execution
// starts. The same signed callback of 20 references is posted to two webhook processes at the same
// moment; a request answered 503 is delivered again, as the service retries. Exactly 20 executions
// must start, one per reference, and the ledger must hold one claim per reference.
import {
	ledgerCredential,
	ledgerRowsWhere,
	setUpLedger,
	type Ledger,
} from '../../../scripts/n8n/ledger';
import { freePort } from '../../../scripts/n8n/proc';
import { isServed } from '../../../scripts/n8n/readiness';
import type { N8nProcess, QueueCluster } from './cluster';
import {
	executionIds,
	nodeItems,
	settledCount,
	startRun,
	waitForNew,
	type DeliveredCallback,
} from './executions';
import { expect, test } from './fixtures';
import {
	CALLBACKS,
	CLAIMS,
	PAYOUTS,
	callbackWebhookUrl,
	claimsWorkflow,
	payoutRows,
	payoutWebhookUrl,
} from './workflows';

test.describe.configure({ mode: 'serial' });

const REFERENCES = 20;
/** Deliveries of one callback, counting the first: the service retries a 503. */
const MOST_DELIVERIES = 5;

let ledger: Ledger;
let workflowId = '';
let urls: string[] = [];
let second: { cluster: QueueCluster; process: N8nProcess } | undefined;

test.afterAll(async () => {
	if (second) await second.cluster.stopProcess(second.process);
});

async function post(url: string, body: unknown): Promise<number> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(60_000),
	});
	await res.arrayBuffer();
	return res.status;
}

/** Posts until answered other than 503, as the service delivers again; the 503s it got. */
async function deliver(url: string, body: unknown): Promise<{ status: number; retried: number }> {
	for (let delivery = 1; ; delivery++) {
		const status = await post(url, body);
		if (status !== 503 || delivery === MOST_DELIVERIES) return { status, retried: delivery - 1 };
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

test('a trigger with a Payout Ledger credential published; a second webhook process on the same database', async ({
	queue,
}) => {
	test.setTimeout(5 * 60_000);
	const { cluster, rest, webhookBase } = queue;
	const main = cluster.processes.find((p) => p.role === 'main' && !p.hasExited());
	if (!main?.url) throw new Error('the main is not running');
	const setup = await setUpLedger(rest, main.url, cluster.main.userFolder);
	ledger = { apiUrl: setup.apiUrl, apiKey: setup.apiKey, dataTableId: setup.dataTableId };
	const { id: _id, ...credential } = ledgerCredential(ledger);
	const { id: ledgerId } = await rest.expectOk<{ id: string }>('POST', '/credentials', credential);
	({ id: workflowId } = await rest.expectOk<{ id: string }>(
		'POST',
		'/workflows',
		claimsWorkflow({ id: ledgerId, name: credential.name }),
	));
	expect(await rest.publish(workflowId, 2), 'the workflow published').toEqual({ published: true });

	const port = await freePort(20000 + Math.floor(Math.random() * 20000));
	const first = callbackWebhookUrl(webhookBase, CLAIMS.webhookId);
	const process = await cluster.startWebhook(port, [first]);
	second = { cluster, process };
	urls = [first, first.replace(webhookBase, `http://127.0.0.1:${port}/`)];
	await expect(async () => {
		for (const url of urls) expect(await isServed(url), url).toBe(true);
	}).toPass({ timeout: 60_000 });
});

test(`the same signed callback of ${REFERENCES} references on two webhook processes at the same moment: exactly ${REFERENCES} executions, one per reference`, async ({
	queue,
	sandbox,
	figures,
}) => {
	test.setTimeout(6 * 60_000);
	const { rest, webhookBase } = queue;
	// Payouts whose callbacks went to a closed port: signed bodies nobody has seen yet.
	const closed = `http://127.0.0.1:${await freePort()}/nobody-listens`;
	const rows = payoutRows('QUEUE-CLAIM', REFERENCES, closed);
	const known = await executionIds(rest, PAYOUTS.id);
	await startRun(payoutWebhookUrl(webhookBase, PAYOUTS), rows);
	const [paying] = await waitForNew(rest, PAYOUTS.id, known, 1);
	expect(paying.status, 'payout execution status').toBe('success');
	for (const row of rows) await sandbox.settle(row.reference_no, 'completed');
	const callbacks = new Map<string, DeliveredCallback>();
	for (const c of await sandbox.callbacks())
		if (c.url === closed && c.status === 'completed') callbacks.set(c.referenceNo, c);
	const references = rows.map((row) => row.reference_no);
	expect([...callbacks.keys()].sort(), 'a signed callback for each reference').toEqual(references);

	const before = await executionIds(rest, workflowId);
	const answers = await Promise.all(
		references.flatMap((reference) =>
			urls.map(async (url) => await deliver(url, callbacks.get(reference)!.body)),
		),
	);
	expect(
		answers.map((a) => a.status),
		'every delivery answered 200 in the end',
	).toEqual(answers.map(() => 200));
	const started = await settledCount(rest, workflowId, before);
	figures.claimedReferences = REFERENCES;
	figures.claimedExecutions = started.length;
	figures.claimsAnswered503 = answers.reduce((total, a) => total + a.retried, 0);
	expect(started.length, 'executions the 40 deliveries started').toBe(REFERENCES);
	const executed: string[] = [];
	for (const execution of started) {
		const [items] = await nodeItems(rest, String(execution.id), CALLBACKS.node);
		executed.push(...items.map((item) => String(item.reference_no)));
	}
	expect(executed.sort(), 'the reference of each execution').toEqual(references);

	const node = (claimsWorkflow({ id: '', name: '' }).nodes ?? [])[0];
	const scope = `callback:${workflowId}:${node.id}`;
	const claims = await ledgerRowsWhere(ledger, { scope });
	expect(
		claims.map((row) => row.state),
		'one held claim per reference, no other',
	).toEqual(references.map(() => 'claimed'));
	expect(new Set(claims.map((row) => row.reference)).size).toBe(REFERENCES);
});
