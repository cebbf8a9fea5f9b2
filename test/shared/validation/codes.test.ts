/** Bank and channel codes: one way of comparing them, and which can be sent (nodes/shared/validation/codes.ts). */
import {
	foldCode,
	isSendableCode,
	listedSpelling,
	sameCode,
	unsendableCode,
} from '../../../nodes/shared/validation/codes';

describe('foldCode', () => {
	test.each([
		['gcash', 'GCASH'],
		['GCash', 'GCASH'],
		['instapay-2_x.y', 'INSTAPAY-2_X.Y'],
		['BDO', 'BDO'],
		// What toUpperCase would change and ASCII folding leaves: long s, dotless i, sharp s, ligatures.
		['GCA\u017fH', 'GCA\u017fH'],
		['bp\u0131', 'BP\u0131'],
		['stra\u00dfe', 'STRA\u00dfE'],
		['\ufb01nance', '\ufb01NANCE'],
		// Nor does it lower-case: the Kelvin sign stays, never a k.
		['BAN\u212a', 'BAN\u212a'],
		['\u00e9', '\u00e9'],
		['', ''],
	])('%j folds to %j', (code, folded) => {
		expect(foldCode(code)).toBe(folded);
	});

	test('it changes ASCII letters a to z only, each to its upper case, and nothing else', () => {
		for (let point = 0; point < 0x3000; point++) {
			const char = String.fromCodePoint(point);
			const ascii = point >= 0x61 && point <= 0x7a;
			expect(foldCode(char)).toBe(ascii ? String.fromCodePoint(point - 32) : char);
		}
	});
});

describe('sameCode', () => {
	test.each([
		['gcash', 'GCASH', true],
		['GCash', 'gCASH', true],
		['GCA\u017fH', 'GCASH', false],
		['bp\u0131', 'BPI', false],
		['INSTAPAY', 'INSTAPAY ', false],
		['BDO', 'BD0', false],
	])('%j and %j: %p', (a, b, same) => {
		expect(sameCode(a, b)).toBe(same);
	});
});

describe('isSendableCode', () => {
	test.each(['GCASH', 'gcash', 'BPI', 'PAYMAYA_CARD', 'a-b.c', '!~', 'X'])(
		'%j can be sent',
		(code) => {
			expect(isSendableCode(code)).toBe(true);
		},
	);

	test.each([
		'',
		' GCASH',
		'GC ASH',
		'GCASH\n',
		'GCA\u017fH',
		'bp\u0131',
		'B\u00a0DO',
		'GCASH\u200b',
		'\u0000',
	])('%j cannot', (code) => {
		expect(isSendableCode(code)).toBe(false);
	});
});

describe('unsendableCode', () => {
	test('names the code, its invisible characters written out', () => {
		expect(unsendableCode('Channel', 'GCASH\u200b')).toBe(
			'Channel "GCASH{U+200B}" is not a code the service issues (printable ASCII letters, digits and signs only, no blanks): choose it from the list, or type the code as the service spells it',
		);
	});

	test('says nothing of a code that can be sent', () => {
		expect(unsendableCode('Bank Code', 'bpi')).toBeUndefined();
	});
});

describe('listedSpelling', () => {
	const banks = ['BDO', 'BPI', 'MBTC'];

	test.each([
		['bpi', 'BPI'],
		['BPI', 'BPI'],
		['Mbtc', 'MBTC'],
	])('%j is listed as %j', (code, listed) => {
		expect(listedSpelling(code, banks)).toBe(listed);
	});

	test.each([['bp\u0131'], ['BP\u0130'], ['UBP'], ['']])('%j is not listed', (code) => {
		expect(listedSpelling(code, banks)).toBeUndefined();
	});

	test('a code the list holds in two spellings has no one spelling', () => {
		expect(listedSpelling('bpi', ['BPI', 'bpi'])).toBeUndefined();
	});
});
