/**
 * The forms a service or proxy may quote a secret back in, written out here from the encodings
 * themselves (never from the nodes' scrubbing), so a test holds the scrubbing to a list of its own.
 */
import fc from 'fast-check';

/** Passwords holding what URL-encoding, form-encoding and JSON each change: `$ /+&=é"\~`. */
export const TRICKY_PASSWORDS = {
	collection: 'Pa$$ w0rd/+&=é"\\~x9',
	disbursement: 'Pd$$ w0rd/+&=é"\\~x8',
} as const;

const bytesOf = (text: string) => [...Buffer.from(text, 'utf8')];
const percentEach = (text: string, hex: (byte: string) => string) =>
	bytesOf(text)
		.map((byte) => `%${hex(byte.toString(16).padStart(2, '0'))}`)
		.join('');
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
/** Every other escape's hex digits in lower case: `%2F%2B%26%3D` becomes `%2F%2b%26%3d`. */
const mixedHex = (text: string) => {
	let index = 0;
	return text.replace(/%[0-9A-F]{2}/g, (escape) =>
		index++ % 2 ? escape.toLowerCase() : escape.toUpperCase(),
	);
};
/** URLSearchParams' form encoding of one value: `+` for a space, `~` escaped. */
export const formEncoded = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);
/** The text as it stands inside a JSON string. */
export const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
const unicodeEscape = (char: string, hex: (code: string) => string) =>
	`\\u${hex(char.charCodeAt(0).toString(16).padStart(4, '0'))}`;
const nonAscii = /[^\x00-\x7f]/g;
export const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
/** The UTF-8 bytes in hex. */
export const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');
/** Every character as JSON's `\uXXXX`, letters and digits included. */
export const everyCharUnicode = (text: string, upper = false) =>
	[...text]
		.map((char) =>
			[...Array(char.length).keys()]
				.map((unit) => {
					const code = char.charCodeAt(unit).toString(16).padStart(4, '0');
					return `\\u${upper ? code.toUpperCase() : code}`;
				})
				.join(''),
		)
		.join('');
