/** Allowed Recipients: what each entry admits, and that an entry that cannot be read is an error (nodes/shared/validation/allowList.ts). */
import {
	isAllowedRecipient,
	parseAllowList,
	type AllowedRecipient,
} from '../../../nodes/shared/validation/allowList';
import type { Recipient } from '../../../nodes/shared/validation/recipient';

const wallet = (mobileNumber: string): Recipient => ({
	kind: 'mobile',
	channel: 'GCASH',
	mobileNumber,
});
const account = (accountNumber: string, bankCode = 'BDO'): Recipient => ({
	kind: 'bankAccount',
	channel: 'INSTAPAY',
	bankCode,
	accountNumber,
});

/** The entries of a list that reads; fails the test when it does not. */
function allowed(list: unknown): AllowedRecipient[] {
	const read = parseAllowList(list);
	if (!('allowed' in read)) throw new Error(`unreadable: ${read.unreadable.join(', ')}`);
	return read.allowed;
}
const admits = (entry: string, recipient: Recipient) =>
	isAllowedRecipient(recipient, allowed(entry));

describe('mobile number entries', () => {
	test.each([
		['09171234567'],
		['+639171234567'],
		['639171234567'],
		['+63 917 123 4567'],
		['63 917 123 4567'],
		['0917 123 4567'],
		['0917-123-4567'],
		['+63-917-123-4567'],
		['(0917) 123 4567'],
		['+63 (917) 123-4567'],
	])('%j is a mobile entry admitting 09171234567 only', (entry) => {
		const [read] = allowed(entry);
		expect(read).toMatchObject({ kind: 'mobile', entry });
		expect(read.bankCode).toBeUndefined();
		expect(admits(entry, wallet('09171234567'))).toBe(true);
		expect(admits(entry, wallet('09171234568'))).toBe(false);
	});

	test.each([
		['0917*', '09171234567', true],
		['0917*', '09181234567', false],
		['+63 917*', '09171234567', true],
		['63917*', '09171234567', true],
		['+63 918*', '09171234567', false],
		['09*', '09991234567', true],
		['0917*4567', '09171234567', true],
		['0917*4567', '09171234568', false],
		['0917-123-*', '09171239999', true],
		['09171234567*', '09171234567', true],
	])('pattern %j admits %s: %p', (entry, mobileNumber, expected) => {
		expect(allowed(entry)[0].kind).toBe('mobile');
		expect(admits(entry, wallet(mobileNumber))).toBe(expected);
	});

	test.each([['09171234567'], ['0917*'], ['+63 917 123 4567']])(
		'%j admits no bank account, even one with the same digits',
		(entry) => {
			expect(admits(entry, account('09171234567'))).toBe(false);
		},
	);
});

describe('account number entries name their bank', () => {
	test.each([['ANY:001234567890'], ['any : 0012 3456 7890'], ['Any:0012-3456-7890']])(
		'%j admits account 001234567890 at any bank',
		(entry) => {
			expect(allowed(entry)[0]).toMatchObject({ kind: 'bankAccount', bankCode: undefined, entry });
			expect(admits(entry, account('001234567890', 'BDO'))).toBe(true);
			expect(admits(entry, account('001234567890', 'BPI'))).toBe(true);
			expect(admits(entry, account('001234567891'))).toBe(false);
		},
	);

	test.each([
		['BDO:001234567890', 'BDO'],
		['bdo : 001234567890', 'BDO'],
		['Bpi:001234567890', 'BPI'],
		['GCASH:001234567890', 'GCASH'],
		['UNION_BANK:001234567890', 'UNION_BANK'],
		['BDO:0012 3456 7890', 'BDO'],
	])('%j admits account 001234567890 at bank code %s only', (entry, bankCode) => {
		expect(allowed(entry)[0]).toMatchObject({ kind: 'bankAccount', bankCode });
		expect(admits(entry, account('001234567890', bankCode))).toBe(true);
		expect(admits(entry, account('001234567890', 'OTHER'))).toBe(false);
	});

	// At another bank the same number is someone else's account: an entry must say which bank.
	test.each([
		['001234567890'],
		['0012 3456 7890'],
		['0012-3456-7890'],
		['0012*'],
		['*7890'],
		['AB12*'],
		['0917123456'],
		['account:001234567890'],
		['ACCOUNT: 001234567890'],
		['Account : 0012 3456 7890'],
		['account:09171234567'],
	])('%j names no bank: refused, admitting no one', (entry) => {
		expect(parseAllowList(entry)).toEqual({ unreadable: [], withoutBank: [entry] });
	});

	test.each([
		['BDO:0012*', '001299', true],
		['BDO:0012*', '0012', true],
		['BDO:0012*', '001', false],
		['BDO:0012*', '100123', false],
		['ANY:*7890', 'AB7890', true],
		['ANY:*7890', '78901', false],
		['BDO:AB12*', 'AB12cd', true],
		['BDO:ab12*', 'AB12cd', false],
		['BDO:12*34', '12xx34', true],
	])('pattern %j admits account %s at BDO: %p', (entry, accountNumber, expected) => {
		expect(admits(entry, account(accountNumber))).toBe(expected);
	});

	test.each([
		['BDO:0012*', 'BPI', false],
		['ANY:0012*', 'BPI', true],
	])('pattern %j admits account 001299 at %s: %p', (entry, bankCode, expected) => {
		expect(admits(entry, account('001299', bankCode))).toBe(expected);
	});

	test.each([['ANY:09171234567'], ['BDO:001234567890'], ['ANY:0012*'], ['GCASH:09171234567']])(
		'%j admits no e-wallet payout',
		(entry) => {
			expect(allowed(entry)[0].kind).toBe('bankAccount');
			expect(admits(entry, wallet('09171234567'))).toBe(false);
		},
	);

	test('ANY:09171234567 admits a bank account written like a mobile number, at any bank', () => {
		expect(admits('ANY:09171234567', account('09171234567', 'BPI'))).toBe(true);
		expect(admits('BDO:09171234567', account('09171234567', 'BPI'))).toBe(false);
	});

	test('a regular-expression character in an entry is no pattern: an entry holding one is unreadable', () => {
		expect(parseAllowList('BDO:0012.*')).toEqual({ unreadable: ['BDO:0012.*'], withoutBank: [] });
		expect(parseAllowList('0012.*')).toEqual({ unreadable: ['0012.*'], withoutBank: [] });
	});
});

