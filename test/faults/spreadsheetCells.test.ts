/**
 * Cells as spreadsheets and expressions really hold them, in manual and automatic mapping, for both
 * operations that create money: each is either read exactly (and sent as read) or refused with an
 * error naming the row and what to fix. A cell is never read as another amount or another account.
 */
import type { IDataObject } from 'n8n-workflow';

import { bankRow, bankTransferParameters } from '../harness/disbursementRuns';
import {
	MAPPINGS,
	mappedParameters,
	mappedRow,
	moneyOperationsPerFile,
} from '../harness/moneyOperations';

const ops = moneyOperationsPerFile('spreadsheet cells');
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;

const NOT_A_NUMBER = 'Use digits with a dot for decimals, e.g. 1250.50 or 1,250.50';
const ROUND = 'Round it to 2 decimals in the sheet, or in the expression with .toFixed(2)';
const THOUSANDS =
	'Amounts have at most 2 decimals: if the dot separates thousands, write 1000 or 1,000';
/** [cell, the amount sent, or the error (without the row) and its details]. */
const amountCells: Array<[unknown, number | { error: string; details?: string }]> = [
	['1e3', { error: 'Amount "1e3" is not a number', details: NOT_A_NUMBER }],
	['0x10', { error: 'Amount "0x10" is not a number', details: NOT_A_NUMBER }],
	['0b1', { error: 'Amount "0b1" is not a number', details: NOT_A_NUMBER }],
	// A value is quoted as shownText shows it: blanks at either end are not shown.
	[' 20.005', { error: 'Amount "20.005" has more than 2 decimal places', details: THOUSANDS }],
	['20.00 PHP', { error: 'Amount "20.00 PHP" is not a number', details: NOT_A_NUMBER }],
	['PHP 20', 20],
	['₱ 1,000', 1000],
	['２０', { error: 'Amount "２０" is not a number', details: NOT_A_NUMBER }],
	['20,000.5', 20000.5],
	['1.000,50', { error: 'Amount "1.000,50" is not a number', details: NOT_A_NUMBER }],
	['1.000', { error: 'Amount "1.000" has more than 2 decimal places', details: THOUSANDS }],
	['20.000', { error: 'Amount "20.000" has more than 2 decimal places', details: THOUSANDS }],
	['(20)', { error: 'Amount "(20)" is not a number', details: NOT_A_NUMBER }],
	['+20', { error: 'Amount "+20" is not a number', details: NOT_A_NUMBER }],
	['20-', { error: 'Amount "20-" is not a number', details: NOT_A_NUMBER }],
	['١٢', { error: 'Amount "١٢" is not a number', details: NOT_A_NUMBER }],
	['20\u200b', { error: 'Amount "20{U+200B}" is not a number', details: NOT_A_NUMBER }],
	['\u00a020.50\u00a0', 20.5],
	[
		20.000000000000004,
		{ error: 'Amount 20.000000000000004 has more than 2 decimal places', details: ROUND },
	],
	[
		0.1 + 0.2,
		{ error: 'Amount 0.30000000000000004 has more than 2 decimal places', details: ROUND },
	],
	['50000.01', { error: 'Amount 50000.01 is outside the allowed range 0.01 to 50,000' }],
	[
		{ value: 20 },
		{
			error: 'Amount "{{U+0022}value{U+0022}:20}" is not a number',
			details: 'Give an amount such as 1250.50',
		},
	],
	[[20], { error: 'Amount "[20]" is not a number', details: 'Give an amount such as 1250.50' }],
];

describe.each(NAMES.flatMap((name) => MAPPINGS.map((mode) => [name, mode] as const)))(
	'%s, %s mapping: amount cells',
	(name, mode) => {
		test(`${amountCells.length} cells: each sent exactly as read, or refused naming the row`, async () => {
			const op = ops[name];
			const refs = amountCells.map(() => ref('CELL'));
			const result = await op.run(
				mappedParameters(op, mode),
				amountCells.map(([cell], i) => mappedRow(op, mode, refs[i], cell)),
				'continueRegularOutput',
			);
			const seen = result.outputs[0].map(
				(item) => item.json.error ?? item.json[op.noun === 'payout' ? 'amount' : 'subtotal_amount'],
			);
			const expected = amountCells.map(([, outcome], i) =>
				typeof outcome === 'number' ? outcome : `${outcome.error} (row ${i + 1})`,
			);
			expect(seen).toEqual(expected);
			expect(result.outputs[0].map((item) => item.json.errorDetails)).toEqual(
				amountCells.map(([, outcome]) =>
					typeof outcome === 'number' ? undefined : outcome.details,
				),
			);
			const attempts = op.setup.gw.stats().attemptsByReference;
			expect(refs.filter((reference) => attempts[reference])).toEqual(
				refs.filter((_, i) => typeof amountCells[i][1] === 'number'),
			);
		});
	},
);

