// The demo set-up shared by `npm start` and the browser check: a sandbox gateway, n8n with the
// packed package, the sandbox credentials, the example workflows, an owner account, and on n8n 2.7 or
// later the payout ledger of "Maximum Total per Day" with its credential.
import fs from 'fs';
import path from 'path';
import {
	startSandboxGateway,
	SANDBOX_CREDENTIALS,
	type SandboxCredentials,
	type PayoutAnswers,
	type SandboxGateway,
} from '../../sandbox';
import { ensureN8n, chooseNewestRuntime, type N8nRuntime } from './app';
import { installPackage } from './pack';
import { N8nInstance, type N8nServer } from './instance';
import { N8nRest, type Owner } from './rest';
import { DEMO_CREDENTIALS, demoModelCredential, exampleCredentials } from './credentials';
import { startDemoModel } from './demoModel';
import {
	LEDGER_CREDENTIAL,
	LEDGER_MIN_N8N,
	LEDGER_TABLE,
	ledgerCredential,
	savedLedger,
	setUpLedgerCredential,
	supportsLedger,
	type Ledger,
} from './ledger';
import type { ChatModelServer } from './chatModelServer';
import {
	chatUrl,
	hasChatTrigger,
	hasTrigger,
	loadExamples,
	triggerWebhookUrl,
	withChatModel,
	type Example,
} from './examples';
import { major } from './targets';
import { freePort, portIsFree, isAlive, signalGroup, sleep } from './proc';
import { log, seconds } from './log';

// Fixed, obviously local demo login (the instance listens on 127.0.0.1 only).
export const DEMO_OWNER: Owner = {
	email: 'demo@example.com',
	firstName: 'Demo',
	lastName: 'User',
	password: 'Demo-Password-1',
};

/**
 * The n8n a killed `npm start` left running on this user folder (its PID is kept in n8n.pid): it
 * holds the port and the database, so it is stopped before a new one starts.
 */
async function stopLeftoverN8n(userFolder: string): Promise<void> {
	const pidFile = path.join(userFolder, 'n8n.pid');
	const pid = Number(readIfThere(pidFile));
	if (pid > 0 && isAlive(pid) && readIfThere(`/proc/${pid}/cmdline`).includes('n8n')) {
		log(`stopping the n8n an earlier run left running (pid ${pid})`);
		signalGroup(pid, 'SIGTERM');
		for (let i = 0; i < 40 && isAlive(pid); i++) await sleep(250);
		signalGroup(pid, 'SIGKILL');
	}
	fs.rmSync(pidFile, { force: true });
}

/** A file's text, trimmed; empty when it cannot be read. */
function readIfThere(file: string): string {
	try {
		return fs.readFileSync(file, 'utf8').trim();
	} catch {
		return '';
	}
}

async function choosePort(preferred: number, what: string): Promise<number> {
	if (await portIsFree(preferred)) return preferred;
	const port = await freePort(preferred + 1);
	log(`port ${preferred} is already in use by another program: ${what} uses port ${port} instead`);
	return port;
}

/**
 * Imports the example workflows this user folder does not have yet, and activates the new trigger
 * workflows (a chat's on n8n 2.x, which has the human review example 08 needs). Ones already there
 * are the user's (maybe edited): they are never replaced. Resolves with the production webhooks
 * that must be live once n8n runs.
 */
async function importNewExamples(
	instance: N8nInstance,
	examples: Example[],
	n8nUrl: string,
): Promise<string[]> {
	const chats = major(instance.runtime.n8nVersion) >= 2;
	const live = (workflow: Example['workflow']) =>
		hasTrigger(workflow) || (chats && hasChatTrigger(workflow));
	const existing = new Map((await instance.workflows()).map((w) => [w.id, w]));
	const kept = examples.filter((e) => existing.has(e.workflow.id));
	const added = examples.filter((e) => !existing.has(e.workflow.id));
	if (kept.length)
		log(
			`example workflows kept as they are in this n8n (delete one in n8n to get it back): ${names(kept)}`,
		);
	if (added.length) {
		log(`importing example workflows: ${names(added)}`);
		await instance.importWorkflows(added.map((e) => e.workflow));
		for (const { workflow } of added.filter((e) => live(e.workflow)))
			await instance.activateWorkflow(workflow.id);
	}
	const active = [...added, ...kept.filter((e) => existing.get(e.workflow.id)?.active)];
	return active
		.filter((e) => live(e.workflow))
		.map((e) =>
			hasTrigger(e.workflow) ? triggerWebhookUrl(e.workflow, n8nUrl) : chatUrl(e.workflow, n8nUrl),
		);
}

const names = (examples: Example[]) => examples.map((e) => `"${e.workflow.name}"`).join(', ');

export interface DemoOptions {
	userFolder: string;
	n8nPort?: number;
	sandboxPort?: number;
	modelPort?: number;
	payoutAutoSettleMs?: number;
	/** How much the sandbox's payout answers state (`documented`: only what the interface document shows). */
	payoutAnswers?: PayoutAnswers;
	build?: boolean;
}

