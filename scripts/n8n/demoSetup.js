'use strict';
// The demo set-up shared by `npm start` and the browser check: a sandbox gateway, n8n with the
// packed package, the sandbox credentials, the example workflows, an owner account.
const { ensureN8n } = require('./app');
const { installPackage } = require('./pack');
const { N8nInstance } = require('./instance');
const { N8nRest } = require('./rest');
const { loadSandbox } = require('./sandbox');
const { sandboxCredentials } = require('./credentials');
const { loadExamples, hasTrigger } = require('./examples');
const { freePort } = require('./proc');
const { log, seconds } = require('./log');

// Fixed, obviously local demo login (the instance listens on 127.0.0.1 only).
const DEMO_OWNER = {
	email: 'demo@example.com',
	firstName: 'Demo',
	lastName: 'User',
	password: 'Demo-Password-1',
};

async function startDemoSetup({ userFolder, n8nPort = 5678, sandboxPort = 8787, payoutAutoSettleMs = 5000 }) {
	const started = Date.now();
	await ensureN8n();
	const instance = new N8nInstance(userFolder);
	await installPackage(instance.userFolder);

	const { startSandboxGateway, SANDBOX_CREDENTIALS } = loadSandbox();
	const sandbox = await startSandboxGateway({ port: await freePort(sandboxPort), payoutAutoSettleMs });
	log(`sandbox gateway on ${sandbox.url} (payouts settle ${payoutAutoSettleMs / 1000} s after creation)`);

	let server;
	const stop = async () => {
		if (server) await server.stop();
		await sandbox.close();
	};
	try {
		const port = await freePort(n8nPort);
		const n8nUrl = `http://127.0.0.1:${port}`;
		const examples = loadExamples({ n8nUrl });
		log('importing the sandbox credentials and the example workflows');
		await instance.importCredentials(sandboxCredentials(sandbox.url, SANDBOX_CREDENTIALS));
		if (examples.length) await instance.importWorkflows(examples.map((e) => e.workflow));
		const triggers = examples.filter((e) => hasTrigger(e.workflow));
		for (const { workflow } of triggers) await instance.publishWorkflow(workflow.id);

		log(`starting n8n on ${n8nUrl}`);
		server = await instance.start({ port, activeWorkflows: triggers.length });
		const rest = new N8nRest(server.url);
		await rest.setupOwnerOrLogin(DEMO_OWNER);
		log(`ready in ${seconds(started)}`);
		return { instance, server, rest, sandbox, examples, owner: DEMO_OWNER, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

module.exports = { startDemoSetup, DEMO_OWNER };
