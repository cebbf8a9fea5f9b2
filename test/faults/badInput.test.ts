/**
 * Bad input from spreadsheets: amounts, references, URLs, phone numbers and missing nested fields,
 * as cells arrive through expressions. Every bad row becomes one clear error item naming the field,
 * the value and the item, and sends nothing: the only requests the service sees are the valid
 * rows' creates.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	bankRow,
	bankTransferParameters,
	run as runDisbursement,
	type Setup as DisbursementSetup,
} from '../harness/disbursementRuns';
import {
	collectionOperation,
	createdItem,
	payoutOperation,
	reportSecretScan,
	type MoneyOperation,
} from '../harness/moneyOperations';

/** [what the cell holds, the row's columns, the error (without "(item n)") and its details, or VALID]. */
type Case = [string, IDataObject, string, string?];
const VALID = 'VALID';

const NOT_A_NUMBER = 'Use digits with a dot for decimals, e.g. 1250.50 or 1,250.50';
const GIVE_AMOUNT = 'Give an amount such as 1250.50';
const ROUND = 'Round it to 2 decimals in the sheet, or in the expression with .toFixed(2)';
const MAP_REFERENCE = 'Map a stable, unique value from your data, such as an invoice number';
const REFERENCE_CHARACTERS = 'Characters such as "#", ":" and spaces break the hosted payment page';
const FULL_URL = 'Use a full address such as https://example.com/path';
const MOBILE_FORMATS = 'Use 09XXXXXXXXX or +639XXXXXXXXX';
const outside = (shown: string) => `Amount ${shown} is outside the allowed range 0.01 to 50,000`;
const badReference = (ref: string) =>
	`Reference No "${ref}" contains characters other than letters, digits, "-" and "_"`;

const amounts: Case[] = [
	['amount: empty text', { amount: '' }, 'Amount is empty', GIVE_AMOUNT],
	['amount: "abc"', { amount: 'abc' }, 'Amount "abc" is not a number', NOT_A_NUMBER],
	['amount: "1,000.50" (thousands separator, valid)', { amount: '1,000.50' }, VALID],
	[
		'amount: "1.000,50" (comma as decimal mark)',
		{ amount: '1.000,50' },
		'Amount "1.000,50" is not a number',
		NOT_A_NUMBER,
	],
	['amount: "1,00"', { amount: '1,00' }, 'Amount "1,00" is not a number', NOT_A_NUMBER],
	['amount: -1', { amount: -1 }, outside('-1')],
	['amount: 0', { amount: 0 }, outside('0')],
	['amount: 0.001', { amount: 0.001 }, outside('0.001')],
	['amount: 50000.01', { amount: 50000.01 }, outside('50000.01')],
	['amount: 1e308', { amount: 1e308 }, outside('1e+308')],
	[
		'amount: 10.005 (three decimals)',
		{ amount: 10.005 },
		'Amount 10.005 has more than 2 decimal places',
		ROUND,
	],
	['amount: NaN', { amount: NaN }, 'Amount "NaN" is not a finite number'],
	['amount: Infinity', { amount: Infinity }, 'Amount "Infinity" is not a finite number'],
	['amount: null (empty cell)', { amount: null }, 'Amount is empty', GIVE_AMOUNT],
	['amount: missing column', { amount: undefined }, 'Amount is empty', GIVE_AMOUNT],
];

const references: Case[] = [
	['reference: empty', { ref: '' }, 'Reference No is empty', MAP_REFERENCE],
	['reference: only spaces', { ref: '   ' }, 'Reference No is empty', MAP_REFERENCE],
	['reference: null', { ref: null }, 'Reference No is empty', MAP_REFERENCE],
	[
		'reference: 65 characters',
		{ ref: 'R'.repeat(65) },
		'Reference No is longer than 64 characters',
	],
	['reference: 64 characters (valid)', { ref: 'S'.repeat(64) }, VALID],
	['reference: "#"', { ref: 'INV#1' }, badReference('INV#1'), REFERENCE_CHARACTERS],
	['reference: ":"', { ref: 'INV:1' }, badReference('INV:1'), REFERENCE_CHARACTERS],
	['reference: a space inside', { ref: 'INV 1' }, badReference('INV 1'), REFERENCE_CHARACTERS],
	['reference: "/" and dots', { ref: '../1' }, badReference('../1'), REFERENCE_CHARACTERS],
	['reference: accented letter', { ref: 'INV-Ñ1' }, badReference('INV-Ñ1'), REFERENCE_CHARACTERS],
	['reference: CJK', { ref: '請求-1' }, badReference('請求-1'), REFERENCE_CHARACTERS],
	['reference: emoji', { ref: 'INV-💸' }, badReference('INV-💸'), REFERENCE_CHARACTERS],
	[
		'reference: NaN from a formula',
		{ ref: NaN },
		'Reference No "NaN" is not a usable reference',
		MAP_REFERENCE,
	],
	// Spreadsheets turn long digit strings into floats: 2^53 + 1 already arrives as 2^53.
	[
		'reference: a 19-digit number cell',
		{ ref: 1234567890123456789 },
		'Reference No "1234567890123456800" is a number that cannot be kept exactly (more than 15 digits, or decimals)',
		'Format the column as text in your spreadsheet, or map it as text, so every digit is kept',
	],
	[
		'reference: 2^53 + 1 typed as a number',
		{ ref: 9007199254740993 },
		'Reference No "9007199254740992" is a number that cannot be kept exactly (more than 15 digits, or decimals)',
		'Format the column as text in your spreadsheet, or map it as text, so every digit is kept',
	],
	['reference: a 15-digit number cell (valid)', { ref: 123456789012345 }, VALID],
	...['NaN', 'undefined', 'null', '[object Object]', 'Infinity'].map(
		(text): Case => [
			`reference: the text "${text}"`,
			{ ref: text },
			`Reference No "${text}" is a missing value or a broken formula, not a reference`,
			MAP_REFERENCE,
		],
	),
	[
		'reference: an object cell',
		{ ref: { id: 1 } },
		'Reference No is an object, not text',
		MAP_REFERENCE,
	],
];

