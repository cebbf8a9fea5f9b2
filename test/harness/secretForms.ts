/**
 * The forms a service or proxy may quote a secret back in, written out here from the encodings
 * themselves (never from the nodes' scrubbing), so a test holds the scrubbing to a list of its own.
 */

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
	];
}

/** The names of the forms (the secret as written included) that `text` holds. */
export function formsFoundIn(text: string, secret: string, username: string): string[] {
	return [['as written', secret] as [string, string], ...quotedForms(secret, username)]
		.filter(([, form]) => text.includes(form))
		.map(([name]) => name);
}
