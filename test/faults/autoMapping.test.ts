/**
 * "Map Input Columns Automatically" against the sandbox over real HTTP, for both operations that
 * create money: each row's columns are what is paid, checked by the same code as manual mapping
 * (the same messages for the same bad cells), and every safety rule of the money-safe path (caps,
 * Dry Run, Maximum Total per Run, the look-up before a resend) holds the same way.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { moneyOperationsPerFile, type MoneyOperation } from '../harness/moneyOperations';

const ops = moneyOperationsPerFile('automatic column mapping');
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;
const requests = (op: MoneyOperation) => op.setup.gw.stats().requestsByPath;

/** The node in automatic mode: no field is an expression. */
function autoParameters(
	op: MoneyOperation,
	options: IDataObject = {},
	overrides: INodeParameters = {},
): INodeParameters {
	const fixed: INodeParameters =
		op.name === 'Generate'
			? { resource: 'transaction', operation: 'generate', channelCode: 'GCASH_TRN' }
			: { resource: 'payout', operation: 'create', channelType: 'eWallet', channel: 'GCASH' };
	return {
		...fixed,
		mappingMode: 'autoMapInputData',
		options: options as INodeParameters,
		...overrides,
	};
}

/** A row as a spreadsheet gives it to the automatic mode (the service's column names). */
function autoRow(
	op: MoneyOperation,
	reference: unknown,
	amount: unknown,
	extra: IDataObject = {},
): IDataObject {
	const row: IDataObject = { reference_no: reference as string, amount: amount as number };
	if (op.name === 'Payout Create') row.mobile_number = '09171234567';
	return { ...row, ...extra };
}

/** The same row for the manual mapping of the existing tests (`{{ $json.ref }}`, `{{ $json.mobile }}`). */
function manualRow(
	op: MoneyOperation,
	reference: unknown,
	amount: unknown,
	extra: IDataObject = {},
): IDataObject {
	const { mobile_number: mobile, ...rest } = extra;
	return op.row(reference as string, amount as number, {
		...rest,
		...(mobile === undefined ? {} : { mobile }),
	});
}

const errorsOf = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.error);

describe('Payout Create: each row pays its own amount to its own payee', () => {
	test("e-wallet rows: amounts and mobile numbers from the columns, header spellings matched, other columns ignored, an empty channel cell is the node's Channel", async () => {
		const op = ops['Payout Create'];
		const refs = [ref('AUTO-EW'), ref('AUTO-EW'), ref('AUTO-EW')];
		const rows: IDataObject[] = [
			{
				reference_no: refs[0],
				amount: 150.25,
				mobile_number: '09171111111',
				note: 'ignored',
				channel: ' ',
			},
			{ referenceNo: refs[1], Amount: '1,250.50', 'Mobile Number': '+639182222222' },
			{
				'REFERENCE-NO': refs[2],
				amount: 75,
				mobileNumber: '0919 333 3333',
				channel: 'PAYMAYA',
				extra: { nested: true },
			},
		];
		const result = await op.run(autoParameters(op, { concurrency: 2 }), rows);
		expect(result.error).toBeUndefined();
		expect(
			result.outputs[0].map((item) => [
				item.json.reference_no,
				item.json.amount,
				item.json.replayed,
			]),
		).toEqual([
			[refs[0], 150.25, false],
			[refs[1], 1250.5, false],
			[refs[2], 75, false],
		]);
		const paid = refs.map((reference) => op.record(reference) as IDataObject);
		expect(
			paid.map((record) => [
				record.amount,
				record.channel,
				(record.fields as IDataObject).mobile_number,
			]),
		).toEqual([
			[150.25, 'GCASH', '09171111111'],
			[1250.5, 'GCASH', '+639182222222'],
			[75, 'PAYMAYA', '09193333333'],
		]);
		expect(requests(op)[`POST ${op.createPath}`]).toBe(3);
	});

	test('bank-transfer rows: the bank, sender and receiver columns land in fields, as the form would send them', async () => {
		const op = ops['Payout Create'];
		const reference = ref('AUTO-BANK');
		const row: IDataObject = {
			reference_no: reference,
			amount: 2500,
			bank_code: 'BPI',
			sender_first_name: 'Ana',
			sender_last_name: 'Cruz',
			receiver_account_name: 'Jose Rizal',
			receiver_account_number: '001234567890',
			receiver_gender: 'male',
			receiver_email: 'jose@example.ph',
		};
		const result = await op.run(
			autoParameters(op, {}, { channelType: 'bankTransfer', channel: 'INSTAPAY' }),
			[row],
		);
		expect(result.error).toBeUndefined();
		const record = op.record(reference) as IDataObject;
		expect(record).toMatchObject({ amount: 2500, channel: 'INSTAPAY' });
		expect(record.fields).toEqual({
			bank_code: 'BPI',
			sender: { first_name: 'Ana', last_name: 'Cruz' },
			receiver: {
				account_name: 'Jose Rizal',
				account_number: '001234567890',
				type: 'INDIVIDUAL',
				gender: 'MALE',
				email: 'jose@example.ph',
			},
		});
	});
});

