// The queue-mode checks' set-up, once per Playwright worker: redis-server and PostgreSQL (from
// Debian's packages when missing) and n8n 2.41.1 installed; Redis and PostgreSQL on 127.0.0.1 on
// free ports with their data in a temporary folder; the sandbox gateway at L = 20 ms; the packed
// package, its credentials and the published workflows in the shared database; then one n8n main,
// one `n8n webhook` and two `n8n worker` processes in queue mode. Each fixture stops what it
// started after its `use`, so a failure or Ctrl-C stops everything too. The temporary folders are
// removed at the end, kept after a failed check or with KEEP_E2E_FOLDER=1; a failed check names
// them and their log files. The figures the checks measure are printed when the worker ends.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { SANDBOX_CREDENTIALS, startSandboxGateway } from '../../../sandbox';
import { ensureN8n, type N8nRuntime } from '../../../scripts/n8n/app';
import { exampleCredentials } from '../../../scripts/n8n/credentials';
import { log } from '../../../scripts/n8n/log';
import { installPackage } from '../../../scripts/n8n/pack';
import { freePort } from '../../../scripts/n8n/proc';
import { EditorApi } from '../editorApi';
import { targetFor } from '../../../scripts/n8n/targets';
import {
	PAYOUTS,
	REFUSED,
	SHEET,
	SHEET_ROWS,
	WRONG_PASSWORD_CREDENTIAL,
	callbackWebhookUrl,
	payoutWebhookUrl,
	publishedIds,
	queueWorkflows,
	sheetExample,
} from './workflows';
import { test as base } from '../fixtures';
import { QueueCluster } from './cluster';
import { SandboxControl } from './executions';
import { LATENCY_MS, report, type Figures } from './figures';
import { ensureServices, startPostgres, startRedis, type Postgres, type Redis } from './services';

export const N8N_VERSION = '2.41.1';
const OWNER = {
	email: 'queue@example.com',
	firstName: 'Queue',
	lastName: 'Check',
	password: 'Queue-Password-1',
};

interface Workspace {
	/** The temporary folder: each n8n process's user folder and logs, Redis. */
	dir: string;
	/** It and PostgreSQL's own folder. */
	folders: string[];
	keep: boolean;
}

/** The running cluster, its main's REST API and the address callbacks are published under. */
export interface Queue {
	cluster: QueueCluster;
	rest: EditorApi;
	/** The first webhook process, as published in WEBHOOK_URL: 'http://127.0.0.1:<port>/'. */
	webhookBase: string;
}

interface WorkerFixtures {
	workspace: Workspace;
	figures: Figures;
	services: { installed: boolean };
	runtime: N8nRuntime;
	redis: Redis;
	postgres: Postgres;
	sandbox: SandboxControl;
	/** The shared database filled and every user folder set up; no n8n process running yet. */
	cluster: QueueCluster;
	queue: Queue;
}

/** Each process's log (n8n's, Redis's, PostgreSQL's) under the temporary folders. */
function processLogs(folders: string[]): string[] {
	const named = /(^|\/)(main|worker|webhook)-\d+\.log$|(redis|postgres)\.log$/;
	return folders.flatMap((folder) => {
		try {
			const files = fs.readdirSync(folder, { recursive: true, encoding: 'utf8' });
			return files.filter((file) => named.test(file)).map((file) => path.join(folder, file));
		} catch {
			return []; // a file went while the folder was read: the folder is named anyway
		}
	});
}

