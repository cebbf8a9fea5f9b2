// `npm run e2e:agent`: the payouts an AI agent may make, proven in real n8n 2.41.1 with n8n's AI
// Agent and OpenAI Chat Model, without a model: the chat model's credential points at a scripted
// OpenAI-compatible server on 127.0.0.1 (agent/scriptedModel.ts) that answers with the tool calls
// of a script. The sandbox gateway fakes the payment service. Each script runs its own workflow
// with `n8n execute`; the checks read what each tool answered and what the sandbox received.
// Confirm runs here without n8n's human review in front of it: the review step waits for a person.
// Ends with `e2e:agent: N passed, M failed`. KEEP_E2E_FOLDER=1 keeps the n8n user folder.
import fs from 'fs';
import os from 'os';
import path from 'path';
import {
	approvalKey,
	readApprovalPayload,
	signApproval,
} from '../nodes/shared/validation/approvalToken';
import { SandboxControl } from './queue/executions';
import { startScriptedModel, type ScriptedCall, type ToolAnswer } from './agent/scriptedModel';
import { AGENT, MAX_AMOUNT, MODEL_CREDENTIAL, TOOLS, agentWorkflow } from './agent/workflow';
import { ensureN8n } from './n8n/app';
import { assert, assertEqual, createChecks } from './n8n/check';
import { DEMO_CREDENTIALS, sandboxCredentials } from './n8n/credentials';
import { N8nInstance } from './n8n/instance';
import { log, seconds } from './n8n/log';
import { installPackage } from './n8n/pack';
import { exitWhenDone, stopAll, stopOnInterrupt } from './n8n/proc';
import { nodeOutputs } from './n8n/rest';
import { loadSandbox } from './n8n/sandbox';
import { targetFor } from './n8n/targets';

const N8N_VERSION = '2.41.1';
const ALLOWED_ACCOUNT = '001234567890';

const { startSandboxGateway, SANDBOX_CREDENTIALS } = loadSandbox();

const row = (referenceNo: string, receiverAccountNumber = ALLOWED_ACCOUNT) => ({
	amount: 1500,
	referenceNo,
	receiverAccountName: 'Juan Dela Cruz',
	receiverAccountNumber,
});

const tokenOf = (answers: ToolAnswer[]) => String(answers[0]?.approvalToken ?? '');

/** The token with its payload changed and its signature kept, as a model might alter it. */
function withAmount(token: string, amount: number): string {
	const [prefix, , signature] = token.split('.');
	const payload = readApprovalPayload(token);
	assert(payload, 'Prepare gave no readable approval token');
	payload.send.body = { ...payload.send.body, amount };
	const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
	return `${prefix}.${encoded}.${signature}`;
}

/**
 * The token signed anew, by the sandbox credential's own key, with an expiry already past: a token
 * that is genuine in every way but its age, without waiting out Prepare's shortest validity.
 */
function expired(token: string): string {
	const payload = readApprovalPayload(token);
	assert(payload, 'Prepare gave no readable approval token');
	const key = approvalKey(SANDBOX_CREDENTIALS.signingSecret, DEMO_CREDENTIALS.disbursement.id);
	return signApproval(key, { ...payload, expiresAt: Date.now() - 60_000 });
}

const call = (tool: string, args: ScriptedCall['args']): ScriptedCall => ({ tool, args });

const SCRIPTS: Record<string, ScriptedCall[]> = {
	a: [
		call(TOOLS.prepare, () => row('AGENT-A-1')),
		call(TOOLS.confirm, (answers) => ({ approvalToken: tokenOf(answers) })),
	],
	b: [
		call(TOOLS.prepare, () => row('AGENT-B-1')),
		call(TOOLS.confirm, (answers) => ({ approvalToken: withAmount(tokenOf(answers), 4500) })),
	],
	c: [
		call(TOOLS.prepare, () => row('AGENT-C-1')),
		call(TOOLS.confirm, (answers) => ({ approvalToken: expired(tokenOf(answers)) })),
	],
	d: [call(TOOLS.create, () => row('AGENT-D-1'))],
	e: [call(TOOLS.prepare, () => row('AGENT-E-1', '009876543210'))],
};

