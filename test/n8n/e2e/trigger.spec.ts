// The Payment Gateway Trigger in a real n8n, beyond the example workflow: a trigger whose
// credential has no Signing Secret cannot be published (the editor's publish answers with the
// message naming the credential and the fix); with "Accept Unsigned Callbacks (Unsafe)" it
// publishes and an unsigned callback starts an execution; a Signing Secret removed after
// publishing gets every callback refused (401, no execution); and after three callbacks and a
// restart of `n8n start`, a repost of each starts no second execution (the de-duplication record
// lives in the workflow's static data); with a Payout Ledger credential, publishing checks the
// ledger (refused on n8n 1.x) and deliveries are claimed in it.
import crypto from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { nodeOutputs } from '../editorApi';
import { sleep } from '../../../scripts/n8n/proc';
import { PACKAGE_NAME } from '../../../scripts/n8n/paths';
import { DEMO_CREDENTIALS, type CredentialRef } from '../../../scripts/n8n/credentials';
import {
	ledgerCredential,
	ledgerRowsWhere,
	publicApiUrl,
	setUpLedger,
	supportsLedger,
	type Ledger,
} from '../../../scripts/n8n/ledger';
import { major } from '../../../scripts/n8n/targets';
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import { SANDBOX_CREDENTIALS } from '../../../sandbox';
import { test, expect, postJson, type Leg, type TriggerItem } from './fixtures';

test.describe.configure({ mode: 'serial' });

const TRIGGER = 'Payment Gateway Trigger';
const UNSIGNED_CREDENTIAL: CredentialRef = {
	id: 'pgwE2eNoSecret',
	name: 'Payment Gateway Collection (no Signing Secret)',
	type: 'paymentCollectionApi',
};
/** Has a Signing Secret when published; the check then removes it. */
const SECRET_REMOVED_CREDENTIAL: CredentialRef = {
	id: 'pgwE2eGoneSecret',
	name: 'Payment Gateway Collection (Signing Secret removed later)',
	type: 'paymentCollectionApi',
};
/** What n8n answers when the trigger without a Signing Secret is published, naming the credential. */
const NO_SECRET_ACTIVATION_ERROR = `Cannot activate "Payment Gateway Trigger": the credential "${UNSIGNED_CREDENTIAL.name}" has no Signing Secret, so its callbacks would be refused (HTTP 401). Add the Signing Secret to that credential, or switch on Accept Unsigned Callbacks (Unsafe) knowingly`;

interface TriggerWorkflow {
	id: string;
	webhookId: string;
	parameters: IDataObject;
	credential: CredentialRef;
}

type WorkflowName = 'unsigned' | 'accepting' | 'secretRemoved' | 'restart';
/** The workflows `n8n publish:workflow` (1.x: `update:workflow --active`) publishes. */
const PUBLISHED: WorkflowName[] = ['accepting', 'secretRemoved', 'restart'];

const RESTART_REFERENCES = ['E2E-RESTART-1', 'E2E-RESTART-2', 'E2E-RESTART-3'];
/** The trigger's answer to an accepted callback (n8n itself would send "firstEntryJson"). */
const WORKFLOW_STARTED = '{"message":"Workflow was started"}';
const DUPLICATE_IGNORED = '{"message":"Duplicate ignored"}';

// Ids of at most 16 characters, like the ones n8n makes: n8n saves a workflow's static data only
// for an id it deems valid (1.123.81: at most 16 characters; 2.41.1: at most 21).
const WORKFLOWS: Record<WorkflowName, TriggerWorkflow> = {
	unsigned: {
		id: 'pgwE2eUnsigned',
		webhookId: '7d1c5e0a-3f2b-4c6d-8e9f-0a1b2c3d4e51',
		parameters: { interface: 'collection' },
		credential: UNSIGNED_CREDENTIAL,
	},
	accepting: {
		id: 'pgwE2eAccepting',
		webhookId: '7d1c5e0a-3f2b-4c6d-8e9f-0a1b2c3d4e52',
		parameters: { interface: 'collection', acceptUnsignedCallbacks: true },
		credential: UNSIGNED_CREDENTIAL,
	},
	secretRemoved: {
		id: 'pgwE2eSecretGone',
		webhookId: '7d1c5e0a-3f2b-4c6d-8e9f-0a1b2c3d4e54',
		parameters: { interface: 'collection' },
		credential: SECRET_REMOVED_CREDENTIAL,
	},
	restart: {
		id: 'pgwE2eRestart',
		webhookId: '7d1c5e0a-3f2b-4c6d-8e9f-0a1b2c3d4e53',
		parameters: { interface: 'collection' },
		credential: DEMO_CREDENTIALS.collection,
	},
};

