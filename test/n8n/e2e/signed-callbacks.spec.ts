// The callback example published in a running `n8n start`: n8n's credential test, then the
// sandbox's signed callbacks for the payment link and the payouts examples.spec.ts made start
// verified executions; a forged, a replayed and a repeated callback start none.
import type { ImportedCredential } from '../../../scripts/n8n/credentials';
import { sandboxCredentials } from '../../../scripts/n8n/credentials';
import { nodeOutputs, type Execution } from '../editorApi';
import { sleep } from '../../../scripts/n8n/proc';
import {
	test,
	expect,
	postJson,
	WF,
	VALID_PAYOUTS,
	ORDER,
	type Leg,
	type TriggerItem,
} from './fixtures';
import { SANDBOX_CREDENTIALS } from '../../../sandbox';

test.describe.configure({ mode: 'serial' });

interface PaidInvoiceItem {
	invoice_no: string;
	invoice_status: string;
}

test.beforeEach(({ leg }) => {
	test.skip(
		!leg.created([ORDER, ...VALID_PAYOUTS]),
		"needs the payment link and payouts examples.spec.ts makes, which failed in this worker's n8n",
	);
});

test.afterAll(async ({ workerLeg }) => {
	await workerLeg.stop();
});

/** Waits until the callback workflow has `count` finished executions; resolves with them parsed, oldest first. */
async function callbackExecutions(leg: Leg, count: number): Promise<Execution[]> {
	const list = await leg.finishedExecutions(WF.callbacks, count);
	const parsed = await Promise.all(list.map((e) => leg.running().execution(e.id)));
	return parsed.sort((a, b) => Number(a.id) - Number(b.id));
}

function triggerItem(execution: Execution): TriggerItem | undefined {
	return nodeOutputs<TriggerItem>(
		execution.data.resultData.runData,
		'Payment Gateway Trigger',
	)[0]?.[0];
}

/** Posts a callback body to the callback workflow; expects the answer, and that no execution started. */
async function postStartingNothing(leg: Leg, body: unknown, status: number, what: string) {
	const rest = leg.running();
	const before = (await rest.executions(WF.callbacks)).length;
	const res = await postJson(leg.webhookUrl, body);
	expect(res.status, `HTTP status of ${what}`).toBe(status);
	await sleep(1500);
	expect((await rest.executions(WF.callbacks)).length, `executions after ${what}`).toBe(before);
}

/** A callback the sandbox delivered (n8n answered 200) for a reference. */
function delivered(leg: Leg, referenceNo: string) {
	const found = leg.sandbox
		.callbacks()
		.find((c) => c.referenceNo === referenceNo && c.statusCode === 200);
	expect(found, `a delivered callback for ${referenceNo} to replay`).toBeDefined();
	return found!;
}

test('the callback workflow is activated and its webhook live under `n8n start`', async ({
	leg,
}) => {
	await leg.instance.activateWorkflow(WF.callbacks);
	const rest = await leg.start([leg.webhookUrl]);
	const workflow = await rest.expectOk<{ active?: boolean; activeVersionId?: string | null }>(
		'GET',
		`/workflows/${WF.callbacks}`,
	);
	expect(
		workflow.active === true || Boolean(workflow.activeVersionId),
		`the workflow is active (1.x) or published (2.x): ${JSON.stringify(workflow)}`,
	).toBe(true);
});

test("n8n's credential test: both sandbox credentials pass, a wrong password is named", async ({
	leg,
}) => {
	const credentialTest = async (credential: ImportedCredential) =>
		await leg.running().expectOk<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: credential,
		});
	for (const credential of sandboxCredentials(leg.sandbox.url, SANDBOX_CREDENTIALS)) {
		const result = await credentialTest(credential);
		expect(result.status, `test of ${credential.type}: ${result.message}`).toBe('OK');
		const refused = await credentialTest({
			...credential,
			data: { ...credential.data, password: 'not-the-password' },
		});
		expect(refused.status, `test of ${credential.type} with a wrong password`).toBe('Error');
		expect(refused.message, 'the message names the fix').toMatch(
			/refused: check Username and Password/,
		);
	}
});

