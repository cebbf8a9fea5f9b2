// The Payment Gateway Trigger in a real n8n, beyond the example workflow: a trigger whose
// credential has no Signing Secret cannot be published (the editor's publish answers with the
// message naming the credential and the fix); with "Accept Unsigned Callbacks (Unsafe)" it
// publishes and an unsigned callback starts an execution; a Signing Secret removed after
// publishing gets every callback refused (401, no execution); and after three callbacks and a
// restart of `n8n start`, a repost of each starts no second execution (the de-duplication record
// lives in the workflow's static data).
import crypto from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import type { SandboxCredentials } from '../../sandbox';
import { N8nRest, nodeOutputs, type Owner } from './rest';
import { assert, assertEqual, waitFor, type Check } from './check';
import { sleep } from './proc';
import { PACKAGE_NAME } from './paths';
import { DEMO_CREDENTIALS, type CredentialRef } from './credentials';
import { major } from './targets';
import type { N8nInstance, N8nServer, WorkflowJson } from './instance';

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
/** What n8n answers when the trigger without a Signing Secret is published. */
const NO_SECRET_ACTIVATION_ERROR =
	'Cannot activate "Payment Gateway Trigger": the Payment Collection credential has no Signing Secret, so its callbacks would be refused (HTTP 401). Add the Signing Secret to that credential, or switch on Accept Unsigned Callbacks (Unsafe) knowingly';

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

function triggerWorkflow(
	id: string,
	{ webhookId, parameters, credential }: TriggerWorkflow,
): WorkflowJson {
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

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: res.status, text: await res.text() };
}

export interface TriggerCheckOptions {
	instance: N8nInstance;
	server: N8nServer | undefined;
	port: number;
	owner: Owner;
	sandboxUrl: string;
	SANDBOX_CREDENTIALS: SandboxCredentials;
	check: Check;
}

/** The fields of a Payment Gateway Trigger item the checks read. */
export interface TriggerItem {
	interface: string;
	reference_no: string;
	status: string;
	verified: { signature: unknown };
	statusConfirmed: boolean;
}

/**
 * Runs the checks with `check(name, fn)`. Stops `server` (the running `n8n start`, if any) to
 * import and publish its workflows, restarts n8n on `port` as it goes, and returns the server
 * left running, for the caller to stop.
 * sandboxUrl and SANDBOX_CREDENTIALS: the sandbox gateway the example credentials point at.
 */
