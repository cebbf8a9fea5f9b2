'use strict';
// The demo set-up shared by `npm start` and the browser check: a sandbox gateway, n8n with the
// packed package, the sandbox credentials, the example workflows, an owner account.
const fs = require('fs');
const path = require('path');
const { ensureN8n, chooseNewestRuntime } = require('./app');
const { installPackage } = require('./pack');
const { N8nInstance } = require('./instance');
const { N8nRest } = require('./rest');
const { loadSandbox } = require('./sandbox');
const { sandboxCredentials } = require('./credentials');
const { loadExamples, hasTrigger, triggerWebhookUrl } = require('./examples');
const { freePort, portIsFree, isAlive, signalGroup, sleep } = require('./proc');
const { log, seconds } = require('./log');

// Fixed, obviously local demo login (the instance listens on 127.0.0.1 only).
const DEMO_OWNER = {
	email: 'demo@example.com',
	firstName: 'Demo',
	lastName: 'User',
	password: 'Demo-Password-1',
};

/**
 * The n8n a killed `npm start` left running on this user folder (its PID is kept in n8n.pid): it
 * holds the port and the database, so it is stopped before a new one starts.
 */
async function stopLeftoverN8n(userFolder) {
	const pidFile = path.join(userFolder, 'n8n.pid');
	let pid;
	try {
		pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
	} catch {
		return;
	}
	const cmdline = (() => {
		try {
			return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
		} catch {
			return '';
		}
	})();
	if (pid > 0 && isAlive(pid) && cmdline.includes('n8n')) {
		log(`stopping the n8n an earlier run left running (pid ${pid})`);
		signalGroup(pid, 'SIGTERM');
		for (let i = 0; i < 40 && isAlive(pid); i++) await sleep(250);
		signalGroup(pid, 'SIGKILL');
	}
	fs.rmSync(pidFile, { force: true });
}

async function choosePort(preferred, what) {
	if (await portIsFree(preferred)) return preferred;
	const port = await freePort(preferred + 1);
	log(`port ${preferred} is already in use by another program: ${what} uses port ${port} instead`);
	return port;
}

/**
 * Imports the example workflows this user folder does not have yet, and activates the new trigger
 * workflows. Ones already there are the user's (maybe edited): they are never replaced.
 * Resolves with the production webhooks that must be live once n8n runs.
 */
async function importNewExamples(instance, examples, n8nUrl) {
	const existing = new Map((await instance.workflows()).map((w) => [w.id, w]));
	const kept = examples.filter((e) => existing.has(e.workflow.id));
	const added = examples.filter((e) => !existing.has(e.workflow.id));
	if (kept.length) log(`example workflows kept as they are in this n8n (delete one in n8n to get it back): ${names(kept)}`);
	if (added.length) {
		log(`importing example workflows: ${names(added)}`);
		await instance.importWorkflows(added.map((e) => e.workflow));
		for (const { workflow } of added.filter((e) => hasTrigger(e.workflow))) await instance.activateWorkflow(workflow.id);
	}
	const live = [...added, ...kept.filter((e) => existing.get(e.workflow.id).active)];
	return live.filter((e) => hasTrigger(e.workflow)).map((e) => triggerWebhookUrl(e.workflow, n8nUrl));
}

const names = (examples) => examples.map((e) => `"${e.workflow.name}"`).join(', ');

async function startDemoSetup({ userFolder, n8nPort = 5678, sandboxPort = 8787, payoutAutoSettleMs = 5000, build = true }) {
	const started = Date.now();
	const { target, reason } = chooseNewestRuntime();
	const runtime = await ensureN8n(target);
	log(`using n8n ${runtime.n8nVersion} on Node.js ${runtime.node.version} (${reason})`);
	const instance = new N8nInstance(userFolder, runtime);
	await stopLeftoverN8n(instance.userFolder);
	await installPackage(instance.userFolder, { build });

	const { startSandboxGateway, SANDBOX_CREDENTIALS } = loadSandbox();
	const sandbox = await startSandboxGateway({ port: await choosePort(sandboxPort, 'the sandbox gateway'), payoutAutoSettleMs });
	log(`sandbox gateway on ${sandbox.url} (payouts settle ${payoutAutoSettleMs / 1000} s after creation)`);

	let server;
	const pidFile = path.join(instance.userFolder, 'n8n.pid');
	const stop = async () => {
		if (server) await server.stop();
		fs.rmSync(pidFile, { force: true });
		await sandbox.close();
	};
	try {
		const port = await choosePort(n8nPort, 'n8n');
		const n8nUrl = `http://127.0.0.1:${port}`;
		const examples = loadExamples({ n8nUrl });
		log('importing the sandbox credentials');
		await instance.importCredentials(sandboxCredentials(sandbox.url, SANDBOX_CREDENTIALS));
		const webhooks = await importNewExamples(instance, examples, n8nUrl);

		log(`starting n8n on ${n8nUrl}`);
		server = await instance.start({ port, webhooks, onSpawn: (pid) => fs.writeFileSync(pidFile, `${pid}\n`) });
		const rest = new N8nRest(server.url, runtime.appDir);
		await rest.setupOwnerOrLogin(DEMO_OWNER);
		log(`ready in ${seconds(started)}`);
		return { instance, runtime, server, rest, sandbox, examples, owner: DEMO_OWNER, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

module.exports = { startDemoSetup, DEMO_OWNER };
