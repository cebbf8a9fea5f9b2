// `npm run browser-check`: the demo set-up driven in a real Chromium. Signs into the editor, runs
// example 01 then example 07 (Reconcile) and checks the statuses its output shows, opens the
// example workflows' nodes (Disbursement node version 1, as stored workflows hold it), switches
// the payout Channel Type between Bank Transfer and E-Wallet and checks the fields shown, then
// checks the version 2 payout form (scripts/n8n/payoutFormChecks.ts), and writes screenshots to
// docs/images/. Ends with `browser: N passed, M failed`.
//
// Needs /usr/bin/chromium (Debian/Ubuntu: apt-get install -y chromium) and the playwright-core
// devDependency. It always uses its own temporary n8n user folder: n8n saves edits made in the
// editor automatically, so the field switching below must never touch a real or demo workflow.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { startDemoSetup, DEMO_OWNER } from './n8n/demoSetup';
import { launchEditor, chromiumMissing, type Editor } from './n8n/editor';
import { createVersion2Workflow, payoutFormVersion2Checks } from './n8n/payoutFormChecks';
import { freePort, stopOnInterrupt } from './n8n/proc';
import { IMAGES_DIR } from './n8n/paths';
import { createChecks, assert, assertEqual, waitFor, type Check } from './n8n/check';
import { log, seconds } from './n8n/log';

const BANK_TRANSFER_FIELDS = [
	'bankCode',
	'senderFirstName',
	'senderLastName',
	'receiverAccountName',
	'receiverAccountNumber',
];
const E_WALLET_FIELDS = ['mobileNumber'];
// Version 1 shows the optional bank-transfer fields at the top level (version 2 groups them).
const VERSION_1_TOP_LEVEL_FIELDS = ['senderMiddleName', 'receiverType', 'receiverGender'];
// Declared once for both channel types, so switching Channel Type must keep them.
const SHARED_FIELDS = ['channel', 'amount', 'referenceNo', 'callbackWebhookUrl'];
const CALLBACK_NOTICE = /final status of the payout .* will never arrive/;
const NODE_NAMES = [
	'Payment Gateway Collection',
	'Payment Gateway Disbursement',
	'Payment Gateway Trigger',
];
const TRIGGER_PATH = '/webhook/3e285d29-2541-495f-a38e-d7d828065b20/callback'; // examples/03-…json

async function sharedValues(editor: Editor): Promise<Record<string, string>> {
	const values: Record<string, string> = {};
	for (const name of SHARED_FIELDS) values[name] = await editor.valueOf(name);
	return values;
}