const urls: Case[] = [
	[
		'callback URL: not a URL',
		{ callback: 'not a url' },
		'Callback Webhook URL "not a url" is not a valid URL',
		FULL_URL,
	],
	[
		'callback URL: no scheme',
		{ callback: 'example.com/hook' },
		'Callback Webhook URL "example.com/hook" is not a valid URL',
		FULL_URL,
	],
	[
		'callback URL: ftp',
		{ callback: 'ftp://example.com/hook' },
		'Callback Webhook URL must start with https:// or http://',
	],
	[
		'callback URL: javascript:',
		{ callback: 'javascript:alert(1)' },
		'Callback Webhook URL must start with https:// or http://',
	],
	[
		'callback URL: no host',
		{ callback: 'http://' },
		'Callback Webhook URL "http://" is not a valid URL',
		FULL_URL,
	],
	[
		'callback URL: a space in the host',
		{ callback: 'https://exa mple.com/x' },
		'Callback Webhook URL "https://exa mple.com/x" is not a valid URL',
		FULL_URL,
	],
];

const badMobile = (shown: string) => `Mobile Number "${shown}" is not a Philippine mobile number`;
const mobiles: Case[] = [
	['mobile: too short', { mobile: '12345' }, badMobile('12345'), MOBILE_FORMATS],
	['mobile: 10 digits', { mobile: '0917123456' }, badMobile('0917123456'), MOBILE_FORMATS],
	[
		'mobile: a number cell that lost its leading 0',
		{ mobile: 9171234567 },
		badMobile('9171234567'),
		MOBILE_FORMATS,
	],
	[
		'mobile: a US number',
		{ mobile: '+1 415 555 0100' },
		badMobile('+1 415 555 0100'),
		MOBILE_FORMATS,
	],
	[
		'mobile: a trailing letter',
		{ mobile: '09171234567x' },
		badMobile('09171234567x'),
		MOBILE_FORMATS,
	],
];

const perOperation: Record<MoneyOperation['name'], Case[]> = {
	Generate: [
		['channel: empty', { channel: '' }, 'Channel is required'],
		[
			'customer email: not an address',
			{ email: 'juan.example.com' },
			'Email "juan.example.com" is not an email address',
		],
		[
			'extra body fields: broken JSON',
			{ extra: '{"email": ' },
			'Extra Body Fields is not valid JSON',
		],
		[
			'extra body fields: a list',
			{ extra: '[1, 2]' },
			'Extra Body Fields must be a JSON object, e.g. {"email": "a@b.ph"}',
		],
		[
			'extra body fields: trying to set the amount',
			{ extra: '{"amount": 1, "note": "x"}' },
			'Extra Body Fields cannot set amount',
			"Use the node's own fields for the channel, amount, reference and URLs",
		],
	],
	'Payout Create': [
		['channel: empty', { channel: '' }, 'Channel is required'],
		['mobile: empty (required for e-wallets)', { mobile: '' }, 'Mobile Number is required'],
		['mobile: missing column', { mobile: undefined }, 'Mobile Number is required'],
		[
			'several bad cells in one row: all named at once',
			{ amount: 'x', ref: 'A B', mobile: '123' },
			`3 fields to fix: Amount "x" is not a number; ${badReference('A B')}; ${badMobile('123')}`,
			`- Amount "x" is not a number (${NOT_A_NUMBER})\n- ${badReference('A B')} (${REFERENCE_CHARACTERS})\n- ${badMobile('123')} (${MOBILE_FORMATS})`,
		],
	],
};

let ops: MoneyOperation[];
beforeAll(async () => {
	ops = [await collectionOperation(), await payoutOperation()];
	for (const op of ops)
		expect((await op.run(op.parameters(), [op.row(`WARM-${op.noun}`, 1)])).error).toBeUndefined();
});
afterAll(async () => {
	reportSecretScan(
		'bad input',
		ops.map((op) => op.setup.store),
	);
	await Promise.all(ops.map(async (op) => await op.setup.gw.close()));
});

