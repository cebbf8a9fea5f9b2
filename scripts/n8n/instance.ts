// One n8n user folder run by one installed n8n (a runtime from ./app): the environment n8n needs,
// its CLI commands (import, activate, execute) and `n8n start`. Every command writes its output to
// <userFolder>/logs/.
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import type { IWorkflowBase } from 'n8n-workflow';
import type { N8nRuntime } from './app';
import type { ImportedCredential } from './credentials';
import { lastLines } from './log';
import { isServed, restRoutes } from './readiness';
import { major } from './targets';
import { startLogged, runLogged, freePort, portIsFree, listensOn, sleep } from './proc';

/** A workflow as the examples and checks import it (n8n's own shape). */
export type WorkflowJson = Pick<IWorkflowBase, 'name' | 'nodes' | 'connections'> &
	Partial<IWorkflowBase> & { id: string };

/** A running `n8n start`. */
export interface N8nServer {
	url: string;
	port: number;
	pid: number | undefined;
	logFile: string;
	log: () => string;
	stop: () => Promise<void>;
	exited: Promise<number>;
}

export interface StartOptions {
	port?: number;
	webhooks?: string[];
	timeoutMs?: number;
	onSpawn?: (pid: number | undefined) => void;
}

export class N8nInstance {
	readonly runtime: N8nRuntime;
	readonly userFolder: string;
	private readonly logDir: string;
	private counter = 0;
	private readonly encryptionKey: string;

	constructor(userFolder: string, runtime: N8nRuntime) {
		this.runtime = runtime;
		this.userFolder = path.resolve(userFolder);
		this.logDir = path.join(this.userFolder, 'logs');
		fs.mkdirSync(this.logDir, { recursive: true });
		this.encryptionKey = this.readOrCreateEncryptionKey();
	}

	/** n8n keeps the key in .n8n/config; passing the same one in the environment keeps them in step. */
	private readOrCreateEncryptionKey(): string {
		const config = path.join(this.userFolder, '.n8n', 'config');
		try {
			const key = (JSON.parse(fs.readFileSync(config, 'utf8')) as { encryptionKey?: string })
				.encryptionKey;
			if (key) return key;
		} catch {
			// first use of this folder
		}
		return crypto.randomBytes(24).toString('hex');
	}

	env({ port = 5678, brokerPort }: { port?: number; brokerPort: number }): NodeJS.ProcessEnv {
		return {
			...this.runtime.env,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			DB_TYPE: 'sqlite',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PORT: String(port),
			WEBHOOK_URL: `http://127.0.0.1:${port}/`,
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_SECURE_COOKIE: 'false',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		};
	}

	/** A new log file per command; the time stamp keeps runs of a reused user folder apart. */
	logFile(name: string): string {
		this.counter += 1;
		const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
		return path.join(this.logDir, `${stamp}-${String(this.counter).padStart(2, '0')}-${name}.log`);
	}

	/** Runs one n8n CLI command to completion. */
	async run(
		args: string[],
		{ timeoutMs }: { timeoutMs?: number } = {},
	): Promise<{ code: number; output: string; logFile: string }> {
		const brokerPort = await freePort();
		const logFile = this.logFile(args[0].replace(/[^a-z]+/gi, '-'));
		const result = await runLogged(this.runtime.bin, args, {
			env: this.env({ brokerPort }),
			cwd: this.runtime.appDir,
			logFile,
			timeoutMs,
		});
		return { ...result, logFile };
	}

	async runChecked(
		args: string[],
		successPattern?: RegExp,
	): Promise<{ code: number; output: string; logFile: string }> {
		const result = await this.run(args);
		if (result.code !== 0 || (successPattern && !successPattern.test(result.output))) {
			throw new Error(
				`n8n ${args.join(' ')} failed (exit ${result.code}), see ${result.logFile}:\n${lastLines(result.output)}`,
			);
		}
		return result;
	}

