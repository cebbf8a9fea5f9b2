/** The one reading of list answers: which shapes hold a list, and which bank entries count. */
import { banksIn, isStatus, pickList } from '../../../nodes/shared/validation/schemas';

describe('pickList', () => {
	test.each([
		['data as an array', [{ a: 1 }], [{ a: 1 }]],
		['data.<key>', { banks: [{ a: 1 }] }, [{ a: 1 }]],
		['an empty list', { banks: [] }, []],
	])('%s', (_name, data, list) => {
		expect(pickList(data, 'banks')).toEqual(list);
	});

	test.each([
		['another key', { channels: [] }],
		['the key not a list', { banks: { BDO: 'BDO Unibank' } }],
		['null', null],
		['a string', 'banks'],
	])('%s holds no list', (_name, data) => {
		expect(pickList(data, 'banks')).toBeUndefined();
	});
});

describe('banksIn', () => {
	it('keeps the entries with a text code, with their other fields; a name only when it is a text', () => {
		expect(
			banksIn({
				banks: [
					{ code: 'BDO', name: 'BDO Unibank, Inc.', swift: 'BNORPHMM' },
					{ code: 42, name: 'Numeric code' },
					{ code: ' ', name: 'Blank code' },
					{ name: 'No code' },
					{ code: 'BPI' },
					{ code: ' UBP ', name: 7 },
					null,
					'MBTC',
					{ code: 'MBTC', name: ' Metrobank ' },
				],
			}),
		).toEqual([
			{ code: 'BDO', name: 'BDO Unibank, Inc.', swift: 'BNORPHMM' },
			{ code: 'BPI' },
			{ code: 'UBP' },
			{ code: 'MBTC', name: 'Metrobank' },
		]);
	});

	it('reads a bare array as the list', () => {
		expect(banksIn([{ code: 'BDO', name: 'BDO' }])).toEqual([{ code: 'BDO', name: 'BDO' }]);
	});

	it('says there is no list (undefined), which differs from a list with no usable bank ([])', () => {
		expect(banksIn({ message: 'ok' })).toBeUndefined();
		expect(banksIn({ banks: [{ code: 1 }] })).toEqual([]);
	});
});

describe('isStatus', () => {
	test.each([['pending'], ['completed'], ['cancelled']])('%j is a status', (value) => {
		expect(isStatus(value)).toBe(true);
	});

	test.each([
		['COMPLETED'],
		['Completed'],
		[' completed'],
		['completed '],
		['success'],
		['canceled'],
		['compl\u0435ted'],
		[''],
		[null],
		[undefined],
		[1],
		[['completed']],
	])('%j is not: only the three documented values, exactly', (value) => {
		expect(isStatus(value)).toBe(false);
	});
});
