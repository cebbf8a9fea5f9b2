// Disbursement node version 1, as workflows saved before version 2 hold it. The examples show
// version 2, the form a new node gets, so the checks in real n8n keep version-1 workflows of their
// own: the e2e runs one on every tested n8n version, the browser check opens one in the editor.
import type { INodeParameters } from 'n8n-workflow';
import { DEMO_CREDENTIALS } from '../../scripts/n8n/credentials';
import type { WorkflowJson } from '../../scripts/n8n/instance';
import { PACKAGE_NAME } from '../../scripts/n8n/paths';

export const DISBURSEMENT_TYPE = `${PACKAGE_NAME}.disbursement`;

const { disbursement } = DEMO_CREDENTIALS;
export const DISBURSEMENT_CREDENTIALS = {
	disbursementApi: { id: disbursement.id, name: disbursement.name },
};

/**
 * Payout > Create as example 01 stored it in version 1: every field at the top level (Receiver
 * Type too), each mapped with an expression and no Input Mapping stored (manual is version 1's
 * default), the limit in Options as a number. Callback Webhook URL aside.
 */
export const VERSION_1_BANK_TRANSFER: INodeParameters = {
	resource: 'payout',
	operation: 'create',
	channelType: 'bankTransfer',
	channel: 'INSTAPAY',
	amount: '={{ $json.amount }}',
	referenceNo: '={{ $json.payout_id }}',
	bankCode: '={{ $json.bank }}',
	senderFirstName: 'Andrea',
	senderLastName: 'Villanueva',
	receiverAccountName: '={{ $json.name }}',
	receiverAccountNumber: '={{ $json.account_number }}',
	receiverType: 'INDIVIDUAL',
	options: { maxAmountPerPayout: 20000 },
};

/** The e2e's version-1 workflow: its id (at most 16 characters), and the rows it pays and refuses. */
export const VERSION_1_PAYOUTS = {
	id: 'pgwVersion1Pay',
	paid: 'V1-2026-05-001',
	// 25,000: above the Maximum per Payout of 20,000.
	refused: 'V1-2026-05-002',
};

const ROWS = [
	`{ payout_id: '${VERSION_1_PAYOUTS.paid}', name: 'Juan Dela Cruz', bank: 'BDO', account_number: '001234567890', amount: '1,250.00' }`,
	`{ payout_id: '${VERSION_1_PAYOUTS.refused}', name: 'Maria Clara Santos', bank: 'BPI', account_number: '3456789012', amount: 25000 }`,
];

/**
 * Spreadsheet rows -> Check the sheet (Options > Dry Run on) -> the rows again -> Send payout, whose
 * optional fields (Sender Middle Name, Receiver Type CORPORATE) are stored at the top level where
 * version 1 reads them; the refused row leaves through the error output into "Rows to fix".
 */
export function version1PayoutsWorkflow(): WorkflowJson {
	const id = (n: number) => `0d7c1e52-0000-4a11-8000-${String(n).padStart(12, '0')}`;
	const payout = (n: number, name: string, parameters: INodeParameters) => ({
		id: id(n),
		name,
		type: DISBURSEMENT_TYPE,
		typeVersion: 1,
		position: [220 * n, 300] as [number, number],
		parameters,
		credentials: DISBURSEMENT_CREDENTIALS,
	});
	const code = (n: number, name: string, jsCode: string) => ({
		id: id(n),
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220 * n, 300] as [number, number],
		parameters: { jsCode },
	});
	const noOp = (n: number, name: string, y: number) => ({
		id: id(n),
		name,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [1100, y] as [number, number],
		parameters: {},
	});
	const main = (...outputs: string[][]) => ({
		main: outputs.map((nodes) => nodes.map((node) => ({ node, type: 'main' as const, index: 0 }))),
	});
	const rows = `return [\n  ${ROWS.join(',\n  ')},\n].map((row) => ({ json: row }));`;
	return {
		id: VERSION_1_PAYOUTS.id,
		name: 'Payouts with Disbursement node version 1',
		nodes: [
			{
				id: id(0),
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 300],
				parameters: {},
			},
			code(1, 'Spreadsheet rows', rows),
			payout(2, 'Check the sheet', {
				...VERSION_1_BANK_TRANSFER,
				options: { dryRun: true, maxAmountPerPayout: 20000 },
			}),
			code(3, 'Rows again', "return $('Spreadsheet rows').all();"),
			{
				...payout(4, 'Send payout', {
					...VERSION_1_BANK_TRANSFER,
					senderMiddleName: 'Santos',
					receiverType: 'CORPORATE',
				}),
				onError: 'continueErrorOutput' as const,
			},
			noOp(5, 'Payout accepted', 200),
			noOp(6, 'Rows to fix', 420),
		],
		connections: {
			Start: main(['Spreadsheet rows']),
			'Spreadsheet rows': main(['Check the sheet']),
			'Check the sheet': main(['Rows again']),
			'Rows again': main(['Send payout']),
			'Send payout': main(['Payout accepted'], ['Rows to fix']),
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}