describe.each(NAMES)(
	'%s: bad cells are refused with the same messages as manual mapping',
	(name) => {
		const op = () => ops[name];
		const badCells: Array<[string, unknown, unknown, IDataObject?]> = [
			['amount as text "abc"', 'BAD-A', 'abc'],
			['amount with a decimal comma', 'BAD-B', '1.000,50'],
			['amount below a centavo', 'BAD-C', 0.001],
			['amount above 50,000', 'BAD-D', 50001],
			['an empty amount cell', 'BAD-E', ''],
			['amount as a list', 'BAD-F', [100]],
			['a 19-digit reference number', 1234567890123456789, 100],
			['a reference with spaces', 'BAD REF', 100],
			['a reference "NaN" from a broken formula', 'NaN', 100],
			['an empty reference cell', '', 100],
		];
		const payoutOnly: Array<[string, unknown, unknown, IDataObject?]> = [
			['a mobile number that lost its leading 0', 'BAD-M1', 100, { mobile_number: 9171234567 }],
			['a mobile number that is not one', 'BAD-M2', 100, { mobile_number: 'call me' }],
			['an empty mobile number cell', 'BAD-M3', 100, { mobile_number: '' }],
		];

		test('every row fails with the message manual mapping gives, and nothing is sent', async () => {
			const cells = name === 'Payout Create' ? [...badCells, ...payoutOnly] : badCells;
			const manual = await op().run(
				op().parameters(),
				cells.map(([, reference, amount, extra]) => manualRow(op(), reference, amount, extra)),
				'continueRegularOutput',
			);
			const auto = await op().run(
				autoParameters(op()),
				cells.map(([, reference, amount, extra]) => autoRow(op(), reference, amount, extra)),
				'continueRegularOutput',
			);
			const manualErrors = errorsOf(manual.outputs[0]);
			expect(manualErrors.every((error) => typeof error === 'string')).toBe(true);
			expect(errorsOf(auto.outputs[0])).toEqual(manualErrors);
			expect(auto.outputs[0].map((item) => item.json.errorDetails)).toEqual(
				manual.outputs[0].map((item) => item.json.errorDetails),
			);
			expect(manualErrors).toContain('Amount "abc" is not a number (row 1)');
			expect(manualErrors[6]).toMatch(
				/^Reference No "1234567890123456800" is a number that cannot be kept exactly/,
			);
			expect(requests(op())).toEqual({});
		});

		test('a missing column names the column and the row, and lists the columns the row has', async () => {
			const good = ref('COLS-OK');
			const rows = [
				autoRow(op(), good, 10),
				{
					reference_no: ref('COLS'),
					amout: 10,
					...(name === 'Payout Create' ? { mobile_number: '09171234567' } : {}),
				},
			];
			const result = await op().run(autoParameters(op()), rows, 'continueRegularOutput');
			const found =
				name === 'Payout Create'
					? '"reference_no", "amout", "mobile_number"'
					: '"reference_no", "amout"';
			expect(result.outputs[0][1].json).toMatchObject({
				error: `Column "amount" (Amount) missing: the item has columns ${found} (row 2)`,
				errorDetails:
					'Rename the column, or switch Input Mapping to "Map Each Field Manually" to map it with an expression.',
			});
			expect(result.outputs[0][0].json).toMatchObject({ reference_no: good, replayed: false });
			expect(requests(op())[`POST ${op().createPath}`]).toBe(1);
		});

		test('without continue-on-fail the run stops at the row with the missing column', async () => {
			const result = await op().run(autoParameters(op()), [{ ref: 'X', amount: 10 }]);
			expect(result.error?.message).toMatch(
				/^Columns? "reference_no" \(Reference No\).* missing: the item has columns "ref", "amount" \(row 1\)$/,
			);
			expect(requests(op())).toEqual({});
		});

		test('two columns for one field that disagree are refused, never guessed', async () => {
			const result = await op().run(
				autoParameters(op()),
				[autoRow(op(), ref('CLASH'), 10, { referenceNo: 'OTHER-1' })],
				'continueRegularOutput',
			);
			expect(result.outputs[0][0].json.error).toBe(
				'Columns "reference_no" and "referenceNo" (Reference No) hold different values for the same field (row 1)',
			);
			expect(requests(op())).toEqual({});
		});
	},
);

