// A node added from the nodes panel to a workflow holding only a Manual Trigger, as a newcomer adds
// it: n8n selects the one sandbox credential by itself, and the lists loaded from the service
// (Collection's Channel, Disbursement's Channel and Bank) fill in without closing and reopening the
// node.
import { test, expect } from './fixtures';
import type { Editor } from './editor';

const LOAD_ERROR = /Error fetching options/;

test.describe.configure({ mode: 'serial' });

let workflowId: string;
test.beforeAll(async ({ demo }) => {
	const created = await demo.rest.expectOk<{ id: string }>('POST', '/workflows', {
		name: 'A node added by hand',
		active: false,
		settings: {},
		connections: {},
		nodes: [
			{
				id: 'c6a1f0d2-5b7e-4c1a-9f3e-000000000057',
				name: 'When clicking "Execute workflow"',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
		],
	});
	workflowId = created.id;
});

/** Adds a node from the nodes panel by its name and action, as a person does; its panel opens. */
async function addNode(editor: Editor, nodeName: string, action: string) {
	await editor.openWorkflow(workflowId);
	await editor.page.click('[data-test-id=node-creator-plus-button]');
	await editor.page.keyboard.type(nodeName);
	await editor.page
		.locator('[data-test-id=node-creator-item-name]', { hasText: nodeName })
		.first()
		.click();
	await editor.page.getByText(action, { exact: true }).first().click();
	await expect(
		editor.page.locator('[data-test-id=ndv] [data-test-id=node-parameters]'),
	).toBeVisible();
}

/** n8n selected this credential by itself, and no other (one credential slot shown). */
async function expectCredential(editor: Editor, name: string) {
	const selects = editor.page.locator('[data-test-id=ndv] [data-test-id=node-credentials-select]');
	await expect(selects, 'one credential slot').toHaveCount(1);
	await expect(selects.locator('input'), 'the sandbox credential selected').toHaveValue(name);
}

/** The list loads with the credential n8n selected: no load error, and its options listed. */
async function expectListLoaded(editor: Editor, parameter: string, expected: string[]) {
	await expect(editor.field(parameter), `${parameter} shows no load error`).not.toContainText(
		LOAD_ERROR,
		{ timeout: 10_000 },
	);
	await editor.listOptions(parameter, (names) =>
		expect(names, `${parameter} options`).toEqual(expect.arrayContaining(expected)),
	);
	await expect(editor.field(parameter), `${parameter} shows no load error`).not.toContainText(
		LOAD_ERROR,
	);
}

test('a Collection node added by hand loads its Channel list with the credential n8n selected', async ({
	editor,
}) => {
	await addNode(editor, 'Payment Gateway Collection', 'Generate a payment link');
	await expectCredential(editor, 'Payment Gateway Collection (sandbox)');
	await expectListLoaded(editor, 'channelCode', ['GCash']);
	await editor.closeNode();
});

test('a Disbursement node added by hand loads its Channel and Bank lists with the credential n8n selected', async ({
	editor,
}) => {
	await addNode(editor, 'Payment Gateway Disbursement', 'Create a payout');
	await expectCredential(editor, 'Payment Gateway Disbursement (sandbox)');
	await expectListLoaded(editor, 'channel', [
		'InstaPay (Bank Transfer)',
		'PESONet (Bank Transfer)',
	]);
	// Bank is a field of its own once the fields are mapped by hand.
	await editor.chooseOption('mappingMode', /^Map Each Field Manually/);
	await expectListLoaded(editor, 'bankCode', []);
	await editor.closeNode();
});
