/** Text from a row, a model or the service as a person is shown it (nodes/shared/validation/shownText.ts). */
import { shownText } from '../../../nodes/shared/validation/shownText';
import {
	IMITATING_NAMES,
	INVISIBLE_CHARACTERS,
	QUOTATION_MARKS,
	writtenOut,
} from '../../harness/hostileText';

describe('shownText', () => {
	test.each(INVISIBLE_CHARACTERS)('%s is written out, never shown or dropped', (_, char) => {
		expect(shownText(`Juan${char}Dela Cruz`)).toBe(`Juan${writtenOut(char)}Dela Cruz`);
	});

	test.each(QUOTATION_MARKS)('%s is written out', (_, char) => {
		expect(shownText(`Juan ${char}Boss${char}`)).toBe(
			`Juan ${writtenOut(char)}Boss${writtenOut(char)}`,
		);
	});

	test.each(IMITATING_NAMES)(
		'a name with %s shows every such character written out',
		(_, name, shown) => {
			expect(shownText(name, 100)).toBe(shown);
		},
	);

	test.each([
		['U+202E', '\u202e', '{U+202E}'],
		['U+0000', '\u0000', '{U+0000}'],
		['U+00AD', '\u00ad', '{U+00AD}'],
		['U+E0100', '\u{e0100}', '{U+E0100}'],
	])('%s is written as %s', (_, char, written) => {
		expect(shownText(char)).toBe(written);
	});

	test.each([
		['plain text', 'Juan Dela Cruz', 'Juan Dela Cruz'],
		[
			'a bank name with a comma and brackets',
			'Metropolitan Bank (Metrobank), Inc.',
			'Metropolitan Bank (Metrobank), Inc.',
		],
		['letters of other alphabets', 'Peña Ñoño Đặng 李 Иван', 'Peña Ñoño Đặng 李 Иван'],
		['symbols and other punctuation', 'A&B / C-D #1 @ 50% + ₱ … ★', 'A&B / C-D #1 @ 50% + ₱ … ★'],
		['square brackets and braces', '[x] {y}', '[x] {y}'],
		['text that is empty', '', ''],
		['a number', 1250.5, '1250.5'],
		['nothing', undefined, ''],
		['null', null, 'null'],
	])('%s is shown as it is', (_, value, shown) => {
		expect(shownText(value)).toBe(shown);
	});

	test.each([
		['spaces at either end', '  Juan  ', 'Juan'],
		['a run of spaces', 'Juan   Dela', 'Juan Dela'],
		['a no-break space', 'Juan\u00a0Dela', 'Juan Dela'],
		['an ideographic space', 'Juan\u3000Dela', 'Juan Dela'],
		['an en quad and a thin space', 'Juan\u2000\u2009Dela', 'Juan Dela'],
	])('%s: blanks read as one space, none at either end', (_, text, shown) => {
		expect(shownText(text)).toBe(shown);
	});

	test.each([
		['on a letter', 'Pen\u0303a', 'Pen\u0303a'],
		['two on one letter', 'e\u0301\u0308', 'e\u0301\u0308'],
		['a third on one letter', 'e\u0301\u0308\u0303x', `e\u0301\u0308{U+0303}x`],
		['at the start', '\u0301x', '{U+0301}x'],
		['after a space', 'a \u0336b', 'a {U+0336}b'],
		['after a digit', '1\u20e3', '1{U+20E3}'],
		['after a quotation mark written out', '"\u0301', '{U+0022}{U+0301}'],
	])('a combining mark %s', (_, text, shown) => {
		expect(shownText(text)).toBe(shown);
	});

	test.each([
		['a written-out character it does not hold', 'Juan {U+202E}', 'Juan {U+007B}U+202E}'],
		['the start of one', '{U+', '{U+007B}U+'],
		['braces that are not one', '{u+202e} {x}', '{u+202e} {x}'],
	])('text that looks like %s is told apart', (_, text, shown) => {
		expect(shownText(text)).toBe(shown);
	});

	test.each([
		['<', '{U+003C}'],
		['>', '{U+003E}'],
		['\uff1c', '{U+FF1C}'],
		['\u3010', '{U+3010}'],
		['\u2045', '{U+2045}'],
	])('%s, which a review could read as markup or a quotation, is written out', (char, shown) => {
		expect(shownText(char)).toBe(shown);
	});

	test('a lone surrogate is written out', () => {
		expect(shownText('a\ud800b')).toBe('a{U+D800}b');
	});

	test.each([
		['at most `longest` characters, the cut marked', 'x'.repeat(70), 60, `${'x'.repeat(59)}…`],
		['exactly `longest` is not cut', 'x'.repeat(60), 60, 'x'.repeat(60)],
		[
			'a cut never splits a written-out character',
			`${'x'.repeat(55)}\u202eyyyy`,
			60,
			`${'x'.repeat(55)}…`,
		],
		['a cut never splits a surrogate pair', `${'x'.repeat(58)}😀y`, 60, `${'x'.repeat(58)}…`],
		['no blank before the cut mark', `${'x'.repeat(58)} yy`, 60, `${'x'.repeat(58)}…`],
		[
			'written-out characters count at their written length',
			'\u202e'.repeat(10),
			40,
			`${'{U+202E}'.repeat(4)}…`,
		],
		['without a limit', 'x'.repeat(200), Infinity, 'x'.repeat(200)],
	])('%s', (_, text, longest, shown) => {
		expect(shownText(text, longest)).toBe(shown);
	});

	test('no two texts that differ, other than in blanks, are shown the same', () => {
		const texts = [
			'Juan',
			'Juan\u200b',
			'Juan{U+200B}',
			'Juan\u00ad',
			'Juan"',
			'Juan\u201d',
			"Juan'",
			'Juan\u2019',
			'Ju\u202ean',
			'Juan\u2028',
		];
		expect(new Set(texts.map((text) => shownText(text))).size).toBe(texts.length);
	});
});
