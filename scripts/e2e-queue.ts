// `npm run e2e:queue`: the packed package on n8n's distributed engine. Installs what is missing
// (redis-server and PostgreSQL from Debian's packages, n8n 2.41.1 from npm), starts Redis and
// PostgreSQL on 127.0.0.1 on free ports in a temporary folder, then one n8n main, two `n8n worker`
// and one `n8n webhook` process in queue mode, and the sandbox gateway at L = 20 ms. Checks tokens,
// a payout workflow started twice at once, callbacks through webhook processes, and measures
// throughput with 2 and 1 workers. Stops everything it started, also on failure or Ctrl-C.
// Ends with the figures, the throughput table and `e2e:queue: N passed, M failed`.
// KEEP_E2E_FOLDER=1 keeps the temporary folder (logs, database) even when everything passed.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { ensureN8n } from './n8n/app';
import { createChecks } from './n8n/check';
import { sandboxCredentials } from './n8n/credentials';
import { log, seconds } from './n8n/log';
import { installPackage } from './n8n/pack';
import { exitWhenDone, freePort, stillRunning, stopAll, stopOnInterrupt } from './n8n/proc';
import { N8nRest } from './n8n/rest';
import { loadSandbox } from './n8n/sandbox';
import { targetFor } from './n8n/targets';
import { QueueCluster, WORKER_CONCURRENCY, type Runtime } from './queue/cluster';
import type { Figures, QueueContext } from './queue/context';
import { SandboxControl } from './queue/executions';
import { payoutChecks } from './queue/payouts';
import {
	ensureServices,
	startPostgres,
	startRedis,
	type Postgres,
	type Redis,
} from './queue/services';
import { LATENCY_MS, throughputChecks, throughputTable } from './queue/throughput';
import { tokenChecks } from './queue/tokens';
import { triggerChecks } from './queue/trigger';
import {
	CALLBACKS,
	PAYOUTS,
	REFUSED,
	WRONG_PASSWORD_CREDENTIAL,
	callbackWebhookUrl,
	payoutWebhookUrl,
	queueWorkflows,
} from './queue/workflows';

const N8N_VERSION = '2.41.1';
const OWNER = {
	email: 'queue@example.com',
	firstName: 'Queue',
	lastName: 'Check',
	password: 'Queue-Password-1',
};

interface Gateway {
	url: string;
	close(): Promise<void>;
}

function report(figures: Figures): void {
	const lines: Array<[string, number | undefined]> = [
		[
			'token requests, two workers at the same moment, no stored token:',
			figures.tokenRequestsColdStart,
		],
		['token requests, two workers, token stored:', figures.tokenRequestsWarm],
		[
			'token requests, two workers, after the service dropped every token:',
			figures.tokenRequestsAfterExpiry,
		],
		['token requests, two workers, refused password (50 rows each):', figures.tokenRequestsRefused],
		['payouts sent (created at the service, 500 references, 2 runs at once):', figures.payoutsSent],
		['create requests the service received for them:', figures.createRequests],
		['duplicates=', figures.duplicates],
		['lost=', figures.lost],
		['references the other run answered replayed: true:', figures.replayed],
		['references the other run answered with a conflict:', figures.conflicts],
		[
			'executions from one callback on two webhook processes at once:',
			figures.executionsFromSimultaneousDelivery,
		],
		[
			'executions from one callback on one webhook process, then the other:',
			figures.executionsFromSequentialDelivery,
		],
		[
			`callbacks accepted (${figures.callbacksAccepted ?? '?'}) that the trigger's record in the database holds:`,
			figures.callbacksRememberedInDatabase,
		],
	];
	process.stdout.write('\n');
	for (const [label, value] of lines)
		process.stdout.write(`${label.padEnd(72)} ${value ?? 'not measured'}\n`);
	process.stdout.write(
		`\nthroughput at L = ${LATENCY_MS} ms, worker concurrency ${WORKER_CONCURRENCY}, ${os.cpus().length} cores:\n`,
	);
	process.stdout.write(`${throughputTable(figures.throughput)}\n`);
}

