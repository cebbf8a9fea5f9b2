// What the agent checks run on, once per worker: the sandbox gateway (the payment service), the
// scripted OpenAI-compatible model (scriptedModel.ts, playing modelScripts.ts), and an n8n user
// folder with the packed package, the sandbox and model credentials and one workflow per script
// (workflow.ts). Each check runs its script's workflow with `n8n execute` (`runScript`).
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
	/** `n8n start` with example 08 published: its chat, its human review. */
	chatN8n: { url: string; webhookId: string };
}

interface AgentTestFixtures {
	keepFolderOnFailure: void;
	/** Runs a script's workflow; resolves with what each tool answered, in call order. */
	runScript: (script: string) => Promise<ToolAnswer[]>;
}

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
			// Ready for a person too: the chat page itself, as a browser opens it, answers 200.
			await expect
				.poll(async () => (await fetch(chatPage)).status, {
					message: `example 08's public chat page ${chatPage}`,
					timeout: 60_000,
				})
				.toBe(200);
			await use({ url, webhookId });
			await server.stop();
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
