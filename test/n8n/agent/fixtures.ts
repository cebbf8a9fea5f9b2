// What the agent checks run on, once per worker: the sandbox gateway (the payment service), the
// scripted OpenAI-compatible model (scriptedModel.ts, playing modelScripts.ts), and an n8n user
// folder with the packed package, the sandbox and model credentials and one workflow per script
// (workflow.ts). Each check runs its script's workflow with `n8n execute` (`runScript`). Example 08
// runs in `n8n start` (`chatN8n`), with the payout ledger of its Maximum Total per Day set up there
// as the demo sets it up (scripts/n8n/ledger.ts): a Data Table, an API key, their credential.
// On a failure the user folder is kept (its path is attached to the test; every n8n command's
// output is in its logs/ folder); KEEP_E2E_FOLDER=1 keeps it after a success too.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { SANDBOX_CREDENTIALS, startSandboxGateway } from '../../../sandbox';
import { ensureN8n } from '../../../scripts/n8n/app';
import { sandboxCredentials } from '../../../scripts/n8n/credentials';
import { N8nInstance } from '../../../scripts/n8n/instance';
import { installPackage } from '../../../scripts/n8n/pack';
import { setUpLedgerCredential, type Ledger } from '../../../scripts/n8n/ledger';
import { N8nRest } from '../../../scripts/n8n/rest';
import { executeWorkflow } from '../cli';
import { nodeOutputs } from '../editorApi';
import { SandboxControl } from '../queue/executions';
import { expect, test as base } from '../fixtures';
import { freePort } from '../../../scripts/n8n/proc';
import { REVIEW_SCRIPTS, SCRIPTS } from './modelScripts';
import { startScriptedModel, type ScriptedModel, type ToolAnswer } from './scriptedModel';
import { AGENT, MODEL_CREDENTIAL, agentWorkflow, chatWebhookId, reviewWorkflow } from './workflow';

interface AgentWorkerFixtures {
	userFolder: { path: string; keep: boolean };
	sandbox: SandboxControl;
	model: ScriptedModel;
	n8n: N8nInstance;
	/** `n8n start` with example 08 published: its chat, its human review, its payout ledger. */
	chatN8n: { url: string; webhookId: string; ledger: Ledger };
}

interface AgentTestFixtures {
	keepFolderOnFailure: void;
	/** Runs a script's workflow; resolves with what each tool answered, in call order. */
	runScript: (script: string) => Promise<ToolAnswer[]>;
}

// The owner the payout ledger's API key belongs to (n8n makes API keys for a signed-in user only).
const OWNER = {
	email: 'agent@example.com',
	firstName: 'Agent',
	lastName: 'Check',
	password: 'Agent-Password-1',
};

export const test = base.extend<AgentTestFixtures, AgentWorkerFixtures>({
	userFolder: [
		async ({}, use) => {
			const folder = {
				path: fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-e2e-agent-')),
				keep: process.env.KEEP_E2E_FOLDER === '1',
			};
			await use(folder);
			if (folder.keep) console.log(`n8n user folder kept: ${folder.path}`);
			else fs.rmSync(folder.path, { recursive: true, force: true, maxRetries: 3 });
		},
		{ scope: 'worker' },
	],

	sandbox: [
		async ({}, use) => {
			const gateway = await startSandboxGateway({ port: 0 });
			await use(new SandboxControl(gateway.url));
			await gateway.close();
		},
		{ scope: 'worker' },
	],

	model: [
		async ({}, use) => {
			const model = await startScriptedModel({ ...SCRIPTS, ...REVIEW_SCRIPTS });
			await use(model);
			await model.close();
		},
		{ scope: 'worker' },
	],

	// Installing n8n (the first time only) takes minutes; building the package about 100 s.
	n8n: [
		async ({ n8nTarget, userFolder, sandbox, model }, use) => {
			const instance = new N8nInstance(userFolder.path, await ensureN8n(n8nTarget));
			await installPackage(userFolder.path);
			await instance.importCredentials([
				...sandboxCredentials(sandbox.url, SANDBOX_CREDENTIALS),
				{ ...MODEL_CREDENTIAL, data: { apiKey: 'scripted-no-key', url: model.baseUrl } },
			]);
			await instance.importWorkflows([
				...Object.keys(SCRIPTS).map(agentWorkflow),
				reviewWorkflow(),
			]);
			await use(instance);
		},
		{ scope: 'worker', timeout: 15 * 60_000 },
	],

	chatN8n: [
		async ({ n8n }, use) => {
			const workflow = reviewWorkflow();
			await n8n.activateWorkflow(workflow.id);
			const port = await freePort();
			const webhookId = chatWebhookId(workflow);
			const url = `http://127.0.0.1:${port}`;
			const chatPage = `${url}/webhook/${webhookId}/chat`;
			const server = await n8n.start({ port, webhooks: [chatPage] });
			try {
				// Ready for a person too: the chat page itself, as a browser opens it, answers 200.
				await expect
					.poll(async () => (await fetch(chatPage)).status, {
						message: `example 08's public chat page ${chatPage}`,
						timeout: 60_000,
					})
					.toBe(200);
				const rest = new N8nRest(url);
				await rest.setupOwnerOrLogin(OWNER);
				const { ledger } = await setUpLedgerCredential(n8n, rest, url);
				await use({ url, webhookId, ledger });
			} finally {
				await server.stop();
			}
		},
		{ scope: 'worker', timeout: 5 * 60_000 },
	],

	keepFolderOnFailure: [
		async ({ userFolder }, use, testInfo) => {
			await use();
			if (testInfo.status === testInfo.expectedStatus) return;
			userFolder.keep = true;
			await testInfo.attach('n8n user folder (n8n output in logs/)', { body: userFolder.path });
		},
		{ auto: true },
	],

	runScript: async ({ n8n, model }, use, testInfo) => {
		await use(async (script) => {
			const result = await executeWorkflow(n8n, agentWorkflow(script).id, { timeoutMs: 180_000 });
			await testInfo.attach(`n8n execute, script ${script}`, { path: result.logFile });
			const see = `, see ${result.logFile}`;
			expect(result.code, `n8n execute's exit code${see}`).toBe(0);
			const resultData = result.run?.data.resultData;
			expect(resultData, `the run n8n execute printed${see}`).toBeDefined();
			expect(resultData?.error?.message, `the run's error${see}`).toBeUndefined();
			const agentOutput = nodeOutputs(resultData?.runData, AGENT)[0] ?? [];
			expect(agentOutput, `the agent's answer${see}`).toHaveLength(1);
			expect(model.problems, 'requests the scripted model could not answer').toEqual([]);
			const answers = model.answersOf(script);
			// The answers without their tokens: a token is not for the log.
			answers.forEach((answer, i) => {
				const said = answer.error ?? answer.summary ?? answer.status ?? '';
				console.log(`  ${SCRIPTS[script][i].tool}: ${String(said)}`);
			});
			expect(answers, `tool answers the model received in script ${script}`).toHaveLength(
				SCRIPTS[script].length,
			);
			return answers;
		});
	},
});

export { expect };
