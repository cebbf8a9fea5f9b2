// One execution per delivery across webhook processes (docs/trigger.md, "Several webhook
// processes"): a Payment Gateway Trigger with a Payout Ledger credential claims each delivery in
// the ledger (an n8n Data Table on the main, reached through n8n's public API) before its execution
// starts. The same signed callback of 20 references is posted to two webhook processes at the same
// moment; a request answered 503 is delivered again, as the service retries. Exactly 20 executions
// must start, one per reference, and the ledger must hold one claim per reference; the time from a
// claim marked to its execution stored is measured (the window docs/trigger.md states). Then a
// webhook process that read its claim alone is stopped (SIGSTOP) before its mark reaches n8n, for
// longer than a claim may take; a redelivery to the other process takes the claim over and starts
// the execution; the stopped process resumes, its mark changes no row and it starts nothing.
import * as http from 'http';
import type { AddressInfo } from 'net';

import { deliveryKey } from '../../../nodes/PaymentGatewayTrigger/helpers/duplicates';
import { STALE_CLAIM_MS } from '../../../nodes/PaymentGatewayTrigger/helpers/ledgerClaims';
import {
	ledgerCredential,
	ledgerRowsWhere,
	setUpLedger,
	type Ledger,
} from '../../../scripts/n8n/ledger';
import { freePort, signalGroup } from '../../../scripts/n8n/proc';
import { isServed } from '../../../scripts/n8n/readiness';
import type { N8nProcess, QueueCluster } from './cluster';
import {
	executionIds,
	nodeItems,
	settledCount,
	startRun,
	waitForNew,
	type DeliveredCallback,
	type SandboxControl,
} from './executions';
import { expect, test, type Queue } from './fixtures';
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
let proxy: LedgerProxy | undefined;
let workflowId = '';
let urls: string[] = [];
let second: { cluster: QueueCluster; process: N8nProcess } | undefined;

test.afterAll(async () => {
	if (second) {
		signalGroup(second.process.pid, 'SIGCONT');
		await second.cluster.stopProcess(second.process);
	}
	await proxy?.close();
});

async function answerOf(
	url: string,
	body: unknown,
	timeoutMs = 60_000,
): Promise<{ status: number; message: unknown }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
	const text = await res.text();
	return { status: res.status, message: text.startsWith('{') ? JSON.parse(text).message : text };
}

