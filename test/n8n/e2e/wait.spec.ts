// Send and Wait for Final Status in a running `n8n start` (docs/waiting.md): example 10, started by
// a webhook instead of its manual trigger so a check can start it, waits after generating the link;
// the sandbox's Pay resumes it with `completed` and the order is marked paid; a forged callback to
// the resume URL is refused and leaves it waiting; n8n restarted while it waits still resumes it;
// the time limit ends it with the link still pending.
import { randomUUID } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import { sleep } from '../../../scripts/n8n/proc';
import { major } from '../../../scripts/n8n/targets';
import { nodeOutputs, type Execution } from '../editorApi';
import { callbackBody, serviceCallback } from '../../harness/triggerRuns';
import { test, expect, postJson, type Leg } from './fixtures';

test.describe.configure({ mode: 'serial' });

const EXAMPLE = 'pgwOrderWaitPaid';
const WAITING_NODE = 'Payment link, wait until paid';
const GENERATE = '/v1/biller/transactions/generate';

/** Example 10 started by a POST of the order (its manual trigger cannot be started from here). */
function startedByWebhook(example: WorkflowJson, id: string, path: string, limitMinutes?: number) {
	const workflow = structuredClone(example) as WorkflowJson & { id: string };
	workflow.id = id;
	workflow.name = `${example.name} (${path})`;
	workflow.nodes = workflow.nodes.map((node) => {
		if (node.name === 'Start') {
			return {
				...node,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			};
		}
		if (node.name === 'New order') {
			return { ...node, parameters: { jsCode: 'return [{ json: $input.first().json.body }];' } };
		}
		if (node.name === WAITING_NODE && limitMinutes !== undefined) {
			return { ...node, parameters: { ...node.parameters, waitTimeLimitMinutes: limitMinutes } };
		}
		return node;
	});
	return workflow;
}

const PAID = { id: 'pgwWaitE2ePaid', path: 'pgw-e2e-order-wait' };
const TIMED = { id: 'pgwWaitE2eTimed', path: 'pgw-e2e-order-wait-1-minute' };

function orderUrl(leg: Leg, path: string): string {
	return `${leg.n8nUrl}/webhook/${path}`;
}

/** Posts an order; resolves with the id of the execution it started once that execution waits. */
async function orderWaiting(leg: Leg, flow: { id: string; path: string }, order: IDataObject) {
	const rest = leg.running();
	const before = new Set((await rest.executions(flow.id)).map((e) => e.id));
	const res = await postJson(orderUrl(leg, flow.path), order);
	expect(res.status, `HTTP status of the order post: ${res.text}`).toBe(200);
	let id = '';
	await expect
		.poll(
			async () => {
				const fresh = (await rest.executions(flow.id)).filter((e) => !before.has(e.id));
				id = fresh[0]?.id ?? '';
				return fresh[0]?.status;
			},
			{ message: `the execution of ${String(order.order_id)}`, timeout: 60_000 },
		)
		.toBe('waiting');
	return id;
}

async function finished(leg: Leg, id: string, timeout = 60_000): Promise<Execution> {
	await expect
		.poll(async () => (await leg.running().execution(id)).status, {
			message: `the status of execution ${id}`,
			timeout,
		})
		.toBe('success');
	return await leg.running().execution(id);
}

function outputOf(execution: Execution, node: string): IDataObject | undefined {
	return nodeOutputs<IDataObject>(execution.data.resultData.runData, node)[0]?.[0];
}

/** The callback URL the node sent with the link: this execution's resume URL. */
function resumeUrlSent(leg: Leg, executionId: string, referenceNo: string): string {
	const body = leg.sandbox.lastRequestBody(GENERATE) as IDataObject;
	expect(body.reference_no).toBe(referenceNo);
	const url = String(body.callback_webhook_url);
	expect(url.startsWith(`${leg.n8nUrl}/webhook-waiting/${executionId}`), url).toBe(true);
	return url;
}

/** The customer presses Pay on the sandbox's payment page. */
async function pressPay(leg: Leg, referenceNo: string): Promise<void> {
	const res = await fetch(`${leg.sandbox.url}/pay/${encodeURIComponent(referenceNo)}/complete`, {
		method: 'POST',
		redirect: 'manual',
	});
	expect(res.status, 'the payment page answers Pay').toBeLessThan(400);
}

test.afterAll(async ({ workerLeg }) => {
	await workerLeg.stop();
});