async function main(): Promise<number> {
	const started = Date.now();
	const { check, summary, tally } = createChecks('e2e:agent');
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-e2e-agent-'));
	log(`user folder: ${userFolder}`);
	const gateway = await startSandboxGateway({ port: 0 });
	const sandbox = new SandboxControl(gateway.url);
	const model = await startScriptedModel(SCRIPTS);
	// Ctrl-C stops the `n8n execute` under way too (stopOnInterrupt stops every child it started).
	stopOnInterrupt();
	let instance: N8nInstance | undefined;

	/** Payouts the sandbox created for a reference. */
	const payoutsFor = async (referenceNo: string) =>
		(await sandbox.stats()).creationsByReference[referenceNo] ?? 0;

	/** Runs a script's workflow; resolves with what each tool answered, in call order. */
	async function runScript(script: string): Promise<ToolAnswer[]> {
		assert(instance, 'n8n is not set up');
		const result = await instance.execute(agentWorkflow(script).id, { timeoutMs: 180000 });
		assert(
			result.code === 0 && result.run,
			`n8n execute failed (exit ${result.code}), see ${result.logFile}`,
		);
		const runError = result.run.data.resultData.error;
		assert(!runError, `the run failed: ${runError?.message}, see ${result.logFile}`);
		const agentOutput = nodeOutputs(result.run.data.resultData.runData, AGENT)[0] ?? [];
		assert(agentOutput.length === 1, `the agent gave no answer, see ${result.logFile}`);
		assert(!model.problems.length, `the scripted model: ${model.problems.join('; ')}`);
		const answers = model.answersOf(script);
		// The answers without their tokens: a token is not for the log.
		answers.forEach((answer, i) =>
			log(
				`  ${SCRIPTS[script][i].tool}: ${String(answer.error ?? answer.summary ?? answer.status ?? '')}`,
			),
		);
		assertEqual(
			answers.length,
			SCRIPTS[script].length,
			`tool answers the model received in script ${script}`,
		);
		return answers;
	}

	const refused = (answer: ToolAnswer | undefined, pattern: RegExp, what: string) => {
		assert(answer?.refused === true, `${what}: expected a refusal, got ${JSON.stringify(answer)}`);
		assert(
			pattern.test(String(answer.error)),
			`${what}: refusal "${String(answer.error)}" does not match ${pattern}`,
		);
	};

	try {
		await check(
			`n8n ${N8N_VERSION} with the packed package, the credentials and the workflows`,
			async () => {
				const runtime = await ensureN8n(targetFor(N8N_VERSION));
				instance = new N8nInstance(userFolder, runtime);
				await installPackage(userFolder);
				await instance.importCredentials([
					...sandboxCredentials(gateway.url, SANDBOX_CREDENTIALS),
					{ ...MODEL_CREDENTIAL, data: { apiKey: 'scripted-no-key', url: model.baseUrl } },
				]);
				await instance.importWorkflows(Object.keys(SCRIPTS).map(agentWorkflow));
			},
		);

		await check('(a) Prepare, then Confirm with its token: exactly one payout', async () => {
			const [prepared, confirmed] = await runScript('a');
			assertEqual(
				model.toolsOfferedTo('a').sort(),
				Object.values(TOOLS).sort(),
				'tools the agent offered the model',
			);
			assertEqual(prepared.sent, false, 'Prepare sent');
			assert(
				tokenOf([prepared]).startsWith('pa1.'),
				`Prepare gave no token: ${JSON.stringify(prepared)}`,
			);
			assert(!confirmed.refused, `Confirm refused: ${JSON.stringify(confirmed)}`);
			assertEqual(confirmed.reference_no, 'AGENT-A-1', 'the payout Confirm sent');
			assertEqual(await payoutsFor('AGENT-A-1'), 1, 'payouts the sandbox created for AGENT-A-1');
		});

		await check(
			'(b) Confirm with a token whose amount was altered: refused, no payout',
			async () => {
				const [, confirmed] = await runScript('b');
				refused(confirmed, /changed after it was prepared/, 'Confirm of an altered token');
				assert(
					4500 < MAX_AMOUNT,
					'the altered amount must be under the cap, so the token is what refuses',
				);
				assertEqual(await payoutsFor('AGENT-B-1'), 0, 'payouts the sandbox created for AGENT-B-1');
			},
		);

		await check('(c) Confirm after the token expired: refused, no payout', async () => {
			const [, confirmed] = await runScript('c');
			refused(confirmed, /expired at/, 'Confirm of an expired token');
			assertEqual(await payoutsFor('AGENT-C-1'), 0, 'payouts the sandbox created for AGENT-C-1');
		});

		await check(
			'(d) Create as a tool with no Maximum Amount per Payout: refused, no payout',
			async () => {
				const [created] = await runScript('d');
				refused(created, /"Maximum Amount per Payout" is not set/, 'Create without a cap');
				assertEqual(await payoutsFor('AGENT-D-1'), 0, 'payouts the sandbox created for AGENT-D-1');
			},
		);

		await check('(e) a recipient outside Allowed Recipients: refused, no payout', async () => {
			const [prepared] = await runScript('e');
			refused(
				prepared,
				/not in this node's Allowed Recipients/,
				'Prepare for a recipient not allowed',
			);
			assertEqual(await payoutsFor('AGENT-E-1'), 0, 'payouts the sandbox created for AGENT-E-1');
		});

		await check('no other payout reached the sandbox', async () => {
			const creations = (await sandbox.stats()).creationsByReference;
			assertEqual(creations, { 'AGENT-A-1': 1 }, 'payouts the sandbox created');
		});
	} finally {
		await stopAll();
		await model.close();
		await gateway.close();
		if (process.env.KEEP_E2E_FOLDER === '1' || tally().failed > 0)
			log(`n8n user folder kept: ${userFolder}`);
		else fs.rmSync(userFolder, { recursive: true, force: true, maxRetries: 3 });
	}
	log(`e2e:agent took ${seconds(started)}`);
	return summary();
}

exitWhenDone(main);
