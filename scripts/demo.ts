// `npm start`: the package running in a real n8n against the local sandbox gateway, with the
// example workflows imported and an owner account ready. Ctrl-C stops everything it started.
// State lives in .demo/ (git-ignored; PGW_DEMO_DIR moves it) and is reused by the next run: the
// example workflows are imported only when missing, so edits made in the editor survive a restart.
// The sandbox gateway keeps its records there too (sandbox-state.json), so a restarted demo pays
// nobody twice. Delete the folder to start over. --no-build installs the last build instead of
// building; PGW_DEMO_PORT asks for another port than 5678, PGW_DEMO_N8N for another tested n8n
// version, SANDBOX_ANSWERS=documented a sandbox whose payout answers state only what the service's
// interface document shows.
import path from 'path';
import { readPayoutAnswers } from '../sandbox';
import { startDemoSetup, type Demo } from './n8n/demoSetup';
import {
	chatUrl,
	exampleLines,
	hasChatTrigger,
	hasTrigger,
	triggerWebhookUrl,
} from './n8n/examples';
import { DEMO_MODEL_NAME } from './n8n/demoModel';
import { major } from './n8n/targets';
import { DEMO_DIR } from './n8n/paths';
import { log } from './n8n/log';
import { stopAll, stopOnInterrupt } from './n8n/proc';

let demo: Demo | undefined;
// Ctrl-C works from the first moment: while the demo is still starting, what it started is stopped too.
const { stop, stopping } = stopOnInterrupt(async () => {
	log(demo ? 'stopping n8n and the sandbox gateway' : 'stopping: the demo was still starting');
	await demo?.stop();
	await stopAll(); // an n8n still starting is not in `demo` yet
	log('Stopped: n8n and the sandbox gateway.');
}, 0);

async function main(): Promise<void> {
	demo = await startDemoSetup({
		userFolder: DEMO_DIR,
		n8nPort: Number(process.env.PGW_DEMO_PORT) || 5678,
		build: !process.argv.includes('--no-build'),
		payoutAnswers: readPayoutAnswers(process.env.SANDBOX_ANSWERS, 'SANDBOX_ANSWERS'),
	});
	const { server, sandbox, sandboxCredentials: credentials, owner, examples, runtime } = demo;
	const triggerExample = examples.find(({ workflow }) => hasTrigger(workflow));
	const chatExample =
		major(runtime.n8nVersion) >= 2
			? examples.find(({ workflow }) => hasChatTrigger(workflow))
			: undefined;

	void server.exited.then((code) => {
		if (stopping()) return;
		log(
			`n8n exited unexpectedly (code ${code}); its log: ${path.relative(process.cwd(), server.logFile)}`,
		);
		void stop();
	});

	const lines = [
		'',
		`  n8n ${runtime.n8nVersion} (Node.js ${runtime.node.version}) with n8n-nodes-payment-gateway is running.`,
		'',
		`  Editor       ${server.url}`,
		`  Login        ${owner.email}  /  ${owner.password}`,
		'',
		`  Sandbox gateway (a local fake of the payment service; no real money moves; test values, not secrets):`,
		`    Base URL        ${sandbox.url}`,
		`    Collection      ${credentials.collection.username}  /  ${credentials.collection.password}`,
		`    Disbursement    ${credentials.disbursement.username}  /  ${credentials.disbursement.password}`,
		`    Signing Secret  ${credentials.signingSecret}`,
		`  Credentials in n8n: "Payment Gateway Collection (sandbox)", "Payment Gateway Disbursement (sandbox)"`,
		...(demo.ledger
			? [
					`  Payout ledger (Maximum Total per Day): Data Table "${demo.ledger.tableName}" (${demo.ledger.dataTableId}),`,
					`    credential "${demo.ledger.credentialName}" (public API ${demo.ledger.apiUrl})`,
				]
			: []),
		...(triggerExample
			? [
					`  Trigger's production webhook URL ("${triggerExample.workflow.name}"):`,
					`    ${triggerWebhookUrl(triggerExample.workflow, server.url)}`,
				]
			: []),
		...(chatExample
			? [
					`  AI agent chat ("${chatExample.workflow.name}", with "${DEMO_MODEL_NAME}": no key needed):`,
					`    ${chatUrl(chatExample.workflow, server.url)}   try "pay 500 to GCash 09171234567", then "yes"`,
				]
			: []),
		'',
		'  Example workflows:',
		...exampleLines(examples, server.url),
		'',
		`  n8n log: ${path.relative(process.cwd(), server.logFile)}`,
		'  Press Ctrl-C to stop.',
		'',
	];
	process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error) => {
	if (stopping()) return; // a Ctrl-C cut the start short; the stop exits
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
