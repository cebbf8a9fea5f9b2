/**
 * Text from a row, a model or the service, as a person is shown it: Prepare's summary (and so the
 * approval token a review shows), Dry Run's payee, Check Only's problems and totals, Reconcile's
 * mismatches and summary. Every such text passes `shownText` first, so it reads one way wherever
 * it is shown: nothing in it can reorder, hide or break the line, or close a quotation around it.
 *
 * Any run of blanks is one space, none at either end. These are written out as `{U+XXXX}`: control
 * and format characters (bidirectional overrides and isolates, zero-width characters, the soft
 * hyphen, U+061C), line and paragraph separators, what Unicode draws as nothing (variation
 * selectors, fillers), private-use, unassigned and lone surrogate code points, a combining mark on
 * anything but a letter (or a third on one), every quotation mark and its look-alikes, brackets
 * other than `()`, `[]` and `{}` (`„`, `‚`, corner and full-width brackets, which quote too), `<`
 * and `>`, and a `{` that starts `{U+`, so that no text shows an escape it does not hold. Every
 * other letter, digit, punctuation mark and symbol stays as it is.
 *
 * Written out rather than removed: a person sees that the text holds something unusual, and two
 * texts that differ other than in blanks never show the same. Braces rather than `<U+202E>`: a
 * review that renders HTML would take that for a tag and hide it, and Slack for a link; for the
 * same reason `<` and `>` from the text are written out.
 */

/** Characters written out wherever they stand. */
const WRITTEN_OUT = new RegExp(
	[
		'[',
		// Control, format, separators, private use, unassigned, lone surrogates; drawn as nothing.
		'\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Co}\\p{Cn}\\p{Cs}\\p{Default_Ignorable_Code_Point}\\u2800',
		// Quotation marks of every kind, and the accents, primes and apostrophes that look like one.
		'\\p{Quotation_Mark}\\p{Pi}\\p{Pf}`\\u00b4\\u02b9-\\u02bf\\u02c8\\u02ca\\u02cb\\u02dd\\u02ee',
		'\\u055a\\u055b\\u055d\\u05f3\\u05f4\\u2032-\\u2037\\u2057\\u275b-\\u2760\\ua78b\\ua78c',
		'\\uff40\\u{1f676}-\\u{1f678}',
		// Brackets (Ps, Pe: `„` and `‚` among them), `<` and `>`; ASCII brackets are kept below.
		'\\p{Ps}\\p{Pe}<>\\uff1c\\uff1e\\ufe64\\ufe65',
		']',
	].join(''),
	'u',
);
const ASCII_BRACKET = /^[()[\]{}]$/;
const BLANK = /^[\p{Zs}]$/u;
const MARK = /^\p{M}$/u;
const LETTER = /^\p{L}$/u;

/** Combining marks kept on one letter: enough for any alphabet, too few to draw over the text. */
const MARKS_PER_LETTER = 2;

const writtenOut = (char: string) =>
	`{U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;

/**
 * `value` as one line a person can read one way, at most `longest` characters (cut short with
 * `…`, never inside a written-out character).
 */
export function shownText(value: unknown, longest = 60): string {
	const text = typeof value === 'string' ? value : value === undefined ? '' : String(value);
	const pieces: string[] = [];
	let marks = 0;
	let afterLetter = false;
	let at = 0;
	for (const char of text) {
		const escapeLike = char === '{' && text.startsWith('U+', at + 1);
		at += char.length;
		if (BLANK.test(char)) {
			if (pieces.length > 0 && pieces[pieces.length - 1] !== ' ') pieces.push(' ');
			afterLetter = false;
			continue;
		}
		const isMark = MARK.test(char);
		const kept: boolean =
			!escapeLike &&
			(!WRITTEN_OUT.test(char) || ASCII_BRACKET.test(char)) &&
			(!isMark || (afterLetter && marks < MARKS_PER_LETTER));
		pieces.push(kept ? char : writtenOut(char));
		marks = isMark && kept ? marks + 1 : 0;
		afterLetter = kept && (LETTER.test(char) || (isMark && afterLetter));
	}
	if (pieces[pieces.length - 1] === ' ') pieces.pop();
	if (pieces.join('').length <= longest) return pieces.join('');
	let shown = '';
	for (const piece of pieces) {
		if (shown.length + piece.length > longest - 1) break;
		shown += piece;
	}
	return `${shown.trimEnd()}…`;
}

/** The text as a sentence: ending with a full stop unless it ends as one already. */
export function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]["')\]]?$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