async function main(): Promise<number> {
	const started = Date.now();
	const { check, summary, tally } = createChecks('e2e:queue');
	const figures: Figures = { throughput: [] };
	const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-queue-'));
	log(`temporary folder: ${baseDir}`);
	let runtime: Runtime | undefined;
	let redis: Redis | undefined;
	let postgres: (Postgres & { dir: string }) | undefined;
	const removeFolders = () => {
		if (process.env.KEEP_E2E_FOLDER === '1') return;
		for (const dir of [baseDir, postgres?.dir])
			if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
	};
	// Ctrl-C or SIGTERM stops everything first: the folders go only once PostgreSQL no longer writes there.
	const { stopping: wasInterrupted } = stopOnInterrupt(async (signal) => {
		process.stdout.write(`\n${signal}: stopping everything this run started\n`);
		await stopAll();
		removeFolders();
	});
	let gateway: Gateway | undefined;
	let ctx: QueueContext | undefined;

	try {
		await check('redis-server and PostgreSQL are installed (apt-get when missing)', async () => {
			const { installed } = await ensureServices();
			log(installed ? 'installed from Debian packages' : 'already installed');
		});
		await check(`n8n ${N8N_VERSION} is installed`, async () => {
			runtime = (await ensureN8n(targetFor(N8N_VERSION))) as Runtime;
		});
		await check('Redis and PostgreSQL run on 127.0.0.1 on free ports', async () => {
			redis = await startRedis(path.join(baseDir, 'redis'));
			postgres = await startPostgres();
			log(`Redis on port ${redis.port}, PostgreSQL on port ${postgres.port}`);
		});
		const { startSandboxGateway, SANDBOX_CREDENTIALS } = loadSandbox();
		gateway = (await startSandboxGateway({ port: 0 })) as Gateway;
		const sandbox = new SandboxControl(gateway.url);
		await sandbox.setLatency(LATENCY_MS);

		if (runtime && redis && postgres) {
			const cluster = new QueueCluster(
				baseDir,
				runtime,
				redis,
				postgres,
				await freePort(20000 + Math.floor(Math.random() * 20000)),
			);
			const webhookBase = `http://127.0.0.1:${cluster.webhookPort}/`;
			const rest = { current: undefined as N8nRest | undefined };
			await check(
				'the packed package, the credentials and the published workflows are in the shared database',
				async () => {
					await installPackage(cluster.main.userFolder);
					const wrongPassword = {
						...WRONG_PASSWORD_CREDENTIAL,
						data: {
							...sandboxCredentials(gateway!.url, SANDBOX_CREDENTIALS)[1].data,
							password: 'not-the-password',
						},
					};
					await cluster.main.importCredentials([
						...sandboxCredentials(gateway!.url, SANDBOX_CREDENTIALS),
						wrongPassword,
					]);
					await cluster.main.importWorkflows(queueWorkflows());
					await Promise.all(
						[PAYOUTS.id, REFUSED.id, CALLBACKS.id].map((id) => cluster.main.activateWorkflow(id)),
					);
				},
			);
			await check(
				`one main, one webhook process and two workers (concurrency ${WORKER_CONCURRENCY}) run in queue mode`,
				async () => {
					const main = await cluster.startMain();
					rest.current = new N8nRest(main.url, runtime!.appDir);
					await rest.current.setupOwnerOrLogin(OWNER);
					const webhooks = [
						payoutWebhookUrl(webhookBase, PAYOUTS),
						payoutWebhookUrl(webhookBase, REFUSED),
						callbackWebhookUrl(webhookBase),
					];
					await Promise.all([
						cluster.startWebhook(cluster.webhookPort, webhooks),
						cluster.startWorker(),
						cluster.startWorker(),
					]);
				},
			);
			if (rest.current && cluster.workers().length === 2) {
				ctx = { cluster, rest: rest.current, sandbox, postgres, webhookBase, figures };
				await tokenChecks(ctx, check);
				await payoutChecks(ctx, check);
				await triggerChecks(ctx, check);
				await throughputChecks(ctx, check);
			}
		}
	} finally {
		const stopping = Date.now();
		await stopAll();
		if (gateway) await gateway.close();
		log(`stopped everything this run started in ${seconds(stopping)}`);
		const left = stillRunning();
		if (left.length) log(`still running: ${left.join(', ')}`);
		if (process.env.KEEP_E2E_FOLDER === '1' || (tally().failed > 0 && !wasInterrupted())) {
			log(`logs and database kept in ${baseDir}${postgres ? ` and ${postgres.dir}` : ''}`);
		} else removeFolders();
	}

	report(figures);
	log(`e2e:queue took ${seconds(started)}`);
	return summary();
}

exitWhenDone(main);