export const test = base.extend<{ logsOnFailure: void }, WorkerFixtures>({
	workspace: [
		async ({}, use) => {
			const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-queue-'));
			log(`temporary folder: ${dir}`);
			const workspace = { dir, folders: [dir], keep: process.env.KEEP_E2E_FOLDER === '1' };
			await use(workspace);
			if (workspace.keep) log(`logs and database kept in ${workspace.folders.join(' and ')}`);
			else
				for (const folder of workspace.folders)
					fs.rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
		},
		{ scope: 'worker' },
	],
	logsOnFailure: [
		async ({ workspace }, use, testInfo) => {
			await use();
			if (testInfo.status !== 'failed' && testInfo.status !== 'timedOut') return;
			workspace.keep = true;
			const kept = `kept: ${workspace.folders.join(' and ')}`;
			await testInfo.attach('temporary folders', { body: kept, contentType: 'text/plain' });
			for (const file of processLogs(workspace.folders))
				await testInfo.attach(path.basename(file), { path: file, contentType: 'text/plain' });
		},
		{ auto: true },
	],
	figures: [
		async ({}, use) => {
			const figures: Figures = { throughput: [] };
			await use(figures);
			process.stdout.write(`\n${report(figures)}\n`);
		},
		{ scope: 'worker' },
	],
	services: [
		async ({}, use) => {
			await use(await ensureServices());
		},
		{ scope: 'worker', timeout: 15 * 60_000 },
	],
	runtime: [
		async ({}, use) => use(await ensureN8n(targetFor(N8N_VERSION))),
		{ scope: 'worker', timeout: 20 * 60_000 },
	],
	redis: [
		async ({ services: _services, workspace }, use) => {
			const redis = await startRedis(path.join(workspace.dir, 'redis'));
			await use(redis);
			await redis.stop();
		},
		{ scope: 'worker', timeout: 2 * 60_000 },
	],
	postgres: [
		async ({ services: _services, workspace }, use) => {
			const postgres = await startPostgres();
			workspace.folders.push(postgres.dir);
			await use(postgres);
			await postgres.stop();
		},
		{ scope: 'worker', timeout: 5 * 60_000 },
	],
	sandbox: [
		async ({}, use) => {
			const gateway = await startSandboxGateway({ port: 0 });
			const sandbox = new SandboxControl(gateway.url);
			await sandbox.setLatency(LATENCY_MS);
			await use(sandbox);
			await gateway.close();
		},
		{ scope: 'worker' },
	],
	cluster: [
		async ({ workspace, runtime, redis, postgres, sandbox }, use) => {
			const webhookPort = await freePort(20000 + Math.floor(Math.random() * 20000));
			const cluster = new QueueCluster(workspace.dir, runtime, redis, postgres, webhookPort);
			await installPackage(cluster.main.userFolder);
			const credentials = exampleCredentials(sandbox.url, SANDBOX_CREDENTIALS);
			const disbursement = credentials.find(({ type }) => type === 'disbursementApi')!;
			const wrongPassword = {
				...WRONG_PASSWORD_CREDENTIAL,
				data: { ...disbursement.data, password: 'not-the-password' },
			};
			await cluster.main.importCredentials([...credentials, wrongPassword]);
			const sheet = SHEET_ROWS ? [sheetExample(cluster.webhookBaseUrl.replace(/\/$/, ''))] : [];
			await cluster.main.importWorkflows([...queueWorkflows(), ...sheet]);
			await Promise.all(publishedIds().map((id) => cluster.main.activateWorkflow(id)));
			await use(cluster);
			// Every n8n process, also those a check started, newest first.
			await cluster.stop();
		},
		{ scope: 'worker', timeout: 10 * 60_000 },
	],
	queue: [
		async ({ cluster, runtime }, use) => {
			const main = await cluster.startMain();
			const rest = new EditorApi(main.url, runtime.appDir);
			await rest.setupOwnerOrLogin(OWNER);
			const webhookBase = `http://127.0.0.1:${cluster.webhookPort}/`;
			const webhooks = [
				payoutWebhookUrl(webhookBase, PAYOUTS),
				payoutWebhookUrl(webhookBase, REFUSED),
				callbackWebhookUrl(webhookBase),
				...(SHEET_ROWS ? [payoutWebhookUrl(webhookBase, SHEET)] : []),
			];
			await Promise.all([
				cluster.startWebhook(cluster.webhookPort, webhooks),
				cluster.startWorker(),
				cluster.startWorker(),
			]);
			await use({ cluster, rest, webhookBase });
		},
		{ scope: 'worker', timeout: 10 * 60_000 },
	],
});

export { expect } from '../fixtures';
