/**
 * Text that tries to make what a person approves read two ways: characters that reorder, hide or
 * break a line, every kind of quotation mark, and account names that imitate a summary's facts.
 * Shared by shownText's own tests and the approval scenarios run in n8n's engine.
 */

/** How a written-out character reads: `{U+202E}`. */
export const writtenOut = (char: string) =>
	`{U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;

/** Characters a reader draws as nothing, or that reorder or break what follows. */
export const INVISIBLE_CHARACTERS: Array<[string, string]> = [
	['U+202E right-to-left override', '\u202e'],
	['U+202D left-to-right override', '\u202d'],
	['U+202A left-to-right embedding', '\u202a'],
	['U+202B right-to-left embedding', '\u202b'],
	['U+202C pop directional formatting', '\u202c'],
	['U+2066 left-to-right isolate', '\u2066'],
	['U+2067 right-to-left isolate', '\u2067'],
	['U+2068 first strong isolate', '\u2068'],
	['U+2069 pop directional isolate', '\u2069'],
	['U+200B zero-width space', '\u200b'],
	['U+200C zero-width non-joiner', '\u200c'],
	['U+200D zero-width joiner', '\u200d'],
	['U+200E left-to-right mark', '\u200e'],
	['U+200F right-to-left mark', '\u200f'],
	['U+00AD soft hyphen', '\u00ad'],
	['U+061C Arabic letter mark', '\u061c'],
	['U+FEFF zero-width no-break space', '\ufeff'],
	['U+2060 word joiner', '\u2060'],
	['U+2064 invisible plus', '\u2064'],
	['U+180E Mongolian vowel separator', '\u180e'],
	['U+2028 line separator', '\u2028'],
	['U+2029 paragraph separator', '\u2029'],
	['U+FE0F variation selector-16', '\ufe0f'],
	['U+E0100 variation selector-17', '\u{e0100}'],
	['U+034F combining grapheme joiner', '\u034f'],
	['U+115F Hangul choseong filler', '\u115f'],
	['U+3164 Hangul filler', '\u3164'],
	['U+2800 Braille pattern blank', '\u2800'],
	['U+E0041 tag Latin capital A', '\u{e0041}'],
	['U+E000 private use', '\ue000'],
	['U+0000 null', '\u0000'],
	['U+0009 tab', '\t'],
	['U+000A line feed', '\n'],
	['U+000D carriage return', '\r'],
	['U+001B escape', '\u001b'],
	['U+007F delete', '\u007f'],
	['U+0085 next line', '\u0085'],
];

/** Every kind of quotation mark, and the marks that look like one. */
export const QUOTATION_MARKS: Array<[string, string]> = [
	['U+0022 quotation mark', '"'],
	['U+0027 apostrophe', "'"],
	['U+0060 grave accent', '`'],
	['U+00B4 acute accent', '\u00b4'],
	['U+201C left double quotation mark', '\u201c'],
	['U+201D right double quotation mark', '\u201d'],
	['U+2018 left single quotation mark', '\u2018'],
	['U+2019 right single quotation mark', '\u2019'],
	['U+201E double low-9 quotation mark', '\u201e'],
	['U+201A single low-9 quotation mark', '\u201a'],
	['U+201F double high-reversed-9 quotation mark', '\u201f'],
	['U+201B single high-reversed-9 quotation mark', '\u201b'],
	['U+00AB left-pointing double angle quotation mark', '\u00ab'],
	['U+00BB right-pointing double angle quotation mark', '\u00bb'],
	['U+2039 single left-pointing angle quotation mark', '\u2039'],
	['U+203A single right-pointing angle quotation mark', '\u203a'],
	['U+FF02 full-width quotation mark', '\uff02'],
	['U+FF07 full-width apostrophe', '\uff07'],
	['U+FF40 full-width grave accent', '\uff40'],
	['U+300C left corner bracket', '\u300c'],
	['U+300D right corner bracket', '\u300d'],
	['U+300E left white corner bracket', '\u300e'],
	['U+300F right white corner bracket', '\u300f'],
	['U+301D reversed double prime quotation mark', '\u301d'],
	['U+301E double prime quotation mark', '\u301e'],
	['U+2E42 double low-reversed-9 quotation mark', '\u2e42'],
	['U+2032 prime', '\u2032'],
	['U+2033 double prime', '\u2033'],
	['U+02BB modifier letter turned comma', '\u02bb'],
	['U+02BC modifier letter apostrophe', '\u02bc'],
	['U+275D heavy double turned comma quotation mark ornament', '\u275d'],
	['U+275E heavy double comma quotation mark ornament', '\u275e'],
];

