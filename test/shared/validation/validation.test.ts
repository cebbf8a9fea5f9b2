/**
 * The input checks of nodes/shared/validation/validation.ts. How an amount is read and compared:
 * the cells a spreadsheet really holds, to the centavo. What a reference_no may be: the value that
 * makes a retry safe, so a guess is never allowed. Mobile numbers, account numbers and URLs as a
 * row gives them.
 */

import { sameAmount } from '../../../nodes/shared/validation/records';
import {
	parseAccountNumber,
	parseAmount,
	parseJsonObject,
	parseOptionalUrl,
	parsePhilippineMobile,
	parseReferenceNo,
	readAmount,
	readPhilippineMobile,
	readUrl,
	requireText,
	toCentavos,
} from '../../../nodes/shared/validation/validation';
import { testNode, nodeErrorOf } from '../../harness/handMadeContext';

const node = testNode();
const parse = (value: unknown, limits?: { max?: number }) => parseAmount(node, 0, value, limits);
const reference = (value: unknown) => parseReferenceNo(node, 0, value);

describe('readAmount', () => {
	test.each([
		[1250.5, 1250.5],
		['1250.5', 1250.5],
		['1,250.50', 1250.5],
		[' 100 ', 100],
		['20,000', 20000],
		['₱20,000', 20000],
		['PHP 20', 20],
		['php20.25', 20.25],
	])('%j reads as %p', (cell, amount) => {
		expect(readAmount(cell)).toBe(amount);
	});

	test.each([
		['NaN'],
		[NaN],
		[Infinity],
		['1.000,50'],
		['12,34'],
		['1,2345'],
		[''],
		['abc'],
		[null],
		[undefined],
		[{}],
		[true],
		['$20'],
	])('%j is not an amount', (cell) => {
		expect(readAmount(cell)).toBeUndefined();
	});
});

describe('sameAmount and toCentavos', () => {
	test('amounts compare to the centavo, whatever their spelling', () => {
		expect(sameAmount(0.1 + 0.2, 0.3)).toBe(true);
		expect(sameAmount('1,250.50', 1250.5)).toBe(true);
		expect(sameAmount(1250.5, 1250.51)).toBe(false);
		expect(toCentavos(19.99)).toBe(1999);
	});

	test('an amount that cannot be read matches nothing, not even itself', () => {
		expect(sameAmount('NaN', 'NaN')).toBe(false);
		expect(sameAmount(undefined, undefined)).toBe(false);
	});
});

describe('parseAmount (an item amount)', () => {
	test('reads spreadsheet spellings and keeps 2 decimals', () => {
		expect(parse('₱20,000')).toBe(20000);
		expect(parse(' 1,250.50 ')).toBe(1250.5);
		expect(parse(0.01)).toBe(0.01);
		expect(parse(50000)).toBe(50000);
	});

	test.each([
		['', 'Amount is empty'],
		[null, 'Amount is empty'],
		['NaN', 'Amount "NaN" is not a number'],
		[NaN, 'Amount "NaN" is not a finite number'],
		['1.000', 'Amount "1.000" has more than 2 decimal places'],
		[0.1 + 0.2, 'Amount 0.30000000000000004 has more than 2 decimal places'],
		[0, 'Amount 0 is outside the allowed range 0.01 to 50,000'],
		[50000.01, 'Amount 50000.01 is outside the allowed range 0.01 to 50,000'],
		[1234567890123456789, 'Amount 1234567890123456800 is outside the allowed range 0.01 to 50,000'],
	])('%j is refused: %s', (cell, message) => {
		expect(() => parse(cell)).toThrow(message);
	});

	test('a Maximum per Payout below the service maximum is the range', () => {
		expect(() => parse(600, { max: 500 })).toThrow(
			'Amount 600 is outside the allowed range 0.01 to 500',
		);
		expect(parse(500, { max: 500 })).toBe(500);
	});
});