/** Posts until answered other than 503, as the service delivers again; the 503s it got. */
async function deliver(
	url: string,
	body: unknown,
): Promise<{ status: number; message: unknown; retried: number }> {
	for (let delivery = 1; ; delivery++) {
		const answer = await answerOf(url, body);
		if (answer.status !== 503 || delivery === MOST_DELIVERIES)
			return { ...answer, retried: delivery - 1 };
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

interface LedgerProxy {
	url: string;
	/** Holds the next mark (PATCH .../rows/update) until released; `answer` is n8n's to it. */
	holdNextMark(): { arrived: Promise<void>; release(): void; answer: Promise<string> };
	close(): Promise<void>;
}

/** The main's public API through a pass-through that can hold a webhook process's mark. */
async function ledgerProxy(target: string): Promise<LedgerProxy> {
	let hold: { arrived(): void; released: Promise<void>; answered(text: string): void } | undefined;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const held = req.method === 'PATCH' && req.url?.endsWith('/rows/update') ? hold : undefined;
			if (held) hold = undefined;
			held?.arrived();
			void (async () => {
				await held?.released;
				const headers: Record<string, string> = {};
				for (const name of ['accept', 'content-type', 'x-n8n-api-key'])
					if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
				const forwarded = await fetch(`${target}${req.url ?? ''}`, {
					method: req.method,
					headers,
					body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
				});
				const text = await forwarded.text();
				held?.answered(text);
				res.writeHead(forwarded.status, {
					'content-type': forwarded.headers.get('content-type') ?? 'application/json',
				});
				res.end(text);
			})().catch((error: Error) => {
				res.writeHead(502);
				res.end(error.message);
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		holdNextMark() {
			let arrived!: () => void;
			let release!: () => void;
			let answered!: (text: string) => void;
			const marks = {
				arrived: new Promise<void>((resolve) => (arrived = resolve)),
				answer: new Promise<string>((resolve) => (answered = resolve)),
				release: () => release(),
			};
			hold = { arrived, released: new Promise((resolve) => (release = resolve)), answered };
			return marks;
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** Payouts whose callbacks went to a closed port: signed bodies nobody has seen yet, by reference. */
async function unseenCallbacks(
	{ queue, sandbox }: { queue: Queue; sandbox: SandboxControl },
	prefix: string,
	count: number,
): Promise<Map<string, DeliveredCallback>> {
	const { rest, webhookBase } = queue;
	const closed = `http://127.0.0.1:${await freePort()}/nobody-listens`;
	const rows = payoutRows(prefix, count, closed);
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
	return callbacks;
}

const claimScope = () =>
	`callback:${workflowId}:${(claimsWorkflow({ id: '', name: '' }).nodes ?? [])[0].id}`;

test('a trigger with a Payout Ledger credential published; a second webhook process on the same database', async ({
	queue,
}) => {
	test.setTimeout(5 * 60_000);
	const { cluster, rest, webhookBase } = queue;
	const main = cluster.processes.find((p) => p.role === 'main' && !p.hasExited());
	if (!main?.url) throw new Error('the main is not running');
	const setup = await setUpLedger(rest, main.url, cluster.main.userFolder);
	ledger = { apiUrl: setup.apiUrl, apiKey: setup.apiKey, dataTableId: setup.dataTableId };
	// The trigger reaches the ledger through a pass-through, so the last check can hold a mark.
	proxy = await ledgerProxy(main.url);
	const { id: _id, ...credential } = ledgerCredential({
		...ledger,
		apiUrl: setup.apiUrl.replace(main.url, proxy.url),
	});
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
	const { rest } = queue;
	const callbacks = await unseenCallbacks({ queue, sandbox }, 'QUEUE-CLAIM', REFERENCES);
	const references = [...callbacks.keys()].sort();

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
	const executed = new Map<string, (typeof started)[number]>();
	for (const execution of started) {
		const [items] = await nodeItems(rest, String(execution.id), CALLBACKS.node);
		for (const item of items) executed.set(String(item.reference_no), execution);
	}
	expect([...executed.keys()].sort(), 'the reference of each execution').toEqual(references);

	const claims = await ledgerRowsWhere(ledger, { scope: claimScope() });
	expect(
		claims.map((row) => row.state),
		'one held claim per reference, no other',
	).toEqual(references.map(() => 'claimed'));
	expect(new Set(claims.map((row) => row.reference)).size).toBe(REFERENCES);

	// The window a killed process leaves: from the claim marked (its updatedAt, n8n's clock) to
	// the execution stored by the webhook process (createdAt, the same machine's clock).
	const windows = references.map((reference) => {
		const key = deliveryKey('disbursement', reference, 'completed');
		const claim = claims.find((row) => row.reference === key);
		const execution = executed.get(reference) as { createdAt?: string; startedAt: string };
		return (
			Date.parse(execution.createdAt ?? execution.startedAt) - Date.parse(String(claim?.updatedAt))
		);
	});
	expect(windows.every(Number.isFinite), 'a window for each reference').toBe(true);
	windows.sort((x, y) => x - y);
	figures.claimWindowMedianMs = windows[Math.floor(windows.length / 2)];
	figures.claimWindowMostMs = windows[windows.length - 1];
});

test('a webhook process stopped between reading its claim alone and marking it, past a minute: the other takes the claim over and starts; the first resumes, its mark changes no row and it starts nothing', async ({
	queue,
	sandbox,
}) => {
	test.setTimeout(6 * 60_000);
	if (!second || !proxy) throw new Error('the second webhook process is not running');
	const { rest } = queue;
	const [[reference, callback]] = [
		...(await unseenCallbacks({ queue, sandbox }, 'QUEUE-STALL', 1)),
	];
	const key = deliveryKey('disbursement', reference, 'completed');
	const before = await executionIds(rest, workflowId);

	const mark = proxy.holdNextMark();
	const stalled = answerOf(urls[1], callback.body, 5 * 60_000);
	await mark.arrived;
	signalGroup(second.process.pid, 'SIGSTOP');
	try {
		const [mine] = await ledgerRowsWhere(ledger, { scope: claimScope(), reference: key });
		expect(mine?.state, 'the stopped process wrote its claim').toBe('claiming');
		const staleAt = Date.parse(String(mine.createdAt)) + STALE_CLAIM_MS + 2_000;
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, staleAt - Date.now())));
		const redelivered = await deliver(urls[0], callback.body);
		expect(redelivered, 'the redelivery to the other process').toMatchObject({
			status: 200,
			message: 'Workflow was started',
		});
		mark.release();
		expect(await mark.answer, "n8n's answer to the late mark: no row changed").toBe('[]');
	} finally {
		signalGroup(second.process.pid, 'SIGCONT');
	}
	// Resumed, it starts nothing: it finds the delivery claimed, or (its deadline passed while it
	// was stopped) answers 503 and the service's next delivery is a duplicate.
	const resumed = await stalled;
	expect([200, 503], 'the resumed process answers').toContain(resumed.status);
	if (resumed.status === 200) expect(resumed.message).toBe('Duplicate ignored');
	expect(await deliver(urls[1], callback.body)).toMatchObject({
		status: 200,
		message: 'Duplicate ignored',
	});
	const started = await settledCount(rest, workflowId, before);
	expect(started.length, 'executions the delivery started').toBe(1);
	const claims = await ledgerRowsWhere(ledger, { scope: claimScope(), reference: key });
	expect(
		claims.map((row) => row.state),
		'one claim holds the delivery',
	).toEqual(['claimed']);
});