export async function triggerChecks({
	instance,
	server,
	port,
	owner,
	sandboxUrl,
	SANDBOX_CREDENTIALS,
	check,
}: TriggerCheckOptions): Promise<N8nServer | undefined> {
	const { signingSecret, collection: login } = SANDBOX_CREDENTIALS;
	const url = (name: WorkflowName) =>
		`http://127.0.0.1:${port}/webhook/${WORKFLOWS[name].webhookId}/callback`;
	const credentialData = () => ({
		environment: 'sandbox',
		baseUrl: sandboxUrl,
		username: login.username,
		password: login.password,
	});
	let running = server;
	let rest: N8nRest | undefined;

	async function restart(): Promise<N8nRest> {
		if (running) await running.stop();
		running = undefined;
		// Ready once this n8n serves the published trigger webhooks (no log line is read).
		running = await instance.start({ port, webhooks: PUBLISHED.map(url) });
		const started = new N8nRest(running.url, instance.runtime.appDir);
		rest = started;
		await started.setupOwnerOrLogin(owner);
		// n8n 2.41 activates triggers in the background after start: wait until the restart
		// trigger answers (an unsigned callback it must refuse anyway) instead of 404.
		await waitFor(
			async () => (await post(url('restart'), callback('E2E-READY', 1))).status !== 404,
			{
				timeoutMs: 60000,
				message: 'the trigger webhooks were not registered within 60 s',
			},
		);
		return started;
	}

	async function executions(n8n: N8nRest, name: WorkflowName, count: number) {
		return await waitFor(
			async () => {
				const found = await n8n.executions(WORKFLOWS[name].id);
				return (
					found.length >= count &&
					found.every((e) => e.status !== 'running' && e.status !== 'new') &&
					found
				);
			},
			{ message: `expected ${count} execution(s) of ${WORKFLOWS[name].id}` },
		);
	}

	/** Gives n8n time to start an execution it should not, then counts them. */
	async function settledCount(n8n: N8nRest, name: WorkflowName): Promise<number> {
		await sleep(1500);
		return (await n8n.executions(WORKFLOWS[name].id)).length;
	}

	await check(
		'trigger workflows imported; the unsafe opt-in, secret-removed and restart ones published in n8n',
		async () => {
			if (running) await running.stop();
			running = undefined;
			await instance.importCredentials([
				{ ...UNSIGNED_CREDENTIAL, data: credentialData() },
				{ ...SECRET_REMOVED_CREDENTIAL, data: { ...credentialData(), signingSecret } },
			]);
			await instance.importWorkflows(Object.values(WORKFLOWS).map((w) => triggerWorkflow(w.id, w)));
			for (const name of PUBLISHED) await instance.activateWorkflow(WORKFLOWS[name].id);
			await restart();
		},
	);

	await check(
		'no Signing Secret: publishing the trigger as the editor does fails with the message naming the credential and the fix',
		async () => {
			assert(rest, 'n8n is not running');
			const outcome = await rest.publish(WORKFLOWS.unsigned.id, major(instance.runtime.n8nVersion));
			assertEqual(
				outcome,
				{ published: false, message: NO_SECRET_ACTIVATION_ERROR },
				'the answer to publishing',
			);
			const res = await post(url('unsigned'), callback('E2E-NOSECRET-1', 120, signingSecret));
			assertEqual(
				res.status,
				404,
				'HTTP status of the webhook of the trigger that was not published',
			);
			assertEqual(await settledCount(rest, 'unsigned'), 0, 'executions without a Signing Secret');
		},
	);

	await check(
		'Signing Secret removed after publishing: a callback, signed or not, gets 401 and starts no execution',
		async () => {
			assert(rest, 'n8n is not running');
			const before = await post(url('secretRemoved'), callback('E2E-GONE-1', 125, signingSecret));
			assertEqual(before.status, 200, 'HTTP status of a signed callback while the secret is set');
			await executions(rest, 'secretRemoved', 1);
			// The credential form saved with its Signing Secret field emptied.
			await rest.updateCredential(SECRET_REMOVED_CREDENTIAL, {
				...credentialData(),
				signingSecret: '',
			});
			for (const body of [
				callback('E2E-GONE-2', 126, signingSecret),
				callback('E2E-GONE-3', 127),
			]) {
				const res = await post(url('secretRemoved'), body);
				assertEqual(res.status, 401, 'HTTP status once the Signing Secret is removed');
			}
			assertEqual(
				await settledCount(rest, 'secretRemoved'),
				1,
				'executions after the Signing Secret was removed',
			);
		},
	);

	await check(
		'"Accept Unsigned Callbacks (Unsafe)" on: the unsigned callback starts one execution',
		async () => {
			assert(rest, 'n8n is not running');
			const res = await post(url('accepting'), callback('E2E-UNSIGNED-1', 130));
			assertEqual(res.status, 200, 'HTTP status with the opt-in');
			const [summary] = await executions(rest, 'accepting', 1);
			const execution = await rest.execution(summary.id);
			const [item] = nodeOutputs<TriggerItem>(execution.data.resultData.runData, TRIGGER)[0] ?? [];
			assert(item, 'the trigger emitted no item');
			assertEqual(
				[item.reference_no, item.verified.signature, item.statusConfirmed],
				['E2E-UNSIGNED-1', 'not configured', false],
				'item',
			);
		},
	);

	// Three different callbacks, each in its own request, then a restart and a repost of all three:
	// the record in the workflow's static data must hold every accepted callback, not only the first
	// (n8n 2.41.1 saved only the first while n8n answered accepted callbacks itself).
	await check(
		'three callbacks, a restart of n8n, a repost of each: no second execution',
		async () => {
			assert(rest, 'n8n is not running');
			const bodies = RESTART_REFERENCES.map((reference, index) =>
				callback(reference, 140 + index, signingSecret),
			);
			for (const [index, body] of bodies.entries()) {
				const delivery = await post(url('restart'), body);
				assertEqual(
					[delivery.status, delivery.text],
					[200, WORKFLOW_STARTED],
					`answer to ${RESTART_REFERENCES[index]}`,
				);
				await executions(rest, 'restart', index + 1);
			}
			const restarted = await restart();
			const reposts: Array<[number, string]> = [];
			for (const body of bodies) {
				const repost = await post(url('restart'), body);
				reposts.push([repost.status, repost.text]);
			}
			assertEqual(
				reposts,
				bodies.map(() => [200, DUPLICATE_IGNORED]),
				'answers to the reposts',
			);
			assertEqual(
				await settledCount(restarted, 'restart'),
				bodies.length,
				'executions after the restart and reposts',
			);
		},
	);

	return running;
}