describe('parseReferenceNo', () => {
	test.each([
		['INV-2026-0042', 'INV-2026-0042'],
		['  PAY_7  ', 'PAY_7'],
		[1234567, '1234567'],
	])('%j is read as %j', (cell, text) => {
		expect(reference(cell)).toBe(text);
	});

	test.each([
		['', 'Reference No is empty'],
		[null, 'Reference No is empty'],
		[NaN, 'Reference No "NaN" is not a usable reference'],
		['NaN', 'Reference No "NaN" is a missing value or a broken formula, not a reference'],
		['#N/A', 'Reference No "#N/A" is a missing value or a broken formula, not a reference'],
		['#REF!', 'Reference No "#REF!" is a missing value or a broken formula, not a reference'],
		['-', 'Reference No "-" is a missing value or a broken formula, not a reference'],
		['__', 'Reference No "__" is a missing value or a broken formula, not a reference'],
		[
			'INV #42',
			'Reference No "INV #42" contains characters other than letters, digits, "-" and "_"',
		],
		[{ id: 1 }, 'Reference No is an object, not text'],
		[[1], 'Reference No is a list, not text'],
		[1234567890123456789, 'is a number that cannot be kept exactly'],
	])('%j is refused: %s', (cell, message) => {
		expect(() => reference(cell)).toThrow(message);
	});
});

describe('parseAccountNumber', () => {
	const account = (value: unknown) => parseAccountNumber(node, 0, 'Account Number', value);

	test('spaces and dashes between digits are left out; letters and digits kept', () => {
		expect(account('1234-5678 90')).toBe('1234567890');
		expect(account(1234567890)).toBe('1234567890');
	});

	test.each([
		[12345678901234567890, 'cannot be kept exactly'],
		[1234.5, 'cannot be kept exactly'],
		['1234\u200b5678', 'may hold only letters and digits'],
		['１２３４', 'may hold only letters and digits'],
	])('%j is refused', (cell, message) => {
		expect(() => account(cell)).toThrow(message);
	});
});

describe('parseAmount: more spellings', () => {
	test.each([
		['20,000', 20000],
		['₱20,000', 20000],
		['PHP 1,250.50', 1250.5],
		['php 20', 20],
		['0.01', 0.01],
		[0.01, 0.01],
		[50000, 50000],
		['50,000.00', 50000],
		['50000', 50000],
		[' 100 ', 100],
		[19.99, 19.99],
		['19.9', 19.9],
		['1,000,000.5', 1000000.5],
	])('%j is read as %p', (cell, amount) => {
		expect(parse(cell, { max: 2_000_000 })).toBe(amount);
	});

	test.each([
		['NaN', 'Amount "NaN" is not a number'],
		['-5', 'Amount "-5" is not a number'],
		[-5, 'Amount -5 is outside the allowed range 0.01 to 50,000'],
		[-0.01, 'Amount -0.01 is outside the allowed range 0.01 to 50,000'],
		[0.001, 'Amount 0.001 is outside the allowed range 0.01 to 50,000'],
		['0.001', 'Amount "0.001" has more than 2 decimal places'],
		['0', 'Amount 0 is outside the allowed range 0.01 to 50,000'],
		[50000.01, 'Amount 50000.01 is outside the allowed range 0.01 to 50,000'],
		['50,000.01', 'Amount 50000.01 is outside the allowed range 0.01 to 50,000'],
		['50001', 'Amount 50001 is outside the allowed range 0.01 to 50,000'],
		[
			'1234567890123456789',
			'Amount 1234567890123456800 is outside the allowed range 0.01 to 50,000',
		],
		[Infinity, 'Amount "Infinity" is not a finite number'],
		[-Infinity, 'Amount "-Infinity" is not a finite number'],
		[undefined, 'Amount is empty'],
		['   ', 'Amount is empty'],
		[{}, 'Amount "{}" is not a number'],
		[true, 'Amount "true" is not a number'],
		[[1], 'Amount "[1]" is not a number'],
		['$20', 'Amount "$20" is not a number'],
		['1.000,50', 'Amount "1.000,50" is not a number'],
		['20 000', 'Amount "20 000" is not a number'],
		['1e3', 'Amount "1e3" is not a number'],
		['0x10', 'Amount "0x10" is not a number'],
		[0.015, 'Amount 0.015 has more than 2 decimal places'],
		[12.345, 'Amount 12.345 has more than 2 decimal places'],
		['12.345', 'Amount "12.345" has more than 2 decimal places'],
	])('%j is refused: %s', (cell, message) => {
		expect(() => parse(cell)).toThrow(message);
	});

	test.each([
		['abc', 'Use digits with a dot for decimals, e.g. 1250.50 or 1,250.50'],
		[{}, 'Give an amount such as 1250.50'],
		['', 'Give an amount such as 1250.50'],
		[
			'1.000',
			'Amounts have at most 2 decimals: if the dot separates thousands, write 1000 or 1,000',
		],
		[12.345, 'Round it to 2 decimals in the sheet, or in the expression with .toFixed(2)'],
	])('%j is refused with the hint %j', (cell, hint) => {
		expect(nodeErrorOf(() => parse(cell)).description).toBe(hint);
	});

	test('the error names the item it is for and the label asked for', () => {
		const error = nodeErrorOf(() => parseAmount(node, 7, 'abc', { label: 'Maximum Total' }));
		expect(error.message).toBe('Maximum Total "abc" is not a number');
		expect(error.context.itemIndex).toBe(7);
	});

	test('a long value is quoted to 40 characters, the cut marked', () => {
		expect(nodeErrorOf(() => parse('x'.repeat(60))).message).toBe(
			`Amount "${'x'.repeat(39)}…" is not a number`,
		);
	});
});