test('example 10, started by a posted order, is published under `n8n start`', async ({ leg }) => {
	await leg.importSandboxCredentials();
	const example = leg.examples[EXAMPLE];
	expect(example, 'example 10 is loaded').toBeDefined();
	await leg.instance.importWorkflows([
		startedByWebhook(example, PAID.id, PAID.path),
		startedByWebhook(example, TIMED.id, TIMED.path, 1),
	]);
	await leg.instance.activateWorkflow(PAID.id);
	await leg.instance.activateWorkflow(TIMED.id);
	await leg.start([orderUrl(leg, PAID.path), orderUrl(leg, TIMED.path)]);
});

test("a generated link waits; a forged callback leaves it waiting; the sandbox's Pay resumes it with completed", async ({
	leg,
	n8nTarget,
}) => {
	const ref = 'ORDER-WAIT-E2E-1';
	const id = await orderWaiting(leg, PAID, {
		order_id: ref,
		total: 1299,
		customer_email: 'a@example.com',
	});
	const resumeUrl = resumeUrlSent(leg, id, ref);
	if (major(n8nTarget.n8n) >= 2) expect(resumeUrl).toContain('?signature=');

	const forged = {
		data: { reference_no: ref, amount: 1299, status: 'completed', signature: 'f'.repeat(64) },
	};
	const refused = await postJson(resumeUrl, forged);
	expect(refused.status, `a forged callback: ${refused.text}`).toBe(401);
	await sleep(1500);
	expect((await leg.running().execution(id)).status, 'after a forged callback').toBe('waiting');

	await pressPay(leg, ref);
	const execution = await finished(leg, id);
	expect(outputOf(execution, WAITING_NODE)).toMatchObject({
		reference_no: ref,
		status: 'completed',
		finalStatus: true,
		waitEnded: 'callback',
	});
	expect(outputOf(execution, 'Order marked paid')).toEqual({
		order_id: ref,
		order_status: 'paid',
		paid_amount: expect.any(Number),
	});
	// The sandbox's own callback was answered by the resume webhook.
	expect(
		leg.sandbox.callbacks().filter((c) => c.referenceNo === ref && c.status === 'completed'),
	).toEqual([expect.objectContaining({ statusCode: 200 })]);
	// A repeated callback after the execution went on starts nothing.
	const again = await fetch(resumeUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(leg.sandbox.callbacks().find((c) => c.referenceNo === ref)!.body),
	});
	expect(again.status, 'a repeated callback').toBe(409);
});

test('n8n restarted while the execution waits still resumes it', async ({ leg }) => {
	const ref = 'ORDER-WAIT-E2E-2';
	const id = await orderWaiting(leg, PAID, {
		order_id: ref,
		total: 850,
		customer_email: 'b@example.com',
	});
	await leg.start([orderUrl(leg, PAID.path), orderUrl(leg, TIMED.path)]);
	expect((await leg.running().execution(id)).status, 'after the restart').toBe('waiting');
	await pressPay(leg, ref);
	const execution = await finished(leg, id);
	expect(outputOf(execution, 'Order marked paid')).toMatchObject({
		order_id: ref,
		order_status: 'paid',
	});
});

test('the time limit ends the wait with the link still pending, finalStatus false', async ({
	leg,
}) => {
	const ref = 'ORDER-WAIT-E2E-3';
	const id = await orderWaiting(leg, TIMED, {
		order_id: ref,
		total: 500,
		customer_email: 'c@example.com',
	});
	// One minute, then n8n's wait tracker (it looks every minute) resumes it.
	const execution = await finished(leg, id, 200_000);
	expect(outputOf(execution, WAITING_NODE)).toMatchObject({
		reference_no: ref,
		status: 'pending',
		finalStatus: false,
		waitEnded: 'timeLimit',
	});
	expect(outputOf(execution, 'Order not paid')).toEqual({
		order_id: ref,
		order_status: 'not paid in time',
		payment_status: 'pending',
	});
});

