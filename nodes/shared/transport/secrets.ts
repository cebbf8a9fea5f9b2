/**
 * Scrubbing by value: whatever the service echoes back (a password in a token error, the
 * Authorization header quoted in a 422 message, a token inside a record) is replaced before it can
 * reach an output item, an error or a log line. Field names prove nothing, so only values count.
 *
 * A secret may come back in another form than written: the collection token request carries the
 * password in its query string and the disbursement one in a JSON body, and a service or proxy
 * quotes them encoded. So each secret is hidden in every form it may take:
 * - as written;
 * - URL-encoded: any character as `%XX` (UTF-8, either hex case) or as itself, a space as `+` or
 *   `%20` (encodeURIComponent's, qs's and URLSearchParams' forms, and fully percent-encoded ones);
 * - JSON-escaped, once or more (JSON quoted inside JSON, up to three levels): `\"`, `\\`, `\/`,
 *   control characters, and `\uXXXX` (either hex case) for any character but a letter or digit;
 * - base64 and base64url, with or without padding (`=` or `%3D`), alone or inside the base64 of a
 *   longer text (Basic auth's `username:password`).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const HIDDEN = '[hidden]';

/** Shorter values would hide ordinary words and digits; no real secret of the service is this short. */
const MIN_SECRET_LENGTH = 4;

/**
 * A secret inside the base64 of a longer text is found by the characters its bytes alone decide;
 * at least this many (72 bits), so unrelated base64 (a QR code, a file) is never hidden by chance.
 */
const MIN_BASE64_FRAGMENT = 12;

/** The forms of a list's secrets, built once and carried by the list (not enumerable). */
const FORMS = Symbol('secretForms');

interface SecretForms {
	/** The values they were built from: a list changed since gets its forms built again. */
	values: readonly string[];
	/** Texts hidden in their base64 forms only (`username:password`). */
	base64Only: readonly string[];
	/** Every form of every secret: one pass tells whether a text holds any. */
	any: RegExp;
	/** Each form on its own, to find every span a secret covers when forms overlap. */
	each: RegExp[];
}

type SecretList = readonly string[] & { [FORMS]?: SecretForms };

/**
 * The secret values of a credential, longest first so a secret containing another is hidden whole.
 * Their forms are built here, once per list; the credential keeps them (not enumerable), so the
 * lists of a run's requests share them until a value changes (a new token).
 */
export function secretsOf(
	credentials: ICredentialDataDecryptedObject,
	...more: unknown[]
): string[] {
	const values = [
		credentials.password,
		credentials.signingSecret,
		credentials.sessionToken,
		...more,
	];
	const secrets = values.filter(
		(value): value is string => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH,
	);
	const list = [...new Set(secrets)].sort((a, b) => b.length - a.length);
	// Basic auth's base64 of `username:password` hides a password too short to be found inside it.
	const { username, password } = credentials;
	const basic =
		typeof username === 'string' && typeof password === 'string' && list.includes(password)
			? [`${username}:${password}`]
			: [];
	const kept = (credentials as { [FORMS]?: SecretForms })[FORMS];
	const forms =
		kept && sameValues(kept.values, list) && sameValues(kept.base64Only, basic)
			? kept
			: buildForms(list, basic);
	attach(credentials, forms);
	attach(list, forms);
	return list;
}

export function scrubText(text: string, secrets: readonly string[]): string {
	if (secrets.length === 0) return text;
	return scrubWith(text, formsOf(secrets));
}

/** The value with every string (keys included) scrubbed; the same object when nothing was found. */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	return scrubValue(value, formsOf(secrets)) as T;
}

function scrubValue(value: unknown, forms: SecretForms): unknown {
	if (typeof value === 'string') return scrubWith(value, forms);
	if (Array.isArray(value)) {
		let changed = false;
		const copy = value.map((entry) => {
			const scrubbed = scrubValue(entry, forms);
			changed ||= scrubbed !== entry;
			return scrubbed;
		});
		return changed ? copy : value;
	}
	if (value && typeof value === 'object') {
		let changed = false;
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			const cleanKey = scrubWith(key, forms);
			const scrubbed = scrubValue(entry, forms);
			changed ||= scrubbed !== entry || cleanKey !== key;
			copy[cleanKey] = scrubbed;
		}
		return changed ? copy : value;
	}
	return value;
}

/**
 * Every span any form of a secret covers becomes one HIDDEN; overlapping spans are merged, so a
 * secret overlapping another leaves no part of either. A text holding none costs one regex pass.
 */
function scrubWith(text: string, forms: SecretForms): string {
	if (!forms.any.test(text)) return text;
	const spans: Array<[number, number]> = [];
	for (const form of forms.each) {
		form.lastIndex = 0;
		for (let found = form.exec(text); found; found = form.exec(text)) {
			spans.push([found.index, found.index + found[0].length]);
			form.lastIndex = found.index + 1;
		}
	}
	if (spans.length === 0) return text;
	spans.sort((a, b) => a[0] - b[0]);
	// Overlapping spans become one; touching ones stay apart, as two secrets side by side.
	const merged: Array<[number, number]> = [];
	for (const [from, to] of spans) {
		const last = merged[merged.length - 1];
		if (last && from < last[1]) last[1] = Math.max(last[1], to);
		else merged.push([from, to]);
	}
	let scrubbed = '';
	let at = 0;
	for (const [from, to] of merged) {
		scrubbed += text.slice(at, from) + HIDDEN;
		at = to;
	}
	return scrubbed + text.slice(at);
}

