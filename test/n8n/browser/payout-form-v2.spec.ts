// Payout > Create in Disbursement node version 2, the form new nodes get: Mode, Input Mapping set to
// automatic, the Channel list of the chosen Channel Type, optional bank-transfer fields under
// Additional Fields with Receiver Type and Gender as lists, and the notice and canvas subtitle of
// Check Only (Dry Run). The screenshots of the payout form in docs/images/ are taken here.
import { test, expect } from './fixtures';
import type { N8nRest } from '../../../scripts/n8n/rest';
import { DEMO_CREDENTIALS } from '../../../scripts/n8n/credentials';
import { PACKAGE_NAME } from '../../../scripts/n8n/paths';

const NODE = 'Pay suppliers';
const REQUIRED_BANK_FIELDS = [
	'bankCode',
	'senderFirstName',
	'senderLastName',
	'receiverAccountName',
	'receiverAccountNumber',
];
// Optional bank-transfer fields version 1 shows at the top level; version 2 under Additional Fields.
const GROUPED_FIELDS = ['senderMiddleName', 'receiverType', 'receiverEmail', 'receiverGender'];
const PER_ROW_FIELDS = ['amount', 'referenceNo', ...REQUIRED_BANK_FIELDS];
const PICTURED_PAYOUT = {
	amount: '1250.50',
	referenceNo: 'PAYOUT-2026-0001',
	senderFirstName: 'Andrea',
	senderLastName: 'Villanueva',
	receiverAccountName: 'Juan Dela Cruz',
	receiverAccountNumber: '001234567890',
};
const PAY_NOTICE = /Money moves when this node runs/;
const DRY_RUN_NOTICE = /Check Only \(Dry Run\): .*nothing is paid/;

/** A workflow holding one Disbursement node of version 2, as the node panel adds it today. */
async function createVersion2Workflow(rest: N8nRest): Promise<string> {
	const { disbursement } = DEMO_CREDENTIALS;
	const created = await rest.expectOk<{ id: string }>('POST', '/workflows', {
		name: 'Payout form (node version 2)',
		active: false,
		settings: {},
		connections: {},
		nodes: [
			{
				id: 'b3f0d5c8-6a44-4a4b-9c55-2a1f00000002',
				name: NODE,
				type: `${PACKAGE_NAME}.disbursement`,
				typeVersion: 2,
				position: [0, 0],
				parameters: { resource: 'payout', operation: 'create' },
				credentials: { disbursementApi: { id: disbursement.id, name: disbursement.name } },
			},
		],
	});
	return created.id;
}

test.describe.configure({ mode: 'serial' });

let workflowId: string;
test.beforeAll(async ({ demo }) => {
	workflowId = await createVersion2Workflow(demo.rest);
});

test('version 2 payout form: Mode and input columns mapped automatically, no per-row fields', async ({
	editor,
}) => {
	await editor.openWorkflow(workflowId);
	await editor.openNode(NODE);
	await editor.expectFields(['runMode', 'channelType', 'channel', 'mappingMode'], PER_ROW_FIELDS);
	expect(await editor.valueOf('runMode'), 'Mode').toBe('Pay');
	expect(await editor.valueOf('mappingMode'), 'Input Mapping').toBe(
		'Map Input Columns Automatically',
	);
	await expect(editor.notice(PAY_NOTICE), '"Money moves" notice in Pay mode').toBeVisible();
});

test('version 2, mapped manually: required bank fields at the top, the optional ones under Additional Fields', async ({
	editor,
}) => {
	await editor.chooseOption('mappingMode', /^Map Each Field Manually/);
	await editor.expectFields(PER_ROW_FIELDS, GROUPED_FIELDS);
	await expect(
		editor.collectionAdder('Add Field'),
		'Additional Fields with its "Add Field" list',
	).toBeVisible();
});

test('version 2: Receiver Type and Gender are lists of their values', async ({ editor }) => {
	await editor.addCollectionOption('Add Field', 'Receiver Type');
	await editor.addCollectionOption('Add Field', 'Receiver Gender');
	await editor.expectFields(['receiverType', 'receiverGender']);
	// Each list is read once it shows its own values: the list opened before may still be closing.
	await editor.listOptions('receiverType', (names) =>
		expect(names, 'Receiver Type choices').toEqual(['Corporate', 'Individual']),
	);
	await editor.listOptions('receiverGender', (names) =>
		expect(names, 'Gender choices').toEqual(['Female', 'Male']),
	);
	expect(await editor.valueOf('receiverType'), 'Receiver Type when added').toBe('Individual');
	// A filled-in form for the picture in the README.
	await editor.chooseOption('channel', /^InstaPay \(Bank Transfer\)/);
	const [bank] = await editor.listOptions('bankCode');
	await editor.chooseOption('bankCode', bank);
	for (const [name, value] of Object.entries(PICTURED_PAYOUT)) await editor.fill(name, value);
	await editor.screenshotNode('disbursement-payout-bank-transfer.png');
});

test('version 2: the Channel list holds only bank-transfer channels', async ({ editor }) => {
	await editor.listOptions(
		'channel',
		(names) =>
			expect(names, 'bank channels').toEqual([
				'InstaPay (Bank Transfer)',
				'PESONet (Bank Transfer)',
			]),
		'disbursement-payout-channel-dropdown.png',
	);
});

test('version 2: with E-Wallet the Channel list holds only e-wallet channels', async ({
	editor,
}) => {
	await editor.chooseOption('channelType', /^E-Wallet/);
	await editor.expectFields(['mobileNumber'], REQUIRED_BANK_FIELDS);
	await expect(
		editor.collectionAdder('Add Field'),
		'Additional Fields shown for E-Wallet',
	).toBeHidden();
	await editor.listOptions('channel', (names) =>
		expect(names, 'e-wallet channels').toEqual(['GCash (E-Wallet)', 'Maya (E-Wallet)']),
	);
	await editor.chooseOption('channel', /^GCash \(E-Wallet\)/);
	await editor.fill('mobileNumber', '09171234567');
	await editor.screenshotNode('disbursement-payout-e-wallet.png');
});

test('version 2: Mode Check Only (Dry Run) changes the notice and the canvas subtitle', async ({
	editor,
}) => {
	await editor.chooseOption('runMode', /^Check Only \(Dry Run\)/);
	await expect(editor.notice(DRY_RUN_NOTICE), 'Check Only notice').toBeVisible({ timeout: 5000 });
	await expect(editor.notice(PAY_NOTICE), '"Money moves" notice gone').toBeHidden();
	await editor.closeNode();
	await expect(editor.canvasNode(NODE), 'the canvas subtitle').toContainText(
		'create (dry run): payout',
	);
});