export interface Demo {
	instance: N8nInstance;
	runtime: N8nRuntime;
	server: N8nServer;
	rest: N8nRest;
	sandbox: SandboxGateway;
	/** The demo's chat model, a script (example 08 runs with no key). */
	model: ChatModelServer;
	/** The sandbox's test credentials and Signing Secret (public values of the local fake). */
	sandboxCredentials: SandboxCredentials;
	examples: Example[];
	owner: Owner;
	/** The payout ledger and its credential's name (n8n 2.7 or later; undefined on older n8n). */
	ledger?: Ledger & { credentialName: string; tableName: string };
	stop: () => Promise<void>;
}

export async function startDemoSetup({
	userFolder,
	n8nPort = 5678,
	sandboxPort = 8787,
	modelPort = 8788,
	payoutAutoSettleMs = 5000,
	payoutAnswers,
	build = true,
}: DemoOptions): Promise<Demo> {
	const started = Date.now();
	const { target, reason } = chooseNewestRuntime();
	const runtime = await ensureN8n(target);
	log(`using n8n ${runtime.n8nVersion} on Node.js ${runtime.node.version} (${reason})`);
	const instance = new N8nInstance(userFolder, runtime);
	await stopLeftoverN8n(instance.userFolder);
	await installPackage(instance.userFolder, { build });

	// Kept beside n8n's database: the trigger remembers the callbacks it saw, the sandbox the
	// references it was given, so a restarted demo pays nobody twice (`replayed: true`).
	const stateFile = path.join(instance.userFolder, 'sandbox-state.json');
	const sandbox = await startSandboxGateway({
		port: await choosePort(sandboxPort, 'the sandbox gateway'),
		payoutAutoSettleMs,
		stateFile,
		payoutAnswers,
	}).catch((error: Error) => {
		throw new Error(
			`${error.message} The demo keeps it in ${instance.userFolder}: delete that folder to start the whole demo over.`,
		);
	});
	log(
		`sandbox gateway on ${sandbox.url} (payouts settle ${payoutAutoSettleMs / 1000} s after creation; records kept in ${path.relative(process.cwd(), stateFile)})`,
	);

	let server: N8nServer | undefined;
	let model: ChatModelServer | undefined;
	const pidFile = path.join(instance.userFolder, 'n8n.pid');
	const stop = async () => {
		if (server) await server.stop();
		fs.rmSync(pidFile, { force: true });
		await sandbox.close();
		await model?.close();
	};
	try {
		model = await startDemoModel(await choosePort(modelPort, 'the demo model'));
		log(`demo chat model on ${model.baseUrl} (a script, not an AI: example 08 needs no key)`);
		const port = await choosePort(n8nPort, 'n8n');
		const n8nUrl = `http://127.0.0.1:${port}`;
		const examples = loadExamples({ n8nUrl }).map((example) => ({
			...example,
			workflow: withChatModel(example.workflow, DEMO_CREDENTIALS.model),
		}));
		// The ledger's API key needs n8n running: it is made after the start. A ledger an earlier
		// run set up is imported now with the others (its URL follows the port), and checked then.
		const withLedger = supportsLedger(runtime.n8nVersion);
		const earlierLedger = withLedger ? savedLedger(instance.userFolder, n8nUrl) : undefined;
		log(
			`importing the sandbox and demo model credentials${earlierLedger ? ' and the payout ledger' : ''}`,
		);
		await instance.importCredentials([
			...exampleCredentials(sandbox.url, SANDBOX_CREDENTIALS),
			demoModelCredential(model.baseUrl),
			...(earlierLedger ? [ledgerCredential(earlierLedger)] : []),
		]);
		const webhooks = await importNewExamples(instance, examples, n8nUrl);

		log(`starting n8n on ${n8nUrl}`);
		server = await instance.start({
			port,
			webhooks,
			onSpawn: (pid) => fs.writeFileSync(pidFile, `${pid}\n`),
		});
		const rest = new N8nRest(server.url);
		await rest.setupOwnerOrLogin(DEMO_OWNER);
		let ledger: Demo['ledger'];
		if (withLedger) {
			const set = await setUpLedgerCredential(instance, rest, server.url, earlierLedger);
			log(
				`payout ledger: Data Table "${LEDGER_TABLE}" ${set.ledger.tableReused ? 'kept' : 'created'} (${set.ledger.dataTableId}), API key ${set.ledger.keyReused ? 'kept' : 'created'}, credential "${LEDGER_CREDENTIAL.name}" ${set.credentialImported ? 'imported' : 'kept'}`,
			);
			const { apiUrl, apiKey, dataTableId } = set.ledger;
			ledger = {
				apiUrl,
				apiKey,
				dataTableId,
				credentialName: LEDGER_CREDENTIAL.name,
				tableName: LEDGER_TABLE,
			};
		} else {
			log(
				`payout ledger not set up: Maximum Total per Day needs n8n ${LEDGER_MIN_N8N} or later (its Data Table public API); this is n8n ${runtime.n8nVersion}`,
			);
		}
		log(`ready in ${seconds(started)}`);
		return {
			instance,
			runtime,
			server,
			rest,
			sandbox,
			model,
			sandboxCredentials: SANDBOX_CREDENTIALS,
			examples,
			owner: DEMO_OWNER,
			ledger,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