/** The forms a list carries, or (a list made elsewhere, or changed since) built and attached now. */
function formsOf(secrets: SecretList): SecretForms {
	const carried = secrets[FORMS];
	if (carried && sameValues(carried.values, secrets)) return carried;
	const forms = buildForms(secrets);
	attach(secrets, forms);
	return forms;
}

function attach(holder: object, forms: SecretForms): void {
	if (!Object.isExtensible(holder)) return;
	Object.defineProperty(holder, FORMS, { value: forms, configurable: true, writable: true });
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && a.every((value, index) => value === b[index]);
}

function buildForms(secrets: readonly string[], base64Only: readonly string[] = []): SecretForms {
	const sources: string[] = [];
	for (const secret of secrets) {
		// An empty value would match everywhere.
		if (secret.length > 0) sources.push(textPattern(secret), ...base64Patterns(secret, true));
	}
	for (const text of base64Only) sources.push(...base64Patterns(text, false));
	const unique = [...new Set(sources)];
	return {
		values: [...secrets],
		base64Only: [...base64Only],
		any: new RegExp(unique.length > 0 ? unique.join('|') : '(?!)'),
		each: unique.map((source) => new RegExp(source, 'g')),
	};
}

/** The secret as written, URL-encoded or JSON-escaped, each character in any of its forms. */
function textPattern(secret: string): string {
	let pattern = '';
	for (const char of secret) pattern += ASCII_PATTERNS[char.charCodeAt(0)] ?? charPattern(char);
	return pattern;
}

const JSON_SHORT_ESCAPES: Record<string, string> = {
	'"': '"',
	'\\': '\\',
	'/': '/',
	'\b': 'b',
	'\f': 'f',
	'\n': 'n',
	'\r': 'r',
	'\t': 't',
};

/**
 * A JSON escape's backslashes, also of JSON quoted in JSON (up to three levels deep). Bounded, so
 * a long run of backslashes costs a few steps per character, never a pass over the run each.
 */
const BACKSLASHES = '\\\\{1,8}';

function charPattern(char: string): string {
	const forms = [escapeRegExp(char)];
	forms.push(percentPattern(char));
	if (char === ' ') forms.push('\\+');
	const short = JSON_SHORT_ESCAPES[char];
	if (short !== undefined) forms.push(BACKSLASHES + escapeRegExp(short));
	if (!/^[A-Za-z0-9]$/.test(char)) {
		let units = '';
		for (let i = 0; i < char.length; i++) {
			units += `${BACKSLASHES}u${hexPattern(char.charCodeAt(i).toString(16).padStart(4, '0'))}`;
		}
		forms.push(units);
	}
	return `(?:${forms.join('|')})`;
}

/** Built once at load: most secrets are ASCII, so building a list's forms stays cheap. */
const ASCII_PATTERNS = Array.from({ length: 128 }, (_, code) =>
	charPattern(String.fromCharCode(code)),
);

/** The character's UTF-8 bytes as `%XX`, either hex case. */
function percentPattern(text: string): string {
	let pattern = '';
	for (const byte of Buffer.from(text, 'utf8')) {
		pattern += `%${hexPattern(byte.toString(16).padStart(2, '0'))}`;
	}
	return pattern;
}

function hexPattern(hex: string): string {
	return hex.replace(/[a-f]/gi, (digit) => `[${digit.toLowerCase()}${digit.toUpperCase()}]`);
}

/**
 * The text's base64, standard or URL-safe, with or without padding; with `embedded`, also the
 * characters its bytes alone decide when it sits at any offset inside a longer text's base64.
 */
function base64Patterns(text: string, embedded: boolean): string[] {
	const bytes = Buffer.from(text, 'utf8');
	const whole = bytes.toString('base64').replace(/=+$/, '');
	const patterns = [`${base64Pattern(whole)}(?:=|%3[dD]){0,2}`];
	if (!embedded) return patterns;
	for (const offset of [0, 1, 2]) {
		const shifted = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		// Character i holds bits 6i to 6i+6: kept when all of them are the secret's.
		const first = Math.ceil((8 * offset) / 6);
		const last = Math.floor((8 * (offset + bytes.length)) / 6);
		const fragment = shifted.slice(first, last);
		if (fragment.length >= MIN_BASE64_FRAGMENT) patterns.push(base64Pattern(fragment));
	}
	return patterns;
}

/** Both alphabets at once (`+` or `-`, `/` or `_`), and `+` and `/` URL-encoded or JSON-escaped. */
function base64Pattern(base64: string): string {
	return base64.replace(/[+/]/g, (char) =>
		char === '+' ? '(?:\\+|-|%2[bB])' : `(?:/|_|%2[fF]|${BACKSLASHES}/)`,
	);
}

function escapeRegExp(text: string): string {
	return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
