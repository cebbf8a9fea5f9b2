// `npm start`: the package running in a real n8n against the local sandbox gateway, with the
// example workflows imported and an owner account ready. Ctrl-C stops everything it started.
// State lives in .demo/ (git-ignored; PGW_DEMO_DIR moves it) and is reused by the next run: the
// example workflows are imported only when missing, so edits made in the editor survive a restart.
// Delete the folder to start over. --no-build installs the last build instead of building;
// PGW_DEMO_PORT asks for another port than 5678, PGW_DEMO_N8N for another tested n8n version.
import path from 'path';
import { startDemoSetup } from './n8n/demoSetup';
import { DEMO_DIR } from './n8n/paths';
import { log } from './n8n/log';

async function main(): Promise<void> {
	const demo = await startDemoSetup({
		userFolder: DEMO_DIR,
		n8nPort: Number(process.env.PGW_DEMO_PORT) || 5678,
		build: !process.argv.includes('--no-build'),
	});
	const { server, sandbox, owner, examples, runtime } = demo;

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
	void server.exited.then((code) => {
		if (stopping) return;
		log(`n8n exited unexpectedly (code ${code}); its log: ${path.relative(process.cwd(), server.logFile)}`);
		void shutdown();
	});

	const lines = [
		'',
		`  n8n ${runtime.n8nVersion} (Node.js ${runtime.node.version}) with n8n-nodes-payment-gateway is running.`,
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
