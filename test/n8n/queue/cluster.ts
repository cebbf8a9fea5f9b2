// n8n in queue mode: one main, `n8n worker` processes and `n8n webhook` processes, all on one
// PostgreSQL database and one Redis, sharing one encryption key. Each process has its own user
// folder with the packed package installed as a community package, as on separate machines.
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import type { N8nRuntime } from '../../../scripts/n8n/app';
import { N8nInstance } from '../../../scripts/n8n/instance';
import { isServed, restRoutes } from '../../../scripts/n8n/readiness';
import { installPackage } from '../../../scripts/n8n/pack';
import { freePort } from '../../../scripts/n8n/proc';
import { log, seconds } from '../../../scripts/n8n/log';
import { startService, type Service } from './processes';
import { waitReady, type Postgres, type Redis } from './services';

/** Each worker takes one execution at a time: two executions started together land on two workers. */
export const WORKER_CONCURRENCY = 1;

/** A worker's V8 heap cap in MB (`--max-old-space-size`), from QUEUE_WORKER_HEAP_MB; none when unset. */
const WORKER_HEAP_MB = Number(process.env.QUEUE_WORKER_HEAP_MB) || 0;

/** The installed n8n (from ensureN8n) every process of the cluster runs. */
export type Runtime = N8nRuntime;

interface Shared {
	encryptionKey: string;
	redis: Redis;
	postgres: Postgres;
	/** The address callbacks and webhooks are published under (the first webhook process). */
	webhookBaseUrl: string;
}

/** One n8n process's user folder and environment, in queue mode on the shared services. */
class QueueInstance extends N8nInstance {
	constructor(
		userFolder: string,
		runtime: Runtime,
		private readonly shared: Shared,
	) {
		// Every process gets the same key, in its user folder's config as n8n keeps it, and below.
		fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
		fs.writeFileSync(
			path.join(userFolder, '.n8n', 'config'),
			JSON.stringify({ encryptionKey: shared.encryptionKey }),
		);
		super(userFolder, runtime);
	}

	env({ port = 5678, brokerPort }: { port?: number; brokerPort: number }): NodeJS.ProcessEnv {
		const { redis, postgres, webhookBaseUrl } = this.shared;
		return {
			...super.env({ port, brokerPort }),
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: '',
			N8N_ENCRYPTION_KEY: this.shared.encryptionKey,
			WEBHOOK_URL: webhookBaseUrl,
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		};
	}
}

export interface N8nProcess extends Service {
	role: 'main' | 'worker' | 'webhook';
	url?: string;
}

export class QueueCluster {
	readonly main: QueueInstance;
	readonly processes: N8nProcess[] = [];
	private readonly shared: Shared;
	private count = 0;

	constructor(
		private readonly baseDir: string,
		private readonly runtime: Runtime,
		redis: Redis,
		postgres: Postgres,
		/** The first webhook process's port: WEBHOOK_URL, the address callbacks are published under. */
		readonly webhookPort: number,
	) {
		this.shared = {
			encryptionKey: crypto.randomBytes(24).toString('hex'),
			redis,
			postgres,
			webhookBaseUrl: `http://127.0.0.1:${webhookPort}/`,
		};
		this.main = this.instance('main');
	}

	/** The address webhooks are published under: 'http://127.0.0.1:<webhook port>/'. */
	get webhookBaseUrl(): string {
		return this.shared.webhookBaseUrl;
	}

	private instance(name: string): QueueInstance {
		return new QueueInstance(path.join(this.baseDir, name), this.runtime, this.shared);
	}