async function runChecks(editor: Editor, check: Check): Promise<void> {
	await check('signs into the editor with the demo owner', () => editor.signIn(DEMO_OWNER));

	await check('the node panel finds the three Payment Gateway nodes', async () => {
		await editor.openWorkflow('pgwSheetPayouts', 'workflow-payouts-from-spreadsheet.png');
		const found = await editor.searchNodePanel('Payment Gateway', {
			expect: NODE_NAMES[1],
			screenshot: 'node-panel.png',
		});
		for (const name of NODE_NAMES)
			assert(found.includes(name), `"${name}" not in the node panel: ${found}`);
	});

	// Before the checks below edit the payout workflow (the editor saves edits automatically).
	await check(
		'after a crash, what was paid? (example 07) run in the editor after example 01: paid rows pending, the unsent row not found',
		async () => {
			await editor.openWorkflow('pgwSheetPayouts');
			await editor.executeWorkflow('Payout accepted');
			await editor.openWorkflow('pgwReconcilePaid');
			await editor.executeWorkflow('Write status back');
			await editor.openNode('Write status back');
			const output = await editor.outputPanel().innerText();
			const count = (status: string) => output.split(`\t${status}\t`).length - 1;
			assertEqual(
				{ pending: count('pending'), notFound: count('not found') },
				{ pending: 3, notFound: 1 },
				`statuses in the output: ${output}`,
			);
			await editor.screenshotOutput('reconcile-output.png');
			await editor.closeNode();
		},
	);

	await check(
		'payout create version 1, Bank Transfer: Bank, sender and receiver fields, no Mobile Number',
		async () => {
			await editor.openWorkflow('pgwSheetPayouts');
			await editor.openNode('Send payout');
			await editor.expectFields(
				[...BANK_TRANSFER_FIELDS, ...VERSION_1_TOP_LEVEL_FIELDS],
				[...E_WALLET_FIELDS, 'runMode', 'additionalFields'],
			);
		},
	);

	await check(
		'version 1: the Channel dropdown lists the channels loaded from the service, bank transfers first',
		async () => {
			const names = await editor.listOptions('channel', {
				until: (listed) => listed.includes('InstaPay (Bank Transfer)'),
			});
			assertEqual(
				names.slice(0, 2),
				['InstaPay (Bank Transfer)', 'PESONet (Bank Transfer)'],
				'bank-transfer channels first',
			);
			assert(
				names.includes('GCash (E-Wallet)'),
				`e-wallet channels not listed after them: ${names}`,
			);
		},
	);

	let shared: Record<string, string> = {};
	await check(
		'switching Channel Type to E-Wallet: Mobile Number, no bank fields, the shared fields still filled',
		async () => {
			shared = await sharedValues(editor);
			assert(
				Object.values(shared).every((value) => value !== ''),
				`shared fields not filled to start with: ${JSON.stringify(shared)}`,
			);
			log(`        shared fields before the switch: ${JSON.stringify(shared)}`);
			await editor.chooseOption('channelType', /^E-Wallet/);
			await editor.expectFields(E_WALLET_FIELDS, BANK_TRANSFER_FIELDS);
			assertEqual(await sharedValues(editor), shared, 'shared fields after switching to E-Wallet');
		},
	);

	await check('the Channel dropdown offers the e-wallet channels; pick GCash', async () => {
		const names = await editor.listOptions('channel', {
			until: (listed) => listed.includes('GCash (E-Wallet)'),
		});
		assert(names.includes('Maya (E-Wallet)'), `e-wallet channels not listed: ${names}`);
		await editor.chooseOption('channel', /^GCash \(E-Wallet\)/);
		await editor.fill('mobileNumber', '09171234567');
	});

	await check(
		'switching back to Bank Transfer brings the bank fields back and keeps the shared fields',
		async () => {
			await editor.chooseOption('channelType', /^Bank Transfer/);
			await editor.expectFields(BANK_TRANSFER_FIELDS, E_WALLET_FIELDS);
			const back = await sharedValues(editor);
			assertEqual(
				{ ...back, channel: shared.channel },
				shared,
				'shared fields after switching back',
			);
		},
	);

	await check(
		'an empty Callback Webhook URL shows the notice that the final status will not arrive',
		async () => {
			assert(
				!(await editor.noticeShown(CALLBACK_NOTICE)),
				'notice shown although a callback URL is set',
			);
			await editor.fill('callbackWebhookUrl', '');
			await waitFor(() => editor.noticeShown(CALLBACK_NOTICE), {
				timeoutMs: 5000,
				message: 'no notice for an empty Callback Webhook URL',
			});
			await editor.closeNode();
		},
	);

	await check(
		'AI agent example (08): Prepare free to call, Confirm behind the human review, all on the canvas',
		async () => {
			await editor.openWorkflow('pgwAgentPays', 'workflow-ai-agent-payouts.png');
			for (const name of ['AI Agent', 'Prepare payout', 'Confirm payout', 'Review the payout']) {
				assert((await editor.canvasNodeText(name)).includes(name), `no "${name}" on the canvas`);
			}
		},
	);

	await check('payment link node (Collection > Generate) shows its fields', async () => {
		await editor.openWorkflow('pgwOrderPayLink', 'workflow-order-payment-link.png');
		await editor.openNode('Create payment link');
		await editor.expectFields([
			'channelCode',
			'amount',
			'referenceNo',
			'callbackWebhookUrl',
			'successRedirectUrl',
			'failureRedirectUrl',
		]);
		await editor.screenshotNode('payment-collection-generate.png');
		await editor.closeNode();
	});

	await check('trigger node shows its production URL', async () => {
		await editor.openWorkflow('pgwCallbacksPaid', 'workflow-payment-callbacks.png');
		await editor.openNode('Payment Gateway Trigger');
		await editor.expectFields(['statuses', 'confirmWithService', 'allowedIpAddresses']);
		const urls = await editor.productionWebhookText();
		assert(urls.replace(/\s/g, '').includes(TRIGGER_PATH), `production URL not shown: ${urls}`);
		await editor.screenshotNode('payment-gateway-trigger.png');
	});

	await check('trigger node lets the user choose the Interface', async () => {
		// n8n's editor hides a parameter when every one of its values selects a credential (it takes
		// it for an authentication selector), so this guards that Interface stays editable.
		await editor.expectFields(['interface']);
	});
}

// Ctrl-C stops the n8n processes this started, not only this script.
stopOnInterrupt();

async function main(): Promise<number> {
	const started = Date.now();
	const { check, summary } = createChecks('browser');
	const missing = chromiumMissing();
	if (missing) {
		await check('Chromium is installed', () => {
			throw new Error(missing);
		});
		return summary();
	}
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-browser-'));
	// Payouts stay pending for the whole check, so the reconciled statuses are known.
	const demo = await startDemoSetup({
		userFolder,
		n8nPort: await freePort(5800),
		sandboxPort: 0,
		payoutAutoSettleMs: 10 * 60 * 1000,
	});
	let editor: Editor | undefined;
	try {
		editor = await launchEditor({ baseUrl: demo.server.url, imagesDir: IMAGES_DIR });
		await runChecks(editor, check);
		await payoutFormVersion2Checks(editor, check, await createVersion2Workflow(demo.rest));
	} finally {
		if (editor) await editor.close();
		await demo.stop();
	}
	const failed = summary();
	if (failed) log(`n8n user folder kept for inspection: ${userFolder}`);
	else fs.rmSync(userFolder, { recursive: true, force: true });
	log(
		`browser check finished in ${seconds(started)}; screenshots in ${path.relative(process.cwd(), IMAGES_DIR)}/`,
	);
	return failed;
}

main().then(
	(failed) => process.exit(failed ? 1 : 0),
	(error) => {
		console.error(error instanceof Error ? error.stack : error);
		process.stdout.write('\nbrowser: 0 passed, 1 failed\n');
		process.exit(1);
	},
);
