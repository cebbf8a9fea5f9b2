// The column reads the Disbursement node takes from the item itself (nodes/shared/runner/itemValues.ts:
// a field mapped as `{{ $json.x }}` or `{{ $json["Reference No"] }}`) against n8n's own evaluation,
// in this n8n version with its default expression engine (`n8n execute` starts it as `n8n start`
// does: on 2.41 the isolated-vm engine). One workflow, run headless: a table of
// cells goes through two Payout > Create nodes in Check Only mode, one with the plain reads (taken
// from the item where that is exact) and one with the same reads in brackets, `{{ ($json.x) }}`,
// which n8n evaluates the same way but the node always leaves to n8n. Every output and error must
// be the same, and nothing is sent. test/shared/runner/itemValues.engine.test.ts checks the same table (and values
// a Code node cannot output, such as NaN or a Date) in n8n-core 2.8.1.
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import { DEMO_CREDENTIALS } from '../../../scripts/n8n/credentials';
import { PACKAGE_NAME } from '../../../scripts/n8n/paths';
import { test, expect } from './fixtures';

const WORKFLOW_ID = 'pgwColumnReads';
const DIRECT = 'Plain column reads';
const THROUGH_N8N = 'Reads n8n evaluates';

/** Cells as sheets, APIs and Code nodes give them (undefined: the row lacks the column). */
const CELLS: unknown[] = [
	'GCASH',
	'abc',
	'  09171234567  ',
	'',
	'   ',
	'100',
	'100.50',
	'007',
	'1,000',
	'Numéro 金額',
	'={{ 1 + 1 }}',
	'{{ $json.amount }}',
	100,
	0,
	1500.5,
	-5,
	true,
	false,
	null,
	undefined,
	{ amount: 100 },
	{ a: { b: 'c' } },
	[100, 200],
	[],
];

/** Each payout field read from a column named as spreadsheets name them, and a valid value for it. */
const FIELDS = [
	{ param: 'channel', column: 'channel', read: '$json.channel', valid: 'GCASH' },
	{ param: 'amount', column: '金額', read: '$json["金額"]', valid: 100 },
	{ param: 'referenceNo', column: 'Reference No', read: '$json["Reference No"]', valid: 'CR' },
	{ param: 'callbackWebhookUrl', column: 'call back', read: "$json['call back']", valid: '' },
	{
		param: 'mobileNumber',
		column: 'Numéro mobile',
		read: '$json["Numéro mobile"]',
		valid: '09171234567',
	},
];

/** One row per field and cell: that field's column holds the cell, the others a valid value. */
const ROWS = FIELDS.flatMap((field) =>
	CELLS.map((cell, i) => {
		const row: Record<string, unknown> = Object.fromEntries(
			FIELDS.map((other) => [other.column, other.valid]),
		);
		row['Reference No'] = `CR-${field.param}-${i}`;
		if (cell === undefined) delete row[field.column];
		else row[field.column] = cell;
		return row;
	}),
);

function checkOnlyNode(name: string, y: number, wrap: (read: string) => string) {
	return {
		id: `c01a0000-0000-4000-8000-00000000000${y ? 4 : 3}`,
		name,
		type: `${PACKAGE_NAME}.disbursement`,
		typeVersion: 2,
		position: [440, y] as [number, number],
		onError: 'continueRegularOutput' as const,
		parameters: {
			resource: 'payout',
			operation: 'create',
			runMode: 'dryRun',
			mappingMode: 'defineBelow',
			channelType: 'eWallet',
			...Object.fromEntries(FIELDS.map((field) => [field.param, `={{ ${wrap(field.read)} }}`])),
			options: {},
		},
		credentials: {
			disbursementApi: {
				id: DEMO_CREDENTIALS.disbursement.id,
				name: DEMO_CREDENTIALS.disbursement.name,
			},
		},
	};
}

function columnReadsWorkflow(): WorkflowJson {
	const link = (node: string) => ({ node, type: 'main' as const, index: 0 });
	return {
		id: WORKFLOW_ID,
		name: 'Column reads: the item against n8n',
		nodes: [
			{
				id: 'c01a0000-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'c01a0000-0000-4000-8000-000000000002',
				name: 'Rows',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: `return ${JSON.stringify(ROWS)}.map((json) => ({ json }));` },
			},
			checkOnlyNode(DIRECT, 0, (read) => read),
			checkOnlyNode(THROUGH_N8N, 200, (read) => `(${read})`),
		],
		connections: {
			Start: { main: [[link('Rows')]] },
			Rows: { main: [[link(DIRECT), link(THROUGH_N8N)]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

test(`${CELLS.length} cells in each of ${FIELDS.length} fields read as {{ $json.x }} / {{ $json["Reference No"] }}: the same outputs and errors as n8n's own evaluation, nothing sent`, async ({
	leg,
}) => {
	await leg.importSandboxCredentials();
	await leg.instance.importWorkflows([columnReadsWorkflow()]);
	const before = leg.sandbox.stats();
	const out = await leg.execute(WORKFLOW_ID);
	const direct = out(DIRECT);
	expect(direct, 'one item per row and the summary').toHaveLength(ROWS.length + 1);
	expect(direct, `${DIRECT} against ${THROUGH_N8N}`).toEqual(out(THROUGH_N8N));
	// The table has both: rows Check Only would send (their values shown) and rows it refuses.
	const rows = direct.slice(0, -1);
	expect(
		[true, false].map((sent) => rows.some((item) => item.wouldSend === sent)),
		'rows that would be sent, rows refused',
	).toEqual([true, true]);
	const after = leg.sandbox.stats();
	expect(after.attemptsByReference, 'create requests').toEqual(before.attemptsByReference);
});