describe('readAmount: more cells', () => {
	test.each([
		['0', 0],
		[-5, -5],
		['1,000,000', 1000000],
		['₱ 5', 5],
		['PHP1,000.25', 1000.25],
	])('%j reads as %p', (cell, amount) => {
		expect(readAmount(cell)).toBe(amount);
	});

	test.each([['-5'], ['1,00'], ['1,000,00'], ['.5'], ['5.'], ['USD 5'], ['PHP'], [-Infinity]])(
		'%j is not an amount',
		(cell) => {
			expect(readAmount(cell)).toBeUndefined();
		},
	);
});

describe('toCentavos', () => {
	test.each([
		[19.99, 1999],
		[0.01, 1],
		[0.1 + 0.2, 30],
		[1250.5, 125050],
		[50000, 5000000],
		[1.005, 100],
	])('%p is %p centavos', (amount, centavos) => {
		expect(toCentavos(amount)).toBe(centavos);
	});
});

describe('parseReferenceNo: more cells', () => {
	test.each([
		['a', 'a'],
		['A-b_9', 'A-b_9'],
		[0, '0'],
		['x'.repeat(64), 'x'.repeat(64)],
		['\tINV-1\n', 'INV-1'],
	])('%j is read as %j', (cell, text) => {
		expect(reference(cell)).toBe(text);
	});

	test.each([
		['   ', 'Reference No is empty'],
		[undefined, 'Reference No is empty'],
		[Infinity, 'Reference No "Infinity" is not a usable reference'],
		[true, 'Reference No is a boolean, not text'],
		['undefined', 'is a missing value or a broken formula, not a reference'],
		['null', 'is a missing value or a broken formula, not a reference'],
		['[object Object]', 'is a missing value or a broken formula, not a reference'],
		['#DIV/0!', 'is a missing value or a broken formula, not a reference'],
		['n/a', 'is a missing value or a broken formula, not a reference'],
		['-Infinity', 'is a missing value or a broken formula, not a reference'],
		['x'.repeat(65), 'Reference No is longer than 64 characters'],
		['INV:1', 'contains characters other than letters, digits, "-" and "_"'],
		['INV 1', 'contains characters other than letters, digits, "-" and "_"'],
		['INV.1', 'contains characters other than letters, digits, "-" and "_"'],
		['ÑANDÚ-1', 'contains characters other than letters, digits, "-" and "_"'],
		[1.5, 'is a number that cannot be kept exactly'],
	])('%j is refused: %s', (cell, message) => {
		expect(() => reference(cell)).toThrow(message);
	});

	test('the hint says what to map', () => {
		expect(nodeErrorOf(() => reference('')).description).toBe(
			'Map a stable, unique value from your data, such as an invoice number',
		);
	});
});

