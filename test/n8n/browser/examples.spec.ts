// The example workflows in the editor: signing in, the node panel, example 01 then example 07
// (Reconcile) run from the canvas, example 08's canvas, the payment link and trigger nodes; with
// screenshots for docs/images/. The payout form checks edit workflows of their own, never an
// example (the editor saves edits automatically).
import { test, expect } from './fixtures';
import { signIn } from './editor';
import { DEMO_OWNER } from '../../../scripts/n8n/demoSetup';

const NODE_NAMES = [
	'Payment Gateway Collection',
	'Payment Gateway Disbursement',
	'Payment Gateway Trigger',
];
const TRIGGER_PATH = '/webhook/3e285d29-2541-495f-a38e-d7d828065b20/callback'; // examples/03-…json

test.describe.configure({ mode: 'serial' });

test('signs into the editor with the demo owner', async ({ page, demo }) => {
	await signIn(page, demo.server.url, DEMO_OWNER);
});

test('the node panel finds the three Payment Gateway nodes', async ({ editor }) => {
	await editor.openWorkflow('pgwSheetPayouts', 'workflow-payouts-from-spreadsheet.png');
	await editor.searchNodePanel('Payment Gateway', NODE_NAMES, 'node-panel.png');
});

// The words of the nodes' codex files (nodes/<Node>/<Node>.node.json), as the packed package has them.
const SEARCHES: Array<[string, string[]]> = [
	['GCash', ['Payment Gateway Collection', 'Payment Gateway Disbursement']],
	['PayMaya', ['Payment Gateway Collection', 'Payment Gateway Disbursement']],
	['payout', ['Payment Gateway Disbursement']],
	['disbursement', ['Payment Gateway Disbursement']],
	['PESONet', ['Payment Gateway Disbursement']],
	['payment link', ['Payment Gateway Collection']],
];
test('the node panel finds the nodes by what a user in the Philippines types', async ({
	editor,
}) => {
	await editor.openWorkflow('pgwSheetPayouts');
	for (const [text, names] of SEARCHES) await editor.searchNodePanel(text, names);
});

test('example 01 pays on the form a new node gets (version 3): Mode, Channel Type, the columns mapped below', async ({
	editor,
}) => {
	await editor.openWorkflow('pgwSheetPayouts');
	await editor.openNode('Send payout');
	await editor.expectFields([
		'runMode',
		'channelType',
		'channel',
		'mappingMode',
		'receiverAccountNumber',
	]);
	expect(await editor.valueOf('runMode'), 'Mode').toBe('Pay');
	await editor.screenshotNode('example-01-payout-form.png');
	await editor.closeNode();
});

test('after a crash, what was paid? (example 07) run in the editor after example 01: paid rows pending, the unsent row not found', async ({
	editor,
}) => {
	await editor.openWorkflow('pgwSheetPayouts');
	await editor.executeWorkflow('Payout accepted');
	// Example 01's payouts as the Send payout node shows them: nothing drawn as empty.
	await editor.openNode('Send payout');
	await expect
		.poll(() => editor.outputPanel.innerText(), { message: 'Send payout counts its items' })
		.toMatch(/3 items/);
	expect(await editor.emptyOutputValues(), 'values drawn as empty').toEqual([]);
	await editor.screenshotOutput('example-01-output.png');
	await editor.closeNode();
	await editor.openWorkflow('pgwReconcilePaid');
	await editor.executeWorkflow('Write status back');
	await editor.openNode('Write status back');
	// The panel counts the items before its table shows them.
	await expect(async () => {
		const output = await editor.outputPanel.innerText();
		const count = (status: string) => output.split(`\t${status}\t`).length - 1;
		expect(
			{ pending: count('pending'), notFound: count('not found') },
			`statuses in the output: ${output}`,
		).toEqual({ pending: 3, notFound: 1 });
	}).toPass({ timeout: 20_000 });
	await editor.screenshotOutput('reconcile-output.png');
	await editor.closeNode();
	// Reconcile itself: the rows on its Rows output, the summary alone on its Summary output.
	await editor.openNode('What was paid?');
	await expect(async () => {
		const rows = await editor.outputPanel.innerText();
		expect(rows, `the Rows output: ${rows}`).toMatch(/4 items/);
		expect(rows, 'no summary among the rows').not.toMatch(/byStatus/);
	}).toPass({ timeout: 20_000 });
	// n8n names each output's tab after it: "Rows Branch (4 items)", "Summary Branch (1 item)", "Error Branch".
	await expect(
		editor.outputPanel.getByRole('tab', { name: /^Rows Branch \(4 items\)/ }),
		'the Rows output',
	).toBeVisible();
	await editor.outputPanel.getByRole('tab', { name: /^Summary Branch \(1 item\)/ }).click();
	await expect(async () => {
		const summary = await editor.outputPanel.innerText();
		expect(summary, 'the summary').toMatch(/byStatus[\s\S]*notFound/);
	}).toPass({ timeout: 20_000 });
	await editor.screenshotOutput('reconcile-summary-output.png');
	await editor.closeNode();
});

test('AI agent example (08): Prepare free to call, Confirm behind the human review, all on the canvas', async ({
	editor,
}) => {
	await editor.openWorkflow('pgwAgentPays', 'workflow-ai-agent-payouts.png');
	for (const name of ['AI Agent', 'Prepare payout', 'Confirm payout', 'Review the payout'])
		await expect(editor.canvasNode(name), `"${name}" on the canvas`).toContainText(name);
});

test('payment link node (Collection > Generate) shows its fields', async ({ editor }) => {
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

test('trigger node shows its production URL', async ({ editor }) => {
	await editor.openWorkflow('pgwCallbacksPaid', 'workflow-payment-callbacks.png');
	await editor.openNode('Payment Gateway Trigger');
	await editor.expectFields(['statuses', 'confirmWithService', 'allowedIpAddresses']);
	const webhooks = await editor.productionWebhooks();
	await expect
		.poll(async () => (await webhooks.innerText()).replace(/\s/g, ''), {
			message: 'the production URL shown under Webhook URLs',
		})
		.toContain(TRIGGER_PATH);
	await editor.screenshotNode('payment-gateway-trigger.png');
});

test('trigger node lets the user choose the Interface', async ({ editor }) => {
	// n8n's editor hides a parameter when every one of its values selects a credential (it takes
	// it for an authentication selector), so this guards that Interface stays editable.
	await editor.expectFields(['interface']);
});