	private async spawn(
		role: N8nProcess['role'],
		args: string[],
		port: number,
	): Promise<{ process: N8nProcess; instance: QueueInstance }> {
		this.count += 1;
		const name = `${role}-${this.count}`;
		const instance = role === 'main' ? this.main : this.instance(name);
		if (role !== 'main') await installPackage(instance.userFolder, { build: false });
		const env = instance.env({
			port,
			brokerPort: await freePort(30000 + Math.floor(Math.random() * 20000)),
		});
		// QUEUE_WORKER_HEAP_MB caps each worker's V8 heap (docs/scaling.md, "Memory").
		if (role === 'worker' && WORKER_HEAP_MB) {
			env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --max-old-space-size=${WORKER_HEAP_MB}`.trim();
		}
		const service = startService(name, this.runtime.bin, args, {
			env,
			cwd: this.runtime.appDir,
			logFile: path.join(instance.userFolder, 'logs', `${name}.log`),
		});
		const n8n: N8nProcess = {
			...service,
			role,
			url: role === 'worker' ? undefined : `http://127.0.0.1:${port}`,
		};
		this.processes.push(n8n);
		return { process: n8n, instance };
	}

	/** `n8n start`: ready when its REST API, the sign-in route included, answers. */
	async startMain(): Promise<N8nProcess & { url: string }> {
		const port = await freePort(20000 + Math.floor(Math.random() * 20000));
		const { process: spawned } = await this.spawn('main', ['start'], port);
		const main = Object.assign(spawned, { url: spawned.url ?? `http://127.0.0.1:${port}` });
		const routes = restRoutes(main.url);
		await waitUntil(main, async () => (await Promise.all(routes.map(isServed))).every(Boolean));
		return main;
	}

	/** `n8n webhook` on `port`: ready when each of `webhooks` is registered (scripts/n8n/readiness.ts). */
	async startWebhook(port: number, webhooks: string[]): Promise<N8nProcess> {
		const { process: webhook } = await this.spawn('webhook', ['webhook'], port);
		await waitUntil(webhook, async () => (await status(`${webhook.url}/healthz`)) === 200);
		for (const url of webhooks) {
			const here = url.replace(this.shared.webhookBaseUrl, `${webhook.url}/`);
			await waitUntil(webhook, () => isServed(here), { quiet: true });
		}
		return webhook;
	}

	/** `n8n worker` taking `concurrency` executions at a time: ready when it says so. */
	async startWorker(concurrency = WORKER_CONCURRENCY): Promise<N8nProcess> {
		const { process: worker } = await this.spawn(
			'worker',
			['worker', `--concurrency=${concurrency}`],
			0,
		);
		await waitUntil(worker, async () =>
			/n8n worker is now ready/.test(fs.readFileSync(worker.logFile, 'utf8')),
		);
		return worker;
	}

	workers(): N8nProcess[] {
		return this.processes.filter((p) => p.role === 'worker' && !p.hasExited());
	}

	/** Execution id -> the worker whose log says it started that execution. */
	executionsByWorker(): Map<string, string> {
		const found = new Map<string, string>();
		for (const worker of this.processes.filter((p) => p.role === 'worker')) {
			for (const match of fs
				.readFileSync(worker.logFile, 'utf8')
				.matchAll(/Worker started execution (\d+)/g)) {
				found.set(match[1], worker.name);
			}
		}
		return found;
	}

	async stopProcess(process: N8nProcess): Promise<void> {
		const started = Date.now();
		await process.stop();
		log(`${process.name} stopped in ${seconds(started)}`);
	}

	/** Stops every n8n process still running, newest first. */
	async stop(): Promise<void> {
		for (const process of [...this.processes].reverse())
			if (!process.hasExited()) await this.stopProcess(process);
	}
}

async function status(url: string): Promise<number> {
	try {
		const res = await fetch(url);
		await res.arrayBuffer();
		return res.status;
	} catch {
		return 0;
	}
}

/** n8n's start-up (migrations on an empty database, loading the package) takes up to minutes. */
function waitUntil(
	process: N8nProcess,
	ready: () => Promise<boolean>,
	{ quiet = false } = {},
): Promise<void> {
	const where = process.url ? ` on ${process.url}` : '';
	return waitReady(process, ready, { timeoutMs: 180000, quiet, where });
}
