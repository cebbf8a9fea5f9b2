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
