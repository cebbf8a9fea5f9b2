/** How an amount is read and compared: the cells a spreadsheet really holds, to the centavo. */
import type { INode } from 'n8n-workflow';

import { sameAmount } from '../../nodes/shared/validation/records';
import { parseAmount, readAmount, toCentavos } from '../../nodes/shared/validation/validation';

const node = {
	name: 'Payout',
	type: 'disbursement',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const parse = (value: unknown, limits?: { max?: number }) => parseAmount(node, 0, value, limits);

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

	test('a Maximum Amount per Payout below the service maximum is the range', () => {
		expect(() => parse(600, { max: 500 })).toThrow(
			'Amount 600 is outside the allowed range 0.01 to 500',
		);
		expect(parse(500, { max: 500 })).toBe(500);
	});
});