describe('parsePhilippineMobile', () => {
	const mobile = (value: unknown) => parsePhilippineMobile(node, 0, 'Mobile Number', value);

	test.each([
		['09171234567', '09171234567'],
		['0917 123 4567', '09171234567'],
		['0917-123-4567', '09171234567'],
		[' 09171234567 ', '09171234567'],
		['+639171234567', '+639171234567'],
		['+63 917 123 4567', '+639171234567'],
		['+63-917-123-4567', '+639171234567'],
	])('%j is read as %j', (cell, text) => {
		expect(mobile(cell)).toBe(text);
	});

	test.each([
		['', 'Mobile Number is empty'],
		['  ', 'Mobile Number is empty'],
		[null, 'Mobile Number is empty'],
		[undefined, 'Mobile Number is empty'],
		['639171234567', 'Mobile Number "639171234567" is not a Philippine mobile number'],
		['(0917) 123 4567', 'Mobile Number "(0917) 123 4567" is not a Philippine mobile number'],
		['0917123456', 'Mobile Number "0917123456" is not a Philippine mobile number'],
		['091712345678', 'Mobile Number "091712345678" is not a Philippine mobile number'],
		['08171234567', 'Mobile Number "08171234567" is not a Philippine mobile number'],
		['+6309171234567', 'Mobile Number "+6309171234567" is not a Philippine mobile number'],
		[9171234567, 'Mobile Number "9171234567" is not a Philippine mobile number'],
		['0917.123.4567', 'Mobile Number "0917.123.4567" is not a Philippine mobile number'],
	])('%j is refused: %s', (cell, message) => {
		expect(() => mobile(cell)).toThrow(message);
	});

	test('the hint gives both forms', () => {
		expect(nodeErrorOf(() => mobile('123')).description).toBe('Use 09XXXXXXXXX or +639XXXXXXXXX');
	});
});

describe('readPhilippineMobile', () => {
	test.each([
		['09171234567', '09171234567'],
		['+63 917 123 4567', '+639171234567'],
		['0917-123-4567', '09171234567'],
	])('%j is %j', (value, text) => {
		expect(readPhilippineMobile(value)).toBe(text);
	});

	test.each([['639171234567'], [9171234567], [null], [{}], ['(0917)1234567'], ['0917123456']])(
		'%j is not a mobile number',
		(value) => {
			expect(readPhilippineMobile(value)).toBeUndefined();
		},
	);
});

describe('parseAccountNumber: more cells', () => {
	const account = (value: unknown) => parseAccountNumber(node, 0, 'Account Number', value);

	test.each([
		['AB12cd34', 'AB12cd34'],
		[' 0012 3456 7890 ', '001234567890'],
		['0012-3456-7890', '001234567890'],
		[0, '0'],
		[Number.MAX_SAFE_INTEGER, '9007199254740991'],
	])('%j is read as %j', (cell, text) => {
		expect(account(cell)).toBe(text);
	});

	test.each([
		['', 'Account Number "" may hold only letters and digits'],
		[null, 'Account Number "null" may hold only letters and digits'],
		['12.34', 'Account Number "12.34" may hold only letters and digits'],
		['1234/5678', 'Account Number "1234/5678" may hold only letters and digits'],
		['(1234)', 'Account Number "(1234)" may hold only letters and digits'],
		['ñ123', 'Account Number "ñ123" may hold only letters and digits'],
		[2 ** 53, 'Account Number "9007199254740992" is a number that cannot be kept exactly'],
	])('%j is refused: %s', (cell, message) => {
		expect(() => account(cell)).toThrow(message);
	});
});