describe.each(NAMES)('%s: the safety rules hold in automatic mode', (name) => {
	const op = () => ops[name];

	test('Maximum Total per Run: rows above it send nothing, with the same message as manual mapping', async () => {
		const amounts = [40000, 40000, 30000];
		const manual = await op().run(
			op().parameters({ maxTotalPerRun: 100000 }),
			amounts.map((amount) => manualRow(op(), ref('TOTAL'), amount)),
		);
		const auto = await op().run(
			autoParameters(op(), { maxTotalPerRun: 100000 }),
			amounts.map((amount) => autoRow(op(), ref('TOTAL'), amount)),
		);
		expect(auto.error?.message).toBe(
			'The rows add up to 110,000, above the Maximum Total per Run (100,000): nothing was sent',
		);
		expect(auto.error?.message).toBe(manual.error?.message);
		expect(requests(op())).toEqual({});
	});

	test('an unreadable cap ("20,000") stops the node before anything is sent', async () => {
		const result = await op().run(autoParameters(op(), { maxTotalPerRun: '20,000' }), [
			autoRow(op(), ref('CAPTXT'), 10),
		]);
		expect(result.error?.message).toBe(
			'Maximum Total per Run is "20,000", not a positive number: nothing was sent',
		);
		expect(requests(op())).toEqual({});
	});

	test('Dry Run previews what each row would send and sends nothing', async () => {
		const refs = [ref('DRY'), ref('DRY')];
		const result = await op().run(autoParameters(op(), { dryRun: true }), [
			autoRow(op(), refs[0], 120.5),
			autoRow(op(), refs[1], 'x'),
		]);
		const [first, second, summary] = result.outputs[0].map((item) => item.json);
		expect(first).toMatchObject({
			dryRun: true,
			row: 1,
			wouldSend: true,
			reference_no: refs[0],
			amount: 120.5,
		});
		expect(second).toMatchObject({
			dryRun: true,
			row: 2,
			wouldSend: false,
			problem: 'Amount "x" is not a number',
		});
		expect(summary).toMatchObject({
			summary: true,
			rows: 2,
			wouldSend: 1,
			wouldFail: 1,
			totalAmount: 120.5,
		});
		expect(requests(op())).toEqual({});
	});

	test('an answer lost after the service created the record: looked up, never sent twice', async () => {
		const reference = ref('LOST');
		op().setup.gw.faults.add({
			method: 'POST',
			path: op().createPath,
			mode: 'drop-after',
			times: 1,
		});
		const result = await op().run(autoParameters(op()), [autoRow(op(), reference, 321)]);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: false });
		expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
		expect(op().setup.gw.stats().attemptsByReference[reference]).toBe(1);
		expect(requests(op())[`GET ${op().lookupPath}`]).toBe(1);
	});

	test('a row run again is a replay of the same record, not a second one', async () => {
		const reference = ref('AGAIN');
		await op().run(autoParameters(op()), [autoRow(op(), reference, 55)]);
		const again = await op().run(autoParameters(op()), [autoRow(op(), reference, 55)]);
		expect(again.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: true });
		expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
	});
});

test('Payout Create: Maximum per Payout refuses the larger row only, as with manual mapping', async () => {
	const op = ops['Payout Create'];
	const refs = [ref('MAXPAY'), ref('MAXPAY')];
	const result = await op.run(
		autoParameters(op, { maxAmountPerPayout: 20000 }),
		[autoRow(op, refs[0], 45000), autoRow(op, refs[1], 15000)],
		'continueRegularOutput',
	);
	expect(result.outputs[0][0].json.error).toBe(
		"Amount 45000 is above the Maximum per Payout (20,000) set in this node's options (row 1)",
	);
	expect(result.outputs[0][1].json).toMatchObject({
		reference_no: refs[1],
		amount: 15000,
		replayed: false,
	});
	expect(op.setup.gw.stats().attemptsByReference[refs[0]]).toBeUndefined();
});

test('Generate: customer columns fill the customer details and are checked as the form checks them', async () => {
	const op = ops.Generate;
	const refs = [ref('CUST'), ref('CUST')];
	const result = await op.run(
		autoParameters(op),
		[
			{
				reference_no: refs[0],
				amount: 500,
				email: 'buyer@example.ph',
				first_name: 'Maria',
				mobile_number: '0917 123 4567',
			},
			{ reference_no: refs[1], amount: 500, email: 'not-an-email' },
		],
		'continueRegularOutput',
	);
	expect(result.outputs[0][1].json.error).toBe(
		'Email "not-an-email" is not an email address (row 2)',
	);
	const sent = op.setup.gw.stats();
	expect(sent.attemptsByReference[refs[1]]).toBeUndefined();
	expect(op.record(refs[0])).toMatchObject({ reference_no: refs[0] });
});