describe('parseAllowList', () => {
	test.each([
		['09171234567, BDO:0012*; BDO:1234\n ANY:0918', 4],
		['09171234567,,;\n\nANY:0012*', 2],
		['', 0],
		[' , ; \n ', 0],
		['  09171234567  ', 1],
	])('%j holds %p entries', (list, count) => {
		expect(allowed(list)).toHaveLength(count);
	});

	test('entries are trimmed and kept as written for messages', () => {
		expect(allowed(' +63 917 123 4567 ;BDO: 0012 ').map((entry) => entry.entry)).toEqual([
			'+63 917 123 4567',
			'BDO: 0012',
		]);
	});

	test('a number is read as its digits: 9171234567 is an account number without its bank', () => {
		expect(parseAllowList(9171234567)).toEqual({ unreadable: [], withoutBank: ['9171234567'] });
	});

	test.each([
		['*'],
		['**'],
		['BDO:'],
		['BDO:*'],
		['BDO: ask'],
		['juan@example.com'],
		['ask the boss'],
		['-'],
		['()'],
		['#REF!'],
		['09171234567.'],
		['BDO:0012:34'],
		['BDO-1:1234'],
		['0012/34'],
		['N/A'],
		['₱5000'],
		// Brackets belong to a written mobile number only: a note in them makes the entry unreadable.
		['0917 123 4567 (Juan)'],
		['BDO:(0012)3456'],
		['account:'],
		['ANY:'],
		['ANY:*'],
		['account: ask'],
	])('%j cannot be read', (entry) => {
		expect(parseAllowList(entry)).toEqual({ unreadable: [entry], withoutBank: [] });
	});

	test('every entry that cannot be used is named, and none of the list is used', () => {
		expect(
			parseAllowList('09171234567, ask the boss; *\n0012*, juan@example.com, BDO:0012*, 5550001'),
		).toEqual({
			unreadable: ['ask the boss', '*', 'juan@example.com'],
			withoutBank: ['0012*', '5550001'],
		});
	});

	test.each([
		[undefined, 'undefined'],
		[null, 'object'],
		[true, 'boolean'],
		[{}, 'object'],
		[['09171234567'], 'object'],
	])('%j is not a list: unreadable %j', (value, type) => {
		expect(parseAllowList(value)).toEqual({ unreadable: [type], withoutBank: [] });
	});
});

describe('isAllowedRecipient', () => {
	test('an empty list admits no one', () => {
		expect(isAllowedRecipient(wallet('09171234567'), [])).toBe(false);
		expect(isAllowedRecipient(account('1'), [])).toBe(false);
	});

	test.each([
		[wallet('09171234567'), true],
		[wallet('09991234567'), false],
		[account('001234567890', 'BDO'), true],
		[account('001234567890', 'BPI'), false],
		[account('55501', 'BPI'), true],
		[account('55501', 'BDO'), true],
		[account('09171234567', 'BDO'), false],
	])('one list of several kinds: %j is admitted: %p', (recipient, expected) => {
		const list = allowed('0917*; BDO:001234567890; ANY:555*');
		expect(isAllowedRecipient(recipient, list)).toBe(expected);
	});
});
