/**
 * A batch's token, digest and tables on their own: the digest binds each row's facts whatever the
 * order, the differences name each row and fact, and the tables cannot be read as markup or a
 * spreadsheet formula.
 */
import {
	batchCsv,
	batchFigures,
	batchHtml,
	batchRowOf,
	differencesFrom,
	listDigest,
	namedDifferences,
	readBatchToken,
	readApprovedRows,
	type ApprovedRow,
	type BatchRow,
} from '../../../nodes/shared/validation/batchToken';

const bank = (ref: string, amount = 1500, extra: Partial<BatchRow> = {}): BatchRow => ({
	...batchRowOf(
		ref,
		amount,
		{ kind: 'bankAccount', channel: 'INSTAPAY', bankCode: 'BDO', accountNumber: '001234567890' },
		' Juan Dela Cruz ',
	),
	...extra,
});
const wallet = (ref: string, amount = 250): BatchRow =>
	batchRowOf(ref, amount, { kind: 'mobile', channel: 'GCASH', mobileNumber: '09171234567' });
const approvedOf = (rows: BatchRow[]): ApprovedRow[] =>
	rows.map((row, index) => ({ row: index + 1, ...row }));

const list = [bank('A-1'), bank('A-2', 2000), wallet('A-3')];

test('a row binds its reference, amount, channel, recipient in full and account name (trimmed)', () => {
	expect(list[0]).toEqual({
		reference_no: 'A-1',
		amount: 1500,
		channel: 'INSTAPAY',
		bankCode: 'BDO',
		accountNumber: '001234567890',
		accountName: 'Juan Dela Cruz',
	});
	expect(list[2]).toEqual({
		reference_no: 'A-3',
		amount: 250,
		channel: 'GCASH',
		mobileNumber: '09171234567',
	});
});

test('the digest does not depend on the order, and codes compare folded', () => {
	expect(listDigest([list[2], list[0], list[1]])).toBe(listDigest(list));
	expect(
		listDigest([bank('A-1', 1500, { channel: 'instapay', bankCode: 'bdo' }), list[1], list[2]]),
	).toBe(listDigest(list));
});

test.each<[string, Partial<BatchRow>]>([
	['reference', { reference_no: 'A-9' }],
	['amount', { amount: 1500.01 }],
	['channel', { channel: 'PESONET' }],
	['bank code', { bankCode: 'BPI' }],
	['account number', { accountNumber: '001234567891' }],
	['account name', { accountName: 'Juana Dela Cruz' }],
	['mobile number', { mobileNumber: '09181234567' }],
])('the digest changes with the %s', (_, change) => {
	expect(listDigest([{ ...list[0], ...change }, list[1], list[2]])).not.toBe(listDigest(list));
});

test('the figures: count, total to the centavo, per channel, the largest', () => {
	expect(batchFigures([bank('B-1', 0.1), bank('B-2', 0.2), wallet('B-3', 1000.05)])).toEqual({
		count: 3,
		total: 1000.35,
		byChannel: [
			{ channel: 'GCASH', count: 1, total: 1000.05 },
			{ channel: 'INSTAPAY', count: 2, total: 0.3 },
		],
		largest: { reference_no: 'B-3', amount: 1000.05 },
	});
});

test('each difference names the row and the fact, approved and given', () => {
	const approved = approvedOf(list);
	expect(differencesFrom(approved, [list[2], list[0], list[1]])).toEqual([]);
	expect(differencesFrom(approved, [{ ...list[0], amount: 1600 }, bank('A-7'), list[0]])).toEqual([
		'row 3 (A-1) repeats the reference of row 1',
		'row 1 (A-1) differs: amount 1600.00 (approved 1500.00)',
		'row 2 (A-7) was not approved: the approved list has no such reference',
		'the approved payout A-2 (approved row 2) is missing',
		'the approved payout A-3 (approved row 3) is missing',
	]);
	const many = Array.from({ length: 25 }, (_, index) => `difference ${index + 1}`);
	expect(namedDifferences(many)).toMatch(/difference 20; and 5 more$/);
});

test('the CSV quotes what it must and never starts a cell with a formula', () => {
	const rows = approvedOf([
		bank('=HYPERLINK("x")', 1500, { accountName: 'Dela Cruz, Juan "JJ"' }),
		bank('-1+1'),
	]);
	const lines = batchCsv(rows).split('\r\n');
	expect(lines[1]).toBe(
		`1,"'=HYPERLINK(""x"")",1500.00,INSTAPAY,BDO,001234567890,,"Dela Cruz, Juan ""JJ"""`,
	);
	expect(lines[2].startsWith("2,'-1+1,")).toBe(true);
});

test('the HTML escapes every cell and the words', () => {
	const html = batchHtml(
		'Pay <b>1</b>',
		approvedOf([bank('<script>', 1, { accountName: '"&\'' })]),
	);
	// Text is shown as shownText shows it (brackets and quotes written out), then escaped.
	expect(html).toContain('<p>Pay {U+003C}b{U+003E}1{U+003C}/b{U+003E}</p>');
	expect(html).toContain('<td>{U+003C}script{U+003E}</td>');
	expect(html).toContain('<td>{U+0022}&amp;{U+0027}</td>');
	expect(html).not.toContain('<script>');
});

test('text that is not a whole batch token, or a list that is not one, is not read', () => {
	for (const token of [
		undefined,
		'',
		'pb1.e30.x',
		'Pay [pb1.e30.x]',
		'Pay [pb1.!!.x]',
		'Pay [pa4.e30.x]',
	])
		expect(readBatchToken(token)).toBeUndefined();
	expect(readApprovedRows('[]')).toBeUndefined();
	expect(
		readApprovedRows([{ reference_no: 'A', amount: '1', channel: 'X', row: 1 }]),
	).toBeUndefined();
	expect(readApprovedRows(approvedOf(list))).toHaveLength(3);
});