describe('Payout Create, bank transfer: account number cells', () => {
	const ACCOUNT_HINT =
		'Format the column as text in your spreadsheet, or map it as text, so every digit is kept';
	/** [cell, the account number sent, or the error (without the row)]. */
	const accountCells: Array<[unknown, string | { error: string; details?: string }]> = [
		['0012 3456 7890', '001234567890'],
		['0012-3456-7890', '001234567890'],
		['\u00a0001234567890 ', '001234567890'],
		[1234567890, '1234567890'],
		[
			12345678901234567890,
			{
				error:
					'Receiver Account Number "12345678901234567000" is a number that cannot be kept exactly (more than 15 digits, or decimals)',
				details: ACCOUNT_HINT,
			},
		],
		[
			1234.5,
			{
				error:
					'Receiver Account Number "1234.5" is a number that cannot be kept exactly (more than 15 digits, or decimals)',
				details: ACCOUNT_HINT,
			},
		],
		[
			'0012\u200b34567890',
			{
				error: 'Receiver Account Number "0012{U+200B}34567890" may hold only letters and digits',
				details: 'Spaces and dashes between the digits are left out; remove any other character',
			},
		],
		[
			'１２３４５６',
			{
				error: 'Receiver Account Number "１２３４５６" may hold only letters and digits',
				details: 'Spaces and dashes between the digits are left out; remove any other character',
			},
		],
	];
	const bankAuto = (reference: string, accountNumber: unknown): IDataObject => ({
		reference_no: reference,
		amount: 1500,
		bank_code: 'BDO',
		sender_first_name: 'Maria',
		sender_last_name: 'Santos',
		receiver_account_name: 'Juan Dela Cruz',
		receiver_account_number: accountNumber as string,
	});

	test.each(MAPPINGS)(
		'%s mapping: each sent as the digits it holds, or refused naming the row',
		async (mode) => {
			const op = ops['Payout Create'];
			const refs = accountCells.map(() => ref('ACCT'));
			const parameters =
				mode === 'manual'
					? bankTransferParameters()
					: {
							resource: 'payout',
							operation: 'create',
							channelType: 'bankTransfer',
							channel: 'INSTAPAY',
							mappingMode: 'autoMapInputData',
							options: {},
						};
			const rows = accountCells.map(([cell], i) =>
				mode === 'manual'
					? bankRow(refs[i], { accountNumber: cell as string })
					: bankAuto(refs[i], cell),
			);
			const result = await op.run(parameters, rows, 'continueRegularOutput');
			const seen = result.outputs[0].map((item, i) => {
				if (item.json.error) return { error: item.json.error, details: item.json.errorDetails };
				return ((op.record(refs[i]) as IDataObject).fields as { receiver: IDataObject }).receiver
					.account_number;
			});
			expect(seen).toEqual(
				accountCells.map(([, outcome], i) =>
					typeof outcome === 'string'
						? outcome
						: { error: `${outcome.error} (row ${i + 1})`, details: outcome.details },
				),
			);
		},
	);
});

describe.each(NAMES.flatMap((name) => MAPPINGS.map((mode) => [name, mode] as const)))(
	'%s, %s mapping: reference cells',
	(name, mode) => {
		test('spaces, no-break spaces and a byte-order mark around it are left out; a zero-width character inside is refused', async () => {
			const op = ops[name];
			const refs = [ref('TRIM'), ref('NBSP'), ref('BOM'), ref('ZW')];
			const cells = [
				`  ${refs[0]} `,
				`\u00a0${refs[1]}\u00a0`,
				`\ufeff${refs[2]}`,
				`${refs[3]}\u200b`,
			];
			const result = await op.run(
				mappedParameters(op, mode),
				cells.map((cell) => mappedRow(op, mode, cell, 10)),
				'continueRegularOutput',
			);
			expect(result.outputs[0].map((item) => item.json.error ?? item.json.reference_no)).toEqual([
				refs[0],
				refs[1],
				refs[2],
				`Reference No "${refs[3]}{U+200B}" contains characters other than letters, digits, "-" and "_" (row 4)`,
			]);
			expect(Object.keys(op.setup.gw.stats().attemptsByReference).sort()).toEqual(
				refs.slice(0, 3).sort(),
			);
		});
	},
);

