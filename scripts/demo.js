#!/usr/bin/env node
'use strict';
// `npm start`: the package running in a real n8n against the local sandbox gateway, with the
// example workflows imported and an owner account ready. Ctrl-C stops everything it started.
// State lives in .demo/ (git-ignored) and is reused by the next run; delete it to start over.
const path = require('path');
const { startDemoSetup } = require('./n8n/demoSetup');
const { DEMO_DIR } = require('./n8n/paths');
const { log } = require('./n8n/log');

async function main() {
	const demo = await startDemoSetup({ userFolder: DEMO_DIR });
	const { server, sandbox, owner, examples } = demo;

	let stopping = false;
	const shutdown = async () => {
		if (stopping) return;
		stopping = true;
		log('stopping n8n and the sandbox gateway');
		await demo.stop();
		process.exit(0);
	};
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);
	server.exited.then((code) => {
		if (stopping) return;
		log(`n8n exited unexpectedly (code ${code}); its log: ${path.relative(process.cwd(), server.logFile)}`);
		void shutdown();
	});

	const lines = [
		'',
		'  n8n with n8n-nodes-payment-gateway is running.',
		'',
		`  Editor       ${server.url}`,
		`  Login        ${owner.email}  /  ${owner.password}`,
		`  Sandbox      ${sandbox.url}   (a local fake of the payment service; no real money moves)`,
		`  Credentials  "Payment Gateway Collection (sandbox)", "Payment Gateway Disbursement (sandbox)"`,
		'',
		'  Example workflows:',
		...examples.map(({ workflow }) => `    - ${workflow.name}   ${server.url}/workflow/${workflow.id}`),
		'',
		`  n8n log: ${path.relative(process.cwd(), server.logFile)}`,
		'  Press Ctrl-C to stop.',
		'',
	];
	process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