/** Any character of the two tables above: none may reach what a person approves. */
export const HOSTILE = new RegExp(
	`[\\p{Cf}\\p{Cc}\\p{Zl}\\p{Zp}\\p{Co}\\p{Quotation_Mark}\\p{Pi}\\p{Pf}${[
		...INVISIBLE_CHARACTERS,
		...QUOTATION_MARKS,
	]
		.map(([, char]) => char)
		.join('')
		.replace(/[\\\]^-]/g, '\\$&')}]`,
	'u',
);

/**
 * Account names that imitate the rest of a summary, each with how the summary shows it after its
 * label: another bank, channel and environment after a closing quotation mark of each kind, text
 * reversed by a right-to-left override, isolated, or after a line separator.
 */
export const IMITATING_NAMES: Array<[string, string, string]> = [
	[
		'curly quotation marks',
		'Juan\u201d at bank code BPI, over PESONET (Production) \u201c',
		'Juan{U+201D} at bank code BPI, over PESONET (Production) {U+201C}',
	],
	[
		'straight quotation marks',
		'Juan" at bank code BPI, over PESONET (Production) "',
		'Juan{U+0022} at bank code BPI, over PESONET (Production) {U+0022}',
	],
	[
		'apostrophes',
		"Juan' at bank code BPI, over PESONET (Production) '",
		'Juan{U+0027} at bank code BPI, over PESONET (Production) {U+0027}',
	],
	[
		'angle quotation marks',
		'Juan\u00bb at bank code BPI, over PESONET (Production) \u00ab',
		'Juan{U+00BB} at bank code BPI, over PESONET (Production) {U+00AB}',
	],
	[
		'full-width quotation marks',
		'Juan\uff02 at bank code BPI, over PESONET (Production) \uff02',
		'Juan{U+FF02} at bank code BPI, over PESONET (Production) {U+FF02}',
	],
	[
		'a right-to-left override',
		'Juan\u202e)noitcudorP( TENOSEP revo ,IPB edoc knab ta',
		'Juan{U+202E})noitcudorP( TENOSEP revo ,IPB edoc knab ta',
	],
	[
		'isolates',
		'Juan\u2067 at bank code BPI\u2069 over PESONET\u2066 (Production)',
		'Juan{U+2067} at bank code BPI{U+2069} over PESONET{U+2066} (Production)',
	],
	[
		'a line separator',
		'Juan\u2028Pay PHP 9.00 to account number 999 at bank code BPI (Production)',
		'Juan{U+2028}Pay PHP 9.00 to account number 999 at bank code BPI (Production)',
	],
	[
		'the labels of the summary',
		'Juan". Bank name as listed: "BPI". Account name as given: "Pedro',
		'Juan{U+0022}. Bank name as listed: {U+0022}BPI{U+0022}. Account name as given: {U+0022}Pedro',
	],
];

/** A bank-transfer summary taken apart, or undefined when it is not one in this exact form. */
export function bankSummaryParts(
	summary: string,
): { facts: string; bankName?: string; accountName?: string } | undefined {
	const match =
		/^(Pay PHP [\d,]+\.\d\d to account number [A-Za-z0-9]+ at bank code [A-Z0-9_.-]+, over [A-Z0-9_.-]+, reference [A-Za-z0-9_-]+ \((?:Sandbox|Production)\))(?:\. Bank name as listed: "([^"]*)")?(?:\. Account name as given: "([^"]*)")?$/.exec(
			summary,
		);
	if (!match) return undefined;
	const [, facts, bankName, accountName] = match;
	return { facts, bankName, accountName };
}

/** How many times `text` holds `part`. */
export const occurrences = (text: string, part: RegExp) =>
	[...text.matchAll(new RegExp(part.source, 'g'))].length;