test('ten copies of the genuine callback at once resume it once; the next node runs once; the rest get a conflict', async ({
	leg,
}) => {
	const ref = 'ORDER-WAIT-E2E-4';
	const id = await orderWaiting(leg, PAID, {
		order_id: ref,
		total: 640,
		customer_email: 'd@example.com',
	});
	const resumeUrl = resumeUrlSent(leg, id, ref);
	// Confirm With Service's look-ups take a second, so all ten are checked at the same time.
	leg.sandbox.faults.add({
		path: '/v1/biller/transactions',
		method: 'GET',
		mode: 'latency',
		latencyMs: 1000,
	});
	try {
		const body = serviceCallback(leg.sandbox, ref, 640, 'completed');
		const [, ...answers] = await Promise.all([
			pressPay(leg, ref),
			...Array.from({ length: 9 }, async () => await postJson(resumeUrl, body)),
		]);
		// The sandbox delivers its own copy too, and tries again after an answer that is not 2xx.
		await expect
			.poll(() => leg.sandbox.callbacks().filter((c) => c.referenceNo === ref).length, {
				message: "the sandbox's own callback answered",
			})
			.toBeGreaterThan(0);
		const fromService = leg.sandbox.callbacks().filter((c) => c.referenceNo === ref);
		const resumed = [
			...answers.map((answer) => answer.status),
			...fromService.map((c) => c.statusCode),
		];
		const seen = `posted: ${answers.map((answer) => `${answer.status} ${answer.text}`).join('; ')}; the sandbox's: ${JSON.stringify(fromService.map(({ statusCode, error }) => ({ statusCode, error })))}`;
		expect(
			resumed.filter((status) => status === 200),
			seen,
		).toHaveLength(1);
		expect(
			answers.filter((answer) => answer.status !== 200).map((answer) => answer.status),
			seen,
		).toEqual(Array(answers.filter((answer) => answer.status !== 200).length).fill(409));
	} finally {
		leg.sandbox.faults.clear();
	}
	const execution = await finished(leg, id);
	const runs = execution.data.resultData.runData;
	expect(runs['Order marked paid'], 'the next node ran once').toHaveLength(1);
	expect(nodeOutputs(runs, 'Order marked paid')[0]).toHaveLength(1);
	await sleep(2000);
	const again = await leg.running().execution(id);
	expect(again.data.resultData.runData['Order marked paid']).toHaveLength(1);
});

test('a payment for another amount does not go on as paid: finalStatus false, waitEnded differs, Order not paid', async ({
	leg,
}) => {
	const ref = 'ORDER-WAIT-E2E-5';
	const id = await orderWaiting(leg, PAID, {
		order_id: ref,
		total: 1000,
		customer_email: 'e@example.com',
	});
	const resumeUrl = resumeUrlSent(leg, id, ref);
	const record = {
		...(leg.sandbox.getTransaction(ref) as IDataObject),
		status: 'completed',
		subtotal_amount: 10,
		total_amount: 20,
	};
	leg.sandbox.faults.add({
		path: '/v1/biller/transactions',
		method: 'GET',
		mode: 'error-before',
		status: 200,
		body: { message: '', data: { transactions: [record] } },
	});
	try {
		const answer = await postJson(
			resumeUrl,
			callbackBody(ref, 10, 'completed', { transaction: record, totalAmount: 20 }),
		);
		expect(answer.status, answer.text).toBe(200);
		const execution = await finished(leg, id);
		expect(outputOf(execution, WAITING_NODE)).toMatchObject({
			reference_no: ref,
			status: 'completed',
			finalStatus: false,
			waitEnded: 'differs',
			differences: [
				{ fact: 'amount', sent: '1000', stated: '10', by: 'callback' },
				{ fact: 'amount', sent: '1000', stated: '10', by: 'service' },
			],
		});
		expect(execution.data.resultData.runData['Order marked paid']).toBeUndefined();
		expect(outputOf(execution, 'Order not paid')).toMatchObject({
			order_id: ref,
			order_status: 'check the payment: it differs from the order',
		});
	} finally {
		leg.sandbox.faults.clear();
	}
});

test('a retry after the first waiting execution was stopped ends with the final status within a minute of the payment', async ({
	leg,
}) => {
	const ref = 'ORDER-WAIT-E2E-6';
	const order = { order_id: ref, total: 720, customer_email: 'f@example.com' };
	const first = await orderWaiting(leg, PAID, order);
	await leg.running().stopExecution(first);
	await expect
		.poll(async () => (await leg.running().execution(first)).status, {
			message: 'the first execution stopped',
		})
		.not.toBe('waiting');
	const rest = leg.running();
	const before = new Set((await rest.executions(PAID.id)).map((e) => e.id));
	expect((await postJson(orderUrl(leg, PAID.path), order)).status).toBe(200);
	let retry = '';
	await expect
		.poll(
			async () => {
				retry = (await rest.executions(PAID.id)).find((e) => !before.has(e.id))?.id ?? '';
				return retry;
			},
			{ message: 'the retry started' },
		)
		.not.toBe('');
	await sleep(2000);
	await pressPay(leg, ref);
	const paidAt = Date.now();
	const execution = await finished(leg, retry, 60_000);
	expect(Date.now() - paidAt, 'the retry ended within a minute of the payment').toBeLessThan(
		60_000,
	);
	expect(outputOf(execution, WAITING_NODE)).toMatchObject({
		reference_no: ref,
		status: 'completed',
		replayed: true,
		finalStatus: true,
		waitEnded: 'lookedUp',
	});
	expect(outputOf(execution, 'Order marked paid')).toMatchObject({
		order_id: ref,
		order_status: 'paid',
	});
});
