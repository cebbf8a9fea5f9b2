// What the e2e checks of one n8n version (the project's n8nTarget) share: the installed n8n, and one
// n8n user folder with the packed package installed, its own sandbox gateway and port. Worker
// fixtures: set up once per version, torn down after its last check, on failure and on Ctrl-C
// too. On a failure the user folder is kept (KEEP_E2E_FOLDER=1 keeps it always) and the failed
// check names it: every n8n command's output is in its logs/ folder.
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import type { IDataObject } from 'n8n-workflow';
import type { TestInfo } from '@playwright/test';
import { test as base, expect } from '../fixtures';
import { ensureN8n, type N8nRuntime } from '../../../scripts/n8n/app';
import { installPackage } from '../../../scripts/n8n/pack';
import { N8nInstance, type N8nServer, type WorkflowJson } from '../../../scripts/n8n/instance';
import type { Owner } from '../../../scripts/n8n/rest';
import { EditorApi, nodeOutputs, type ExecutionSummary } from '../editorApi';
import { executeWorkflow } from '../cli';
import { exampleCredentials } from '../../../scripts/n8n/credentials';
import { loadExamples, triggerWebhookUrl } from '../../../scripts/n8n/examples';
import { freePort } from '../../../scripts/n8n/proc';
import { startSandboxGateway, SANDBOX_CREDENTIALS } from '../../../sandbox';
import { DemoRun } from './demoRun';

export { expect };

export const OWNER: Owner = {
	email: 'e2e@example.com',
	firstName: 'End',
	lastName: 'ToEnd',
	password: 'E2e-Password-1',
};

/** The example workflows' ids. */
export const WF = {
	payouts: 'pgwSheetPayouts',
	paymentLink: 'pgwOrderPayLink',
	callbacks: 'pgwCallbacksPaid',
	report: 'pgwWalletReport',
	checkThenPay: 'pgwCheckThenPay',
	autoMapped: 'pgwAutoMapPayout',
	reconcile: 'pgwReconcilePaid',
	sheetBatches: 'pgwSheetBatches',
};
export const SHEET_PAYOUTS = ['BONUS-2026-03-001', 'BONUS-2026-03-002', 'BONUS-2026-03-003'];
export const VALID_PAYOUTS = ['PAYROLL-2026-02-001', 'PAYROLL-2026-02-002', 'PAYROLL-2026-02-003'];
export const INVALID_PAYOUTS = ['PAYROLL-2026-02-004', 'PAYROLL-2026-02-005'];
export const ORDER = 'ORDER-10023';

type SandboxGateway = Awaited<ReturnType<typeof startSandboxGateway>>;
/** (node name, output index) -> the JSON of the items that node output on its first run. */
export type Outputs = <T = IDataObject>(node: string, output?: number) => T[];

/** One n8n user folder on the project's n8n version, its sandbox gateway, and `n8n start` when running. */
export class Leg {
	server: N8nServer | undefined;
	rest: EditorApi | undefined;
	/** Set when a check on this leg failed: its user folder is kept. */
	failed = false;
	private credentialsImported = false;

	constructor(
		readonly instance: N8nInstance,
		readonly sandbox: SandboxGateway,
		readonly port: number,
		readonly examples: Record<string, WorkflowJson>,
	) {}

	get n8nUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** The production URL of the callback example's trigger. */
	get webhookUrl(): string {
		return triggerWebhookUrl(this.examples[WF.callbacks], this.n8nUrl);
	}

	/** Whether the sandbox created these references (in this worker: an earlier failure restarts it). */
	created(references: string[]): boolean {
		return references.every((ref) => this.sandbox.stats().creationsByReference[ref]);
	}

	/** Imports the credentials the examples use, the sandbox's pointed at this leg's sandbox (once). */
	async importSandboxCredentials(): Promise<void> {
		if (this.credentialsImported) return;
		await this.instance.importCredentials(
			exampleCredentials(this.sandbox.url, SANDBOX_CREDENTIALS),
		);
		this.credentialsImported = true;
	}

	/** Runs a workflow with `n8n execute`; resolves with its nodes' outputs. */
	async execute(id: string): Promise<Outputs> {
		const result = await executeWorkflow(this.instance, id);
		expect(result.code, `exit code of n8n execute --id=${id}, see ${result.logFile}`).toBe(0);
		expect(
			result.run,
			`the run JSON of n8n execute --id=${id}, see ${result.logFile}`,
		).toBeTruthy();
		const runData = result.run?.data.resultData.runData;
		return <T = IDataObject>(node: string, output = 0): T[] =>
			nodeOutputs<T>(runData, node)[output] ?? [];
	}

	/** The REST API of the running `n8n start`, logged in as the owner. */
	running(): EditorApi {
		if (!this.rest) throw new Error('n8n is not running');
		return this.rest;
	}