	writeInput(name: string, value: unknown): string {
		const file = path.join(this.userFolder, 'import', name);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(value, null, 2));
		return file;
	}

	/** `credentials`: [{ id, name, type, data }] with plain `data`; n8n encrypts it on import. */
	async importCredentials(credentials: ImportedCredential[]): Promise<void> {
		const file = this.writeInput('credentials.json', credentials);
		await this.runChecked(['import:credentials', `--input=${file}`], /Successfully imported/);
	}

	/** Imports (or overwrites, matched by id) workflows; they arrive inactive. */
	async importWorkflows(workflows: WorkflowJson[]): Promise<void> {
		const file = this.writeInput('workflows.json', workflows);
		await this.runChecked(['import:workflow', `--input=${file}`], /Successfully imported/);
	}

	/** Marks a workflow active from the next `n8n start` (2.x publishes it; 1.x sets it active). */
	async activateWorkflow(id: string): Promise<void> {
		if (major(this.runtime.n8nVersion) >= 2) {
			await this.runChecked(['publish:workflow', `--id=${id}`], /Publishing workflow/);
		} else {
			await this.runChecked(
				['update:workflow', `--id=${id}`, '--active=true'],
				/Activating workflow/,
			);
		}
	}

	/** The workflows stored in this user folder: [{ id, active }]. */
	async workflows(): Promise<Array<{ id: string; active: boolean }>> {
		const file = path.join(this.userFolder, 'import', 'existing-workflows.json');
		fs.rmSync(file, { force: true });
		const result = await this.run(['export:workflow', '--all', `--output=${file}`]);
		if (/No workflows found/i.test(result.output)) return [];
		if (result.code !== 0)
			throw new Error(`n8n export:workflow failed (exit ${result.code}), see ${result.logFile}`);
		// 2.x marks a published workflow with activeVersionId; 1.x with active.
		const exported = (await readExportedJson(file)) as Array<{
			id: string;
			active?: boolean;
			activeVersionId?: string | null;
		}>;
		return exported.map((w) => ({ id: w.id, active: Boolean(w.active || w.activeVersionId) }));
	}

	/**
	 * `n8n start` on 127.0.0.1. Ready when this very process listens on the port (not another program
	 * that took it meanwhile) and answers there: its REST API (which n8n registers after /healthz)
	 * and, for each URL in `webhooks`, the production webhook (which exists only once its workflow
	 * is active). Nothing is read from a log that an earlier run could have written. `onSpawn`
	 * gets n8n's PID as soon as it runs.
	 */
	async start({
		port = 5678,
		webhooks = [],
		timeoutMs = 120000,
		onSpawn = () => {},
	}: StartOptions = {}): Promise<N8nServer> {
		if (!(await portIsFree(port))) throw portInUse(port);
		const brokerPort = await freePort();
		const logFile = this.logFile('start');
		const { bin, appDir } = this.runtime;
		const child = startLogged(bin, ['start'], {
			env: this.env({ port, brokerPort }),
			cwd: appDir,
			logFile,
		});
		onSpawn(child.pid);
		let exited = false;
		void child.exited.then(() => (exited = true));
		const url = `http://127.0.0.1:${port}`;
		const server: N8nServer = {
			url,
			port,
			pid: child.pid,
			logFile,
			log: () => fs.readFileSync(logFile, 'utf8'),
			stop: () => child.stop(),
			exited: child.exited,
		};
		const deadline = Date.now() + timeoutMs;
		const pending = [...restRoutes(url), ...webhooks];
		while (pending.length) {
			if (exited) {
				if (/already in use|EADDRINUSE/.test(server.log())) throw portInUse(port);
				throw new Error(`n8n start exited early, see ${logFile}:\n${lastLines(server.log())}`);
			}
			if (Date.now() > deadline) {
				await server.stop();
				const what = pending[0].includes('/webhook/')
					? `its trigger webhook ${pending[0]} never answered`
					: 'its REST API never answered';
				throw new Error(
					`n8n was not ready in ${timeoutMs / 1000} s (${what}), see ${logFile}:\n${lastLines(server.log())}`,
				);
			}
			if (listensOn(child.pid, port) && (await isServed(pending[0]))) pending.shift();
			else await sleep(250);
		}
		return server;
	}
}

/**
 * The JSON an n8n export command wrote to `file`. The command can end before its write stream is
 * flushed, so the file is read until it parses, for up to `timeoutMs`.
 */
export async function readExportedJson(file: string, timeoutMs = 10000): Promise<unknown> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return JSON.parse(fs.readFileSync(file, 'utf8'));
		} catch (error) {
			if (Date.now() > deadline)
				throw new Error(
					`${file} held no complete JSON ${timeoutMs / 1000} s after n8n wrote it: ${String(error)}`,
				);
			await sleep(100);
		}
	}
}

function portInUse(port: number): Error {
	return new Error(
		`Port ${port} on 127.0.0.1 is already in use by another program (another n8n?). Stop that program, or choose another port.`,
	);
}
