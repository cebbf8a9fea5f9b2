// Payout > Create in Disbursement node version 1, as workflows saved before version 2 hold it (the
// examples hold version 2): the fields of each Channel Type, the Channel lists loaded from the
// service, switching Channel Type back and forth, and the notice for an empty Callback Webhook URL.
// The node is example 01's Send payout as it was in version 1, in a workflow of its own.
import { test, expect } from './fixtures';
import type { Editor } from './editor';
import type { N8nRest } from '../../../scripts/n8n/rest';
import { DEFAULT_N8N_URL } from '../../../scripts/n8n/examples';
import {
	DISBURSEMENT_CREDENTIALS,
	DISBURSEMENT_TYPE,
	VERSION_1_BANK_TRANSFER,
} from '../version1Payouts';

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
const CALLBACK_NOTICE =
	/final status of the payout .* no callback will arrive.*Wait for Final Status/;
const NODE = 'Send payout';

/** A workflow holding example 01's Send payout as version 1 stored it, callback URL included. */
async function createVersion1Workflow(rest: N8nRest): Promise<string> {
	const created = await rest.expectOk<{ id: string }>('POST', '/workflows', {
		name: 'Payout form (node version 1)',
		active: false,
		settings: {},
		connections: {},
		nodes: [
			{
				id: 'b3f0d5c8-6a44-4a4b-9c55-2a1f00000001',
				name: NODE,
				type: DISBURSEMENT_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					...VERSION_1_BANK_TRANSFER,
					callbackWebhookUrl: `${DEFAULT_N8N_URL}/webhook/3e285d29-2541-495f-a38e-d7d828065b20/callback`,
				},
				credentials: DISBURSEMENT_CREDENTIALS,
			},
		],
	});
	return created.id;
}

async function sharedValues(editor: Editor): Promise<Record<string, string>> {
	const values: Record<string, string> = {};
	for (const name of SHARED_FIELDS) values[name] = await editor.valueOf(name);
	return values;
}

test.describe.configure({ mode: 'serial' });

let workflowId: string;
test.beforeAll(async ({ demo }) => {
	workflowId = await createVersion1Workflow(demo.rest);
});

let shared: Record<string, string> = {};

test('payout create version 1, Bank Transfer: Bank, sender and receiver fields, no Mobile Number', async ({
	editor,
}) => {
	await editor.openWorkflow(workflowId);
	await editor.openNode(NODE);
	await editor.expectFields(
		[...BANK_TRANSFER_FIELDS, ...VERSION_1_TOP_LEVEL_FIELDS],
		[...E_WALLET_FIELDS, 'runMode', 'additionalFields'],
	);
});

test('version 1: the Channel dropdown lists the channels loaded from the service, bank transfers first', async ({
	editor,
}) => {
	await editor.listOptions('channel', (names) => {
		expect(names.slice(0, 2), 'bank-transfer channels first').toEqual([
			'InstaPay (Bank Transfer)',
			'PESONet (Bank Transfer)',
		]);
		expect(names, 'e-wallet channels listed after them').toContain('GCash (E-Wallet)');
	});
});

test('switching Channel Type to E-Wallet: Mobile Number, no bank fields, the shared fields still filled', async ({
	editor,
}) => {
	shared = await sharedValues(editor);
	expect(Object.values(shared), 'shared fields filled to start with').not.toContain('');
	console.log(`shared fields before the switch: ${JSON.stringify(shared)}`);
	await editor.chooseOption('channelType', /^E-Wallet/);
	await editor.expectFields(E_WALLET_FIELDS, BANK_TRANSFER_FIELDS);
	await expect
		.poll(() => sharedValues(editor), { message: 'shared fields after switching to E-Wallet' })
		.toEqual(shared);
});

test('the Channel dropdown offers the e-wallet channels; pick GCash', async ({ editor }) => {
	await editor.listOptions('channel', (names) => {
		expect(names, 'e-wallet channels listed').toEqual(
			expect.arrayContaining(['GCash (E-Wallet)', 'Maya (E-Wallet)']),
		);
	});
	await editor.chooseOption('channel', /^GCash \(E-Wallet\)/);
	await editor.fill('mobileNumber', '09171234567');
});

test('switching back to Bank Transfer brings the bank fields back and keeps the shared fields', async ({
	editor,
}) => {
	await editor.chooseOption('channelType', /^Bank Transfer/);
	await editor.expectFields(BANK_TRANSFER_FIELDS, E_WALLET_FIELDS);
	await expect
		.poll(async () => ({ ...(await sharedValues(editor)), channel: shared.channel }), {
			message: 'shared fields after switching back',
		})
		.toEqual(shared);
});

test('an empty Callback Webhook URL shows the notice that the final status will not arrive', async ({
	editor,
}) => {
	await expect(
		editor.notice(CALLBACK_NOTICE),
		'notice shown although a callback URL is set',
	).toBeHidden();
	await editor.fill('callbackWebhookUrl', '');
	await expect(
		editor.notice(CALLBACK_NOTICE),
		'notice for an empty Callback Webhook URL',
	).toBeVisible({ timeout: 5000 });
	await editor.closeNode();
});