/** HTML's escaping of the five characters it must (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`). */
export const htmlEscaped = (text: string) =>
	text.replace(
		/[&<>"']/g,
		(char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
	);
/** Every character as a decimal (`&#38;`) or hex (`&#x26;`) character reference. */
export const htmlNumbered = (text: string, radix: 10 | 16) =>
	[...text]
		.map((char) => {
			const code = char.codePointAt(0)!;
			return radix === 10 ? `&#${code};` : `&#x${code.toString(16)};`;
		})
		.join('');

/**
 * Each form with its name: URL-encoded (either hex case, `+` or `%20` for a space, every byte
 * escaped), JSON-escaped (`\uXXXX` in either case, `\/`, JSON quoted inside JSON), base64 and
 * base64url with and without padding, and Basic auth's base64 of `username:secret`.
 */
export function quotedForms(secret: string, username: string): Array<[string, string]> {
	return [
		["encodeURIComponent's (upper-case hex, %20 for a space)", encodeURIComponent(secret)],
		["encodeURIComponent's in lower-case hex", lowerHex(encodeURIComponent(secret))],
		["encodeURIComponent's in mixed-case hex", mixedHex(encodeURIComponent(secret))],
		["URLSearchParams' form encoding (+ for a space, ~ escaped)", formEncoded(secret)],
		['form encoding in lower-case hex', lowerHex(formEncoded(secret))],
		['form encoding with %20 for a space', formEncoded(secret).replace(/\+/g, '%20')],
		['every byte percent-encoded, upper-case hex', percentEach(secret, (b) => b.toUpperCase())],
		['every byte percent-encoded, lower-case hex', percentEach(secret, (b) => b)],
		['JSON-escaped', jsonEscaped(secret)],
		[
			'JSON-escaped, non-ASCII as \\uXXXX (lower-case hex)',
			jsonEscaped(secret).replace(nonAscii, (char) => unicodeEscape(char, (h) => h)),
		],
		[
			'JSON-escaped, non-ASCII as \\uXXXX (upper-case hex)',
			jsonEscaped(secret).replace(nonAscii, (char) => unicodeEscape(char, (h) => h.toUpperCase())),
		],
		['JSON-escaped with \\/', jsonEscaped(secret).replace(/\//g, '\\/')],
		[
			'JSON-escaped, non-ASCII as \\uXXXX and with \\/ (PHP json_encode)',
			jsonEscaped(secret)
				.replace(/\//g, '\\/')
				.replace(nonAscii, (char) => unicodeEscape(char, (h) => h)),
		],
		[
			'JSON with every character but letters and digits as \\uXXXX',
			[...secret]
				.map((char) => (/[A-Za-z0-9]/.test(char) ? char : unicodeEscape(char, (h) => h)))
				.join(''),
		],
		['JSON-escaped twice (JSON quoted inside JSON)', jsonEscaped(jsonEscaped(secret))],
		['base64', base64(secret)],
		['base64 without padding', base64(secret).replace(/=+$/, '')],
		['base64 with its padding URL-encoded', base64(secret).replace(/=/g, '%3D')],
		['base64url', base64url(secret)],
		['base64url with padding', base64(secret).replace(/\+/g, '-').replace(/\//g, '_')],
		['Basic auth (base64 of username:password)', base64(`${username}:${secret}`)],
		['percent-encoded twice', encodeURIComponent(encodeURIComponent(secret))],
		[
			'percent-encoded twice, lower-case hex',
			lowerHex(encodeURIComponent(encodeURIComponent(secret))),
		],
		['form-encoded, then percent-encoded', encodeURIComponent(formEncoded(secret))],
		['every character as \\uXXXX, letters included', everyCharUnicode(secret)],
		['every character as \\uXXXX, upper-case hex', everyCharUnicode(secret, true)],
		['HTML-escaped (named entities)', htmlEscaped(secret)],
		['every character as a decimal HTML entity', htmlNumbered(secret, 10)],
		['every character as a hex HTML entity', htmlNumbered(secret, 16)],
		['hex (lower case)', hex(secret)],
		['hex (upper case)', hex(secret).toUpperCase()],
	];
}

/** The names of the forms (the secret as written included) that `text` holds. */
export function formsFoundIn(text: string, secret: string, username: string): string[] {
	return [['as written', secret] as [string, string], ...quotedForms(secret, username)]
		.filter(([, form]) => text.includes(form))
		.map(([name]) => name);
}

/** How many forms `quotedForms` gives; index FORM_COUNT stands for the text as written. */
export const FORM_COUNT = quotedForms('x', 'y').length;

/** The text in the form of that index of `quotedForms`, or as written for FORM_COUNT. */
export function quotedAs(text: string, form: number, username: string): string {
	return form >= FORM_COUNT ? text : quotedForms(text, username)[form][1];
}

const escaped = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** A run this long of a secret is part of it: none may show. */
export const PART_LENGTH = 6;

/**
 * What `shown` holds of the secret: the secret as written or in any form of `quotedForms`, and
 * each run of PART_LENGTH characters of it as written or in any form but Basic auth's (a run of
 * the password is not a login). Empty when nothing shows. `ownWords` (the marks the nodes put in
 * place of a secret, whose words may be a secret's too) are taken out first, in any case.
 */
export function partsShown(
	quoted: string,
	secret: string,
	username: string,
	ownWords: readonly string[] = [],
): string[] {
	let shown = quoted;
	for (const word of ownWords) shown = shown.replace(new RegExp(escaped(word), 'gi'), ' ');
	const found = formsFoundIn(shown, secret, username);
	for (let at = 0; at + PART_LENGTH <= secret.length; at++) {
		const run = secret.slice(at, at + PART_LENGTH);
		const forms: Array<[string, string]> = [['as written', run], ...quotedForms(run, username)];
		for (const [name, form] of forms) {
			if (!name.startsWith('Basic auth') && shown.includes(form))
				found.push(`${PART_LENGTH} characters of it (${name})`);
		}
	}
	return found;
}

/**
 * Random secrets for property tests: 8 to 40 characters of printable ASCII, with `%`, `&`, `\`,
 * `"`, `+`, `/`, `=`, a space and others each form changes more often than chance would.
 */
export const printableSecret = fc
	.array(
		fc.oneof(
			fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
			fc.constantFrom('%', '&', '\\', '"', '+', '/', '=', ' ', '$', '~', '<', "'"),
		),
		{ minLength: 8, maxLength: 40 },
	)
	.map((chars) => chars.join(''))
	.filter((secret) => secret.trim() !== '');