test('completed payment callback -> verified execution -> invoice marked paid', async ({ leg }) => {
	await leg.sandbox.settle(ORDER, 'completed');
	const [execution] = await callbackExecutions(leg, 1);
	expect(execution.status, 'execution status').toBe('success');
	const item = triggerItem(execution);
	expect(item, 'the item the trigger emitted').toBeDefined();
	expect(item?.interface, 'interface').toBe('collection');
	expect(item?.reference_no, 'reference_no').toBe(ORDER);
	expect(item?.status, 'status').toBe('completed');
	expect(item?.verified.signature, 'verified.signature').toBe(true);
	// Example 03 uses trigger version 2, which confirms with the service by default.
	expect(item?.statusConfirmed, 'statusConfirmed').toBe(true);
	const runData = execution.data.resultData.runData;
	const [paid] = nodeOutputs<PaidInvoiceItem>(runData, 'Mark invoice paid')[0] ?? [];
	expect(paid, 'the item of Mark invoice paid').toBeDefined();
	expect(paid.invoice_no, 'invoice_no').toBe(ORDER);
	expect(paid.invoice_status, 'invoice_status').toBe('paid');
});

test('payout callbacks (completed and cancelled) arrive verified and are not marked paid', async ({
	leg,
}) => {
	await leg.sandbox.settle(VALID_PAYOUTS[0], 'completed');
	await leg.sandbox.settle(VALID_PAYOUTS[1], 'completed');
	await leg.sandbox.settle(VALID_PAYOUTS[2], 'cancelled');
	const executions = (await callbackExecutions(leg, 4)).slice(1);
	const items = executions.map(triggerItem);
	expect(
		items
			.map((i) => [i?.interface, i?.reference_no, i?.status, i?.verified.signature])
			.sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
		'normalised trigger output',
	).toEqual([
		['disbursement', VALID_PAYOUTS[0], 'completed', true],
		['disbursement', VALID_PAYOUTS[1], 'completed', true],
		['disbursement', VALID_PAYOUTS[2], 'cancelled', true],
	]);
	for (const execution of executions) {
		const runData = execution.data.resultData.runData;
		expect(
			nodeOutputs(runData, 'Mark invoice paid')[0] ?? [],
			`items of Mark invoice paid in execution ${execution.id} (a payout is no paid invoice)`,
		).toHaveLength(0);
		expect(
			nodeOutputs(runData, 'Payouts and cancelled payments')[0]?.length,
			`other branch items in execution ${execution.id}`,
		).toBe(1);
	}
	const answered = leg.sandbox
		.callbacks()
		.filter((c) => c.url === leg.webhookUrl)
		.map((c) => c.statusCode);
	expect(answered.length, `callbacks n8n answered: ${answered}`).toBeGreaterThanOrEqual(4);
	expect(answered, "n8n's answers to the sandbox").toEqual(answered.map(() => 200));
});

test('a forged callback (bad signature) gets 401 and starts no execution', async ({ leg }) => {
	const forged = {
		data: {
			reference_no: 'INV-FORGED-1',
			amount: 5000,
			status: 'completed',
			signature: 'ab'.repeat(32),
		},
	};
	await postStartingNothing(leg, forged, 401, 'a forged callback');
});

test('a genuine cancelled callback replayed as "completed" gets 401 (confirmed with the service)', async ({
	leg,
}) => {
	const replayed = structuredClone(delivered(leg, VALID_PAYOUTS[2]).body) as {
		data: { status: string; transaction?: { status?: string } };
	};
	replayed.data.status = 'completed';
	if (replayed.data.transaction) replayed.data.transaction.status = 'completed';
	await postStartingNothing(leg, replayed, 401, 'a replayed callback with a forged status');
});

test('a repeated delivery of the same callback starts no second execution', async ({ leg }) => {
	await postStartingNothing(leg, delivered(leg, ORDER).body, 200, 'a repeated callback');
});