/** jest's own equality (toEqual), as a yes or no. */
function sameAs(actual: unknown, expected: unknown): boolean {
	try {
		expect(actual).toEqual(expected);
		return true;
	} catch {
		return false;
	}
}

/** Every case as one row of one run; returns the expected items and the valid rows' references. */
function expectations(
	op: MoneyOperation,
	cases: Case[],
	items: IDataObject[],
): INodeExecutionData[] {
	return cases.map(([, , message, details], i) => {
		if (message === VALID) return createdItem(op, String(items[i].ref).trim(), i);
		const error = `${message} (row ${i + 1})`;
		return {
			json: { error, itemIndex: i, ...(details ? { errorDetails: details } : {}) },
			pairedItem: { item: i },
		};
	});
}

describe.each(['Generate', 'Payout Create'] as const)('%s', (name) => {
	const cases = [...amounts, ...references, ...urls, ...mobiles, ...perOperation[name]];

	test(`${cases.length} spreadsheet rows: one clear error per bad row, and no request for any of them`, async () => {
		const op = ops.find((candidate) => candidate.name === name)!;
		const gw = op.setup.gw;
		gw.resetStats();
		const items = cases.map(([, columns], i) => ({ ...op.row(`BAD-${i}`, 100), ...columns }));
		// Generate also maps its optional customer fields and Extra Body Fields from the row.
		const parameters =
			name === 'Generate'
				? op.parameters(
						{ extraBodyFields: '={{ $json.extra ?? "{}" }}' },
						{
							customerFields: {
								mobileNumber: '={{ $json.mobile ?? "" }}',
								email: '={{ $json.email ?? "" }}',
							},
						},
					)
				: op.parameters();

		const result = await op.run(parameters, items, 'continueRegularOutput');

		expect(result.error).toBeUndefined();
		const expected = expectations(op, cases, items);
		// Every differing row at once, named by its case.
		const differing = cases.flatMap(([label], i) =>
			sameAs(result.outputs[0]?.[i], expected[i])
				? []
				: [{ label, got: result.outputs[0]?.[i], expected: expected[i] }],
		);
		expect(differing).toEqual([]);
		expect(result.outputs).toEqual([expected]);

		// Only the valid rows reached the service, each with one create and nothing else.
		const validRefs = cases.flatMap(([, , message], i) =>
			message === VALID ? [String(items[i].ref)] : [],
		);
		expect(validRefs).toHaveLength(3);
		const stats = gw.stats();
		expect(stats.requestsByPath).toEqual({ [`POST ${op.createPath}`]: validRefs.length });
		expect(Object.keys(stats.attemptsByReference).sort()).toEqual([...validRefs].sort());
		expect(Object.keys(stats.creationsByReference).sort()).toEqual([...validRefs].sort());
	});
});

describe('Payout Create, bank transfer: missing or malformed nested fields', () => {
	const cases: Array<[string, IDataObject, string, string?]> = [
		[
			'sender first name and receiver account number missing',
			{ senderFirst: undefined, accountNumber: undefined },
			'2 fields to fix: Sender First Name is required; Receiver Account Number is required (row 1)',
			'- Sender First Name is required\n- Receiver Account Number is required',
		],
		['bank empty', { bank: '' }, 'Bank is required (row 2)'],
		[
			'account number as an object',
			{ accountNumber: { value: '0012' } },
			'Receiver Account Number must be text, not object (row 3)',
		],
		[
			'account number as a list',
			{ accountNumber: ['0012'] },
			'Receiver Account Number must be text, not a list (row 4)',
		],
		[
			'blank sender last name, null account name and a bad amount',
			{ senderLast: '  ', accountName: null, amount: 'x' },
			'3 fields to fix: Amount "x" is not a number; Sender Last Name is required; Receiver Account Name is required (row 5)',
			`- Amount "x" is not a number (${NOT_A_NUMBER})\n- Sender Last Name is required\n- Receiver Account Name is required`,
		],
		[
			'optional receiver mobile and email malformed',
			{ receiverMobile: '123', receiverEmail: 'nope' },
			'2 fields to fix: Receiver Mobile Number "123" is not a Philippine mobile number; Receiver Email "nope" is not an email address (row 6)',
			`- Receiver Mobile Number "123" is not a Philippine mobile number (${MOBILE_FORMATS})\n- Receiver Email "nope" is not an email address`,
		],
	];

	test('each row names every field to fix, and nothing is sent', async () => {
		const op = ops.find((candidate) => candidate.name === 'Payout Create')!;
		const setup = op.setup as DisbursementSetup;
		setup.gw.resetStats();
		const items = cases.map(([, columns], i) => bankRow(`NESTED-${i}`, columns));
		const result = await runDisbursement(setup, bankTransferParameters(), {
			items,
			onError: 'continueRegularOutput',
		});
		expect(result.outputs).toEqual([
			cases.map(([, , error, details], i) => ({
				json: { error, itemIndex: i, ...(details ? { errorDetails: details } : {}) },
				pairedItem: { item: i },
			})),
		]);
		expect(setup.gw.stats().requestsByPath).toEqual({});
		expect(setup.gw.stats().attemptsByReference).toEqual({});
	});
});
