/** What a reference_no may be: the value that makes a retry safe, so a guess is never allowed. */
import type { INode } from 'n8n-workflow';

import { parseAccountNumber, parseReferenceNo } from '../../nodes/shared/validation/validation';

const node = {
	name: 'Payout',
	type: 'disbursement',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const reference = (value: unknown) => parseReferenceNo(node, 0, value);

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