describe.each(NAMES)('%s, automatic mapping: one field under two column names', (name) => {
	test('"Amount" and "amount" that agree are one amount; that disagree, or differ in type, are refused', async () => {
		const op = ops[name];
		const refs = [ref('TWO-COL'), ref('TWO-COL'), ref('TWO-COL')];
		const rows = [
			{ ...mappedRow(op, 'automatic', refs[0], 20), Amount: 20 },
			{ ...mappedRow(op, 'automatic', refs[1], 20), Amount: 30 },
			{ ...mappedRow(op, 'automatic', refs[2], 20), Amount: '20' },
		];
		const result = await op.run(mappedParameters(op, 'automatic'), rows, 'continueRegularOutput');
		expect(result.outputs[0].map((item) => item.json.error ?? item.json.reference_no)).toEqual([
			refs[0],
			'Columns "amount" and "Amount" (Amount) hold different values for the same field (row 2)',
			'Columns "amount" and "Amount" (Amount) hold different values for the same field (row 3)',
		]);
		expect(Object.keys(op.setup.gw.stats().attemptsByReference)).toEqual([refs[0]]);
	});
});

describe.each(NAMES.flatMap((name) => MAPPINGS.map((mode) => [name, mode] as const)))(
	'%s, %s mapping: a channel that is not text',
	(name, mode) => {
		test('an object or a list says so, instead of "is required"; nothing is sent', async () => {
			const op = ops[name];
			const refs = [ref('CH-OBJ'), ref('CH-LIST')];
			const channelColumn =
				mode === 'manual' || op.name === 'Payout Create' ? 'channel' : 'channel_code';
			const rows = [{ code: 'GCASH' }, ['GCASH']].map((cell, i) => ({
				...mappedRow(op, mode, refs[i], 10),
				[channelColumn]: cell,
			}));
			const result = await op.run(
				mappedParameters(op, mode),
				rows as IDataObject[],
				'continueRegularOutput',
			);
			expect(result.outputs[0].map((item) => item.json.error)).toEqual([
				'Channel is an object, not text (row 1)',
				'Channel is a list, not text (row 2)',
			]);
			expect(op.setup.gw.stats().attemptsByReference).toEqual({});
		});
	},
);

describe.each(MAPPINGS)('Payout Create, %s mapping: mobile number cells', (mode) => {
	const MOBILE_HINT = 'Use 09XXXXXXXXX or +639XXXXXXXXX';
	/** [cell, the number sent, or the error (without the row)]. */
	const mobileCells: Array<[unknown, string]> = [
		['+63 917 123 4567', '+639171234567'],
		['09171234567', '09171234567'],
		['0917-123-4567', '09171234567'],
		['\u00a00917 123 4567\u00a0', '09171234567'],
		['9171234567', 'Mobile Number "9171234567" is not a Philippine mobile number'],
		[9171234567, 'Mobile Number "9171234567" is not a Philippine mobile number'],
		['0917ABC4567', 'Mobile Number "0917ABC4567" is not a Philippine mobile number'],
		[
			'０９１７１２３４５６７',
			'Mobile Number "０９１７１２３４５６７" is not a Philippine mobile number',
		],
		['09171234567\u200b', 'Mobile Number "09171234567{U+200B}" is not a Philippine mobile number'],
	];

	test('each sent as the digits it holds, or refused naming the row', async () => {
		const op = ops['Payout Create'];
		const refs = mobileCells.map(() => ref('MOBILE'));
		const column = mode === 'manual' ? 'mobile' : 'mobile_number';
		const rows = mobileCells.map(([cell], i) => ({
			...mappedRow(op, mode, refs[i], 10),
			[column]: cell,
		})) as IDataObject[];
		const result = await op.run(mappedParameters(op, mode), rows, 'continueRegularOutput');
		const seen = result.outputs[0].map((item, i) =>
			item.json.error
				? [item.json.error, item.json.errorDetails]
				: [((op.record(refs[i]) as IDataObject).fields as IDataObject).mobile_number, undefined],
		);
		expect(seen).toEqual(
			mobileCells.map(([, outcome], i) =>
				outcome.startsWith('Mobile')
					? [`${outcome} (row ${i + 1})`, MOBILE_HINT]
					: [outcome, undefined],
			),
		);
	});
});

describe.each(NAMES.flatMap((name) => MAPPINGS.map((mode) => [name, mode] as const)))(
	'%s, %s mapping: placeholder references',
	(name, mode) => {
		test('"-", "__" and spreadsheet errors such as #N/A are a missing value, never a reference; nothing is sent', async () => {
			const op = ops[name];
			const cells = ['-', '__', '#N/A', '#REF!', '#VALUE!', 'n/a'];
			const result = await op.run(
				mappedParameters(op, mode),
				cells.map((cell) => mappedRow(op, mode, cell, 10)),
				'continueRegularOutput',
			);
			expect(result.outputs[0].map((item) => [item.json.error, item.json.errorDetails])).toEqual(
				cells.map((cell, i) => [
					`Reference No "${cell}" is a missing value or a broken formula, not a reference (row ${i + 1})`,
					'Map a stable, unique value from your data, such as an invoice number',
				]),
			);
			expect(op.setup.gw.stats().attemptsByReference).toEqual({});
		});
	},
);