	/** (Re)starts `n8n start`, ready once it serves `webhooks`; creates the owner or logs in. */
	async start(webhooks: string[]): Promise<EditorApi> {
		await this.stop();
		this.server = await this.instance.start({ port: this.port, webhooks });
		const rest = new EditorApi(this.server.url, this.instance.runtime.appDir);
		await rest.setupOwnerOrLogin(OWNER);
		this.rest = rest;
		return rest;
	}

	async stop(): Promise<void> {
		await this.server?.stop();
		this.server = undefined;
		this.rest = undefined;
	}

	/** Waits until a workflow has at least `count` executions, none still running; newest first. */
	async finishedExecutions(workflowId: string, count: number): Promise<ExecutionSummary[]> {
		let found: ExecutionSummary[] = [];
		await expect
			.poll(
				async () => {
					found = await this.running().executions(workflowId);
					const finished = found.every((e) => e.status !== 'running' && e.status !== 'new');
					return finished ? found.length : 0;
				},
				{ message: `finished executions of ${workflowId} (0 while one still runs)` },
			)
			.toBeGreaterThanOrEqual(count);
		return found;
	}
}

/** The fields of a Payment Gateway Trigger item the checks read. */
export interface TriggerItem {
	interface: string;
	reference_no: string;
	status: string;
	verified: { signature: unknown };
	statusConfirmed: boolean;
}

/** POSTs a JSON body; resolves with the answer's status and text. */
export async function postJson(
	url: string,
	body: unknown,
): Promise<{ status: number; text: string }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: res.status, text: await res.text() };
}

/** Removes a temporary folder, or keeps it (on failure, or with KEEP_E2E_FOLDER=1) and says where. */
export function removeOrKeep(folder: string, failed: boolean, what: string): void {
	if (failed || process.env.KEEP_E2E_FOLDER) console.log(`${what} kept for inspection: ${folder}`);
	else fs.rmSync(folder, { recursive: true, force: true });
}

/** After a check that failed: its folder (`where`) is kept, and the report names it. */
export async function keepOnFailure(
	testInfo: TestInfo,
	kept: { failed: boolean },
	name: string,
	where: string,
): Promise<void> {
	if (testInfo.status === testInfo.expectedStatus) return;
	kept.failed = true;
	await testInfo.attach(name, { body: `${where} (every n8n command's output in logs/)` });
}

interface E2eWorkerFixtures {
	/** demo.spec.ts's `npm start` runs (one demo folder). */
	workerRun: DemoRun;
	/** The project's n8n, installed on first use (5 to 8 minutes on a fresh machine). */
	runtime: N8nRuntime;
	workerLeg: Leg;
}

export const test = base.extend<{ leg: Leg; run: DemoRun }, E2eWorkerFixtures>({
	runtime: [
		async ({ n8nTarget }, use) => {
			await use(await ensureN8n(n8nTarget));
		},
		{ scope: 'worker', timeout: 15 * 60_000 },
	],

	workerLeg: [
		async ({ runtime }, use) => {
			const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `pgw-e2e-${runtime.n8nVersion}-`));
			const instance = new N8nInstance(userFolder, runtime);
			await installPackage(userFolder);
			const sandbox = await startSandboxGateway({ port: 0 });
			// A port away from the usual ones, so that other n8n instances on this machine rarely meet it.
			const port = await freePort(20000 + Math.floor(Math.random() * 20000));
			const examples = loadExamples({ n8nUrl: `http://127.0.0.1:${port}` });
			const leg = new Leg(
				instance,
				sandbox,
				port,
				Object.fromEntries(examples.map((e) => [e.workflow.id, e.workflow])),
			);
			try {
				await use(leg);
			} finally {
				await leg.stop();
				await sandbox.close();
				removeOrKeep(userFolder, leg.failed, 'n8n user folder (logs in logs/)');
			}
		},
		{ scope: 'worker', timeout: 10 * 60_000 },
	],

	/** The worker's leg; a failed check marks it and names its user folder. */
	leg: async ({ workerLeg }, use, testInfo) => {
		await use(workerLeg);
		await keepOnFailure(testInfo, workerLeg, 'n8n user folder', workerLeg.instance.userFolder);
	},

	workerRun: [
		async ({ runtime }, use) => {
			// Each `npm start` inherits PGW_PACKED_PACKAGE: it installs what the global set-up packed.
			const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-demo-'));
			const busyPort = await freePort(5800);
			const blocker = net.createServer().listen(busyPort, '127.0.0.1');
			const run = new DemoRun(folder, busyPort, blocker, runtime.n8nVersion);
			try {
				await use(run);
			} finally {
				blocker.close();
				run.kill();
				removeOrKeep(folder, run.failed, 'demo folder (start-N.log, logs/)');
			}
		},
		{ scope: 'worker', timeout: 15 * 60_000 },
	],

	/** The worker's demo run; a failed check marks it and names its folder. */
	run: async ({ workerRun }, use, testInfo) => {
		await use(workerRun);
		await keepOnFailure(testInfo, workerRun, 'demo folder (start-N.log)', workerRun.folder);
	},
});
