// The browser checks of Payout > Create in Disbursement node version 2, the form new nodes get:
// Mode, Input Mapping set to automatic, the Channel list of the chosen Channel Type, optional
// bank-transfer fields under Additional Fields with Receiver Type and Gender as lists, and the
// notice and canvas subtitle of Check Only (Dry Run). The screenshots of the payout form in
// docs/images/ are taken here.
import type { N8nRest } from './rest';
import type { Editor } from './editor';
import { DEMO_CREDENTIALS } from './credentials';
import { assert, assertEqual, waitFor, type Check } from './check';
import { PACKAGE_NAME } from './paths';

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
const PAY_NOTICE = /^Money moves when this node runs/;
const DRY_RUN_NOTICE = /^Check Only \(Dry Run\): .*nothing is paid/;

/** A workflow holding one Disbursement node of version 2, as the node panel adds it today. */
export async function createVersion2Workflow(rest: N8nRest): Promise<string> {
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

export async function payoutFormVersion2Checks(
	editor: Editor,
	check: Check,
	workflowId: string,
): Promise<void> {
	await check(
		'version 2 payout form: Mode and input columns mapped automatically, no per-row fields',
		async () => {
			await editor.openWorkflow(workflowId);
			await editor.openNode(NODE);
			await editor.expectFields(
				['runMode', 'channelType', 'channel', 'mappingMode'],
				PER_ROW_FIELDS,
			);
			assertEqual(await editor.valueOf('runMode'), 'Pay', 'Mode');
			assertEqual(
				await editor.valueOf('mappingMode'),
				'Map Input Columns Automatically',
				'Input Mapping',
			);
			assert(await editor.noticeShown(PAY_NOTICE), 'no "Money moves" notice in Pay mode');
		},
	);

	await check(
		'version 2, mapped manually: required bank fields at the top, the optional ones under Additional Fields',
		async () => {
			await editor.chooseOption('mappingMode', /^Map Each Field Manually/);
			await editor.expectFields(['amount', 'referenceNo', ...REQUIRED_BANK_FIELDS], GROUPED_FIELDS);
			assert(
				await editor.collectionAdder('Add Field').isVisible(),
				'no Additional Fields with its "Add Field" list',
			);
		},
	);

	await check('version 2: Receiver Type and Gender are lists of their values', async () => {
		await editor.addCollectionOption('Add Field', 'Receiver Type');
		await editor.addCollectionOption('Add Field', 'Receiver Gender');
		await editor.expectFields(['receiverType', 'receiverGender']);
		// Each list is read once it shows its own values: the list opened before may still be closing.
		assertEqual(
			await editor.listOptions('receiverType', { until: (names) => names.includes('Individual') }),
			['Corporate', 'Individual'],
			'Receiver Type choices',
		);
		assertEqual(
			await editor.listOptions('receiverGender', { until: (names) => names.includes('Male') }),
			['Female', 'Male'],
			'Gender choices',
		);
		assertEqual(await editor.valueOf('receiverType'), 'Individual', 'Receiver Type when added');
		// A filled-in form for the picture in the README.
		await editor.chooseOption('channel', /^InstaPay \(Bank Transfer\)/);
		const [bank] = await editor.listOptions('bankCode');
		await editor.chooseOption('bankCode', bank);
		for (const [name, value] of Object.entries(PICTURED_PAYOUT)) await editor.fill(name, value);
		await editor.screenshotNode('disbursement-payout-bank-transfer.png');
	});

	await check('version 2: the Channel list holds only bank-transfer channels', async () => {
		const names = await editor.listOptions('channel', {
			screenshot: 'disbursement-payout-channel-dropdown.png',
			until: (listed) => listed.includes('InstaPay (Bank Transfer)'),
		});
		assertEqual(names, ['InstaPay (Bank Transfer)', 'PESONet (Bank Transfer)'], 'bank channels');
	});

	await check(
		'version 2: with E-Wallet the Channel list holds only e-wallet channels',
		async () => {
			await editor.chooseOption('channelType', /^E-Wallet/);
			await editor.expectFields(['mobileNumber'], REQUIRED_BANK_FIELDS);
			assert(
				!(await editor.collectionAdder('Add Field').isVisible()),
				'Additional Fields shown for E-Wallet',
			);
			const names = await editor.listOptions('channel', {
				until: (listed) => listed.length > 0 && !listed.includes('InstaPay (Bank Transfer)'),
			});
			assertEqual(names, ['GCash (E-Wallet)', 'Maya (E-Wallet)'], 'e-wallet channels');
			await editor.chooseOption('channel', /^GCash \(E-Wallet\)/);
			await editor.fill('mobileNumber', '09171234567');
			await editor.screenshotNode('disbursement-payout-e-wallet.png');
		},
	);

	await check(
		'version 2: Mode Check Only (Dry Run) changes the notice and the canvas subtitle',
		async () => {
			await editor.chooseOption('runMode', /^Check Only \(Dry Run\)/);
			await waitFor(() => editor.noticeShown(DRY_RUN_NOTICE), {
				timeoutMs: 5000,
				message: 'no Check Only notice',
			});
			assert(!(await editor.noticeShown(PAY_NOTICE)), '"Money moves" notice still shown');
			await editor.closeNode();
			await waitFor(
				async () => (await editor.canvasNodeText(NODE)).includes('create (dry run): payout'),
				{ timeoutMs: 5000, message: 'the canvas does not show "create (dry run): payout"' },
			);
		},
	);
}