describe('readUrl', () => {
	test.each([
		['https://api.example.com', 'https://api.example.com/'],
		['  https://API.Example.com/x  ', 'https://api.example.com/x'],
		['http://127.0.0.1:8080/a?b=1#c', 'http://127.0.0.1:8080/a?b=1#c'],
		['HTTPS://example.com:443/', 'https://example.com/'],
	])('%j is sent as %j', (value, href) => {
		const url = readUrl(value);
		expect(url).toBeInstanceOf(URL);
		expect((url as URL).href).toBe(href);
	});

	test.each([
		['https://example.com/x\n', 'lineBreak', 'contains a line break'],
		['https://example.com/\rx', 'lineBreak', 'contains a line break'],
		['https://example.com/\tx', 'control', 'contains a tab or another control character'],
		['https://example.com/\u0000', 'control', 'contains a tab or another control character'],
		['https:\\\\example.com', 'backslash', 'contains a backslash ("\\")'],
		['not a url', 'invalid', '"not a url" is not a valid URL'],
		['', 'invalid', '"" is not a valid URL'],
		['example.com/pay', 'invalid', '"example.com/pay" is not a valid URL'],
		['ftp://example.com', 'scheme', 'must start with https:// or http://'],
		['javascript:alert(1)', 'scheme', 'must start with https:// or http://'],
		['mailto:a@example.com', 'scheme', 'must start with https:// or http://'],
		[
			'https://user:pass@example.com',
			'userinfo',
			'must not contain a user name or password ("user:pass@")',
		],
		[
			'https://user@example.com',
			'userinfo',
			'must not contain a user name or password ("user:pass@")',
		],
		['https://example.com/a b', 'space', 'contains a space'],
	])('%j: %s', (value, kind, problem) => {
		expect(readUrl(value)).toMatchObject({ kind, problem });
	});
});

describe('parseOptionalUrl', () => {
	const optional = (value: unknown) => parseOptionalUrl(node, 0, 'Redirect URL', value);

	test.each([[''], ['   '], [null], [undefined]])('%j is not given', (value) => {
		expect(optional(value)).toBeUndefined();
	});

	test('a URL is given in the form it is sent', () => {
		expect(optional(' https://Shop.example.com ')).toBe('https://shop.example.com/');
	});

	test.each([
		['https://example.com\n', 'Redirect URL contains a line break'],
		['ftp://example.com', 'Redirect URL must start with https:// or http://'],
		[42, 'Redirect URL "42" is not a valid URL'],
	])('%j is refused: %s', (value, message) => {
		expect(() => optional(value)).toThrow(message);
	});
});

describe('requireText', () => {
	const text = (value: unknown) => requireText(node, 0, 'Description', value);

	test.each([
		[' Rent ', 'Rent'],
		[42, '42'],
	])('%j is %j', (value, expected) => {
		expect(text(value)).toBe(expected);
	});

	test.each([
		['', 'Description is required'],
		[null, 'Description is required'],
		[true, 'Description is required'],
		[{}, 'Description is an object, not text'],
		[[], 'Description is a list, not text'],
	])('%j is refused: %s', (value, message) => {
		expect(() => text(value)).toThrow(message);
	});
});

describe('parseJsonObject', () => {
	const json = (value: unknown) => parseJsonObject(node, 0, 'Extra Fields', value);

	test.each([
		[null, {}],
		[undefined, {}],
		['', {}],
		['{"email":"a@b.ph"}', { email: 'a@b.ph' }],
		[{ a: 1 }, { a: 1 }],
	])('%j is %j', (value, object) => {
		expect(json(value)).toEqual(object);
	});

	test.each([
		['{', 'Extra Fields is not valid JSON'],
		['[1]', 'Extra Fields must be a JSON object'],
		['"text"', 'Extra Fields must be a JSON object'],
		['null', 'Extra Fields must be a JSON object'],
		[[1], 'Extra Fields must be a JSON object'],
		[5, 'Extra Fields must be a JSON object'],
	])('%j is refused: %s', (value, message) => {
		expect(() => json(value)).toThrow(message);
	});
});