function triggerWorkflow({ id, webhookId, parameters, credential }: TriggerWorkflow): WorkflowJson {
	return {
		id,
		name: `Trigger check ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			{
				id: `${webhookId.slice(0, -2)}a1`,
				name: TRIGGER,
				type: `${PACKAGE_NAME}.paymentGatewayTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { statuses: ['completed', 'cancelled'], ...parameters },
				credentials: { paymentCollectionApi: { id: credential.id, name: credential.name } },
			},
			{
				id: `${webhookId.slice(0, -2)}b2`,
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [240, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	};
}

interface CallbackData {
	reference_no: string;
	amount: number;
	status: string;
	total_amount: number;
	transaction: { reference_no: string; status: string; channel: { code: string } };
	signature?: string;
}

/** A callback as the service sends it, signed with `secret` (or unsigned without one). */
function callback(referenceNo: string, amount: number, secret?: string): { data: CallbackData } {
	const data: CallbackData = {
		reference_no: referenceNo,
		amount,
		status: 'completed',
		total_amount: amount + 10,
		transaction: { reference_no: referenceNo, status: 'completed', channel: { code: 'GCASH_TRN' } },
	};
	if (secret)
		data.signature = crypto
			.createHmac('sha256', secret)
			.update(`${amount}@${referenceNo}`)
			.digest('hex');
	return { data };
}

const { signingSecret, collection: login } = SANDBOX_CREDENTIALS;

function url(leg: Leg, name: WorkflowName): string {
	return `${leg.n8nUrl}/webhook/${WORKFLOWS[name].webhookId}/callback`;
}

function credentialData(leg: Leg): Record<string, string> {
	return {
		environment: 'sandbox',
		baseUrl: leg.sandbox.url,
		username: login.username,
		password: login.password,
	};
}

/** (Re)starts `n8n start`, ready once it serves the published trigger webhooks (no log line is read). */
async function restart(leg: Leg): Promise<void> {
	await leg.start(PUBLISHED.map((name) => url(leg, name)));
}

/** Gives n8n time to start an execution it should not, then counts them. */
async function settledCount(leg: Leg, name: WorkflowName): Promise<number> {
	await sleep(1500);
	return (await leg.running().executions(WORKFLOWS[name].id)).length;
}

test.afterAll(async ({ workerLeg }) => {
	await workerLeg.stop();
});

test('trigger workflows imported; the unsafe opt-in, secret-removed and restart ones published in n8n', async ({
	leg,
}) => {
	await leg.stop();
	await leg.importSandboxCredentials();
	await leg.instance.importCredentials([
		{ ...UNSIGNED_CREDENTIAL, data: credentialData(leg) },
		{ ...SECRET_REMOVED_CREDENTIAL, data: { ...credentialData(leg), signingSecret } },
	]);
	await leg.instance.importWorkflows(Object.values(WORKFLOWS).map(triggerWorkflow));
	for (const name of PUBLISHED) await leg.instance.activateWorkflow(WORKFLOWS[name].id);
	await restart(leg);
});

test('no Signing Secret: publishing the trigger as the editor does fails with the message naming the credential and the fix', async ({
	leg,
}) => {
	const outcome = await leg
		.running()
		.publish(WORKFLOWS.unsigned.id, major(leg.instance.runtime.n8nVersion));
	expect(outcome, 'the answer to publishing').toEqual({
		published: false,
		message: NO_SECRET_ACTIVATION_ERROR,
	});
	const res = await postJson(url(leg, 'unsigned'), callback('E2E-NOSECRET-1', 120, signingSecret));
	expect(res.status, 'HTTP status of the webhook of the trigger that was not published').toBe(404);
	expect(await settledCount(leg, 'unsigned'), 'executions without a Signing Secret').toBe(0);
});

test('Signing Secret removed after publishing: a callback, signed or not, gets 401 and starts no execution', async ({
	leg,
}) => {
	const before = await postJson(
		url(leg, 'secretRemoved'),
		callback('E2E-GONE-1', 125, signingSecret),
	);
	expect(before.status, 'HTTP status of a signed callback while the secret is set').toBe(200);
	await leg.finishedExecutions(WORKFLOWS.secretRemoved.id, 1);
	// The credential form saved with its Signing Secret field emptied.
	await leg.running().updateCredential(SECRET_REMOVED_CREDENTIAL, {
		...credentialData(leg),
		signingSecret: '',
	});
	for (const body of [callback('E2E-GONE-2', 126, signingSecret), callback('E2E-GONE-3', 127)]) {
		const res = await postJson(url(leg, 'secretRemoved'), body);
		expect(res.status, 'HTTP status once the Signing Secret is removed').toBe(401);
	}
	expect(
		await settledCount(leg, 'secretRemoved'),
		'executions after the Signing Secret was removed',
	).toBe(1);
});

test('"Accept Unsigned Callbacks (Unsafe)" on: the unsigned callback starts one execution', async ({
	leg,
}) => {
	const res = await postJson(url(leg, 'accepting'), callback('E2E-UNSIGNED-1', 130));
	expect(res.status, 'HTTP status with the opt-in').toBe(200);
	const [summary] = await leg.finishedExecutions(WORKFLOWS.accepting.id, 1);
	const execution = await leg.running().execution(summary.id);
	const [item] = nodeOutputs<TriggerItem>(execution.data.resultData.runData, TRIGGER)[0] ?? [];
	expect(item, 'the item the trigger emitted').toBeDefined();
	expect([item.reference_no, item.verified.signature, item.statusConfirmed], 'item').toEqual([
		'E2E-UNSIGNED-1',
		null,
		false,
	]);
});

// Three different callbacks, each in its own request, then a restart and a repost of all three:
// the record in the workflow's static data must hold every accepted callback, not only the first
// (n8n 2.41.1 saved only the first while n8n answered accepted callbacks itself).
test('three callbacks, a restart of n8n, a repost of each: no second execution', async ({
	leg,
}) => {
	const bodies = RESTART_REFERENCES.map((reference, index) =>
		callback(reference, 140 + index, signingSecret),
	);
	for (const [index, body] of bodies.entries()) {
		const delivery = await postJson(url(leg, 'restart'), body);
		expect([delivery.status, delivery.text], `answer to ${RESTART_REFERENCES[index]}`).toEqual([
			200,
			WORKFLOW_STARTED,
		]);
		await leg.finishedExecutions(WORKFLOWS.restart.id, index + 1);
	}
	await restart(leg);
	const reposts: Array<[number, string]> = [];
	for (const body of bodies) {
		const repost = await postJson(url(leg, 'restart'), body);
		reposts.push([repost.status, repost.text]);
	}
	expect(reposts, 'answers to the reposts').toEqual(bodies.map(() => [200, DUPLICATE_IGNORED]));
	expect(await settledCount(leg, 'restart'), 'executions after the restart and reposts').toBe(
		bodies.length,
	);
});

const CLAIMING_WEBHOOK = '7d1c5e0a-3f2b-4c6d-8e9f-0a1b2c3d4e55';

// A Payout Ledger credential on the trigger: publishing checks that the ledger's rows can be read.
// n8n 1.x has no Data Table API, so there the workflow is not published and the answer says why and
// what to do; on 2.x it publishes, and the same callback posted twice at once is claimed once.
test('a Payout Ledger credential on the trigger: publishing refused on n8n 1.x with the fix; on 2.x the same callback twice at once starts one execution, claimed in the ledger', async ({
	leg,
}) => {
	const rest = leg.running();
	const version = leg.instance.runtime.n8nVersion;
	const ledger: Ledger = supportsLedger(version)
		? await setUpLedger(rest, leg.n8nUrl, leg.instance.userFolder)
		: {
				apiUrl: publicApiUrl(leg.n8nUrl),
				apiKey: 'n8n_api_not-a-key',
				dataTableId: 'A'.repeat(16),
			};
	const { id: _id, ...credential } = ledgerCredential(ledger);
	const { id: ledgerId } = await rest.expectOk<{ id: string }>('POST', '/credentials', credential);
	const { id: _workflowId, ...workflow } = triggerWorkflow({
		id: '',
		webhookId: CLAIMING_WEBHOOK,
		parameters: { interface: 'collection' },
		credential: DEMO_CREDENTIALS.collection,
	});
	const [trigger] = workflow.nodes;
	trigger.credentials = {
		...trigger.credentials,
		paymentGatewayLedgerApi: { id: ledgerId, name: credential.name },
	};
	const { id } = await rest.expectOk<{ id: string }>('POST', '/workflows', workflow);
	const outcome = await rest.publish(id, major(version));
	if (!supportsLedger(version)) {
		expect(outcome, 'the answer to publishing on n8n 1.x').toMatchObject({ published: false });
		expect((outcome as { message: string }).message).toMatch(
			/^Cannot activate "Payment Gateway Trigger": its Payout Ledger cannot be used \(Reading the payout ledger failed: n8n answered HTTP \d+.*\)\. The ledger is an n8n Data Table reached through n8n's public API \(n8n 2\.7 or later\)/,
		);
		return;
	}
	expect(outcome, 'the answer to publishing').toEqual({ published: true });
	const webhook = `${leg.n8nUrl}/webhook/${CLAIMING_WEBHOOK}/callback`;
	const body = callback('E2E-CLAIM-1', 150, signingSecret);
	const answers = await Promise.all([postJson(webhook, body), postJson(webhook, body)]);
	expect(answers.map((a) => a.text).sort(), 'the two answers').toEqual([
		DUPLICATE_IGNORED,
		WORKFLOW_STARTED,
	]);
	await leg.finishedExecutions(id, 1);
	await sleep(1500);
	expect((await rest.executions(id)).length, 'executions of the two deliveries').toBe(1);
	const scope = `callback:${id}:${trigger.id}`;
	const claims = await ledgerRowsWhere(ledger, { scope });
	expect(
		claims.map((row) => row.state),
		'the claims in the ledger',
	).toEqual(['claimed']);
});
