/**
 * Scrubbing by value: whatever the service echoes back (a password in a token error, the
 * Authorization header quoted in a 422 message, a token inside a record) passes through
 * `scrubText` before it can reach an output item, an error or a log line, and before it is cut to
 * length (a cut secret would no longer be recognised). Field names prove nothing, so only values
 * count.
 *
 * A secret may come back in another form than written: the collection token request carries the
 * password in its query string and the disbursement one in a JSON body, and a service or proxy
 * quotes them encoded. So each secret is hidden in every form it may take:
 * - as written;
 * - URL-encoded once or twice: any character as `%XX` or `%25XX` (UTF-8, either hex case) or as
 *   itself, a space as `+`, `%2B` or `%20` (encodeURIComponent's, qs's and URLSearchParams' forms);
 * - JSON-escaped, once or more (JSON quoted inside JSON, up to three levels): `\"`, `\\`, `\/`,
 *   control characters, and `\uXXXX` (either hex case) for any character, letters included;
 * - HTML entities: named (`&amp;`), decimal (`&#38;`) and hex (`&#x26;`);
 * - the whole secret's UTF-8 bytes in hex, either case;
 * - base64 and base64url, with or without padding (`=` or `%3D`), alone or inside the base64 of a
 *   longer text (Basic auth's `username:password`).
 *
 * What is left may still hold part of a secret: a service quoting the password in two pieces, or a
 * quote cut inside one. A text that, hidden values aside, still holds 6 characters in a row of a
 * secret (as written, decoded from the escapes above, in hex or in base64) is withheld whole:
 * `scrubText` answers WITHHELD in its place. Each escape is read both as written and undone, since
 * the text around a quote, or a secret itself, may hold what reads as an escape of another kind.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const HIDDEN = '[hidden]';

/** Why a text that still held part of a secret, once every whole one was hidden, is not shown. */
export const WITHHELD_REASON = "the service's text was withheld because it repeated a secret";

/** What stands for such a text. */
export const WITHHELD = `[${WITHHELD_REASON}]`;

/** Shorter values would hide ordinary words and digits; no real secret of the service is this short. */
const MIN_SECRET_LENGTH = 4;

/** A run of this many characters of a secret is part of it, and withholds the text holding it. */
export const PARTIAL_ECHO_LENGTH = 6;

/**
 * A secret inside the base64 of a longer text is found by the characters its bytes alone decide;
 * at least this many (72 bits), so unrelated base64 (a QR code, a file) is never hidden by chance.
 */
const MIN_BASE64_FRAGMENT = 12;

/** 6 bytes decide at least 7 base64 characters, whatever their offset (42 bits). */
const BASE64_RUN_LENGTH = 7;

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
	/** The runs of PARTIAL_ECHO_LENGTH characters of each secret, a space for `+` (see `canonical`). */
	runs: Runs;
	/** The same runs' UTF-8 bytes in lower-case hex (6 bytes, 12 digits). */
	hexRuns: Runs;
	/** The base64url characters 6 bytes of a secret alone decide, at each offset (7 characters). */
	base64Runs: Runs;
	/** The runs as a tree of character codes, for reading them through escapes (`RunTree`). */
	runTree: RunTree;
	/** The kinds of escape some secret holds a look-alike of (`holdsPart` reads around each). */
	lookalikes: EscapeKind[];
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

/**
 * What may be shown of a text the service sent: every whole secret hidden, or WITHHELD when part
 * of one is left. Every quoted service text passes through here (or `scrubDeep`) before it is cut.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
	if (secrets.length === 0) return text;
	return scrubWith(text, formsOf(secrets));
}

/** The value with every string (keys included) through `scrubText`; the same object when nothing was found. */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	const forms = formsOf(secrets);
	return scrubValue(value, (text) => scrubWith(text, forms)) as T;
}

/**
 * Whole secrets hidden, nothing withheld: for what the node writes itself around service text
 * scrubbed on arrival (the trigger's item and log lines), as a last net. Its own words ("collection",
 * "disbursement") may share a few letters with a password without repeating it.
 */
export function hideDeep<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	const forms = formsOf(secrets);
	return scrubValue(value, (text) => hideWhole(text, forms)) as T;
}

function scrubValue(value: unknown, scrub: (text: string) => string): unknown {
	if (typeof value === 'string') return scrub(value);
	if (Array.isArray(value)) {
		let changed = false;
		const copy = value.map((entry) => {
			const scrubbed = scrubValue(entry, scrub);
			changed ||= scrubbed !== entry;
			return scrubbed;
		});
		return changed ? copy : value;
	}
	if (value && typeof value === 'object') {
		let changed = false;
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			const cleanKey = scrub(key);
			const scrubbed = scrubValue(entry, scrub);
			changed ||= scrubbed !== entry || cleanKey !== key;
			copy[cleanKey] = scrubbed;
		}
		return changed ? copy : value;
	}
	return value;
}

/**
 * Every span any form of a secret covers becomes one HIDDEN; overlapping spans are merged, so a
 * secret overlapping another leaves no part of either. Then a text still holding part of a secret
 * becomes WITHHELD. A text holding none costs one regex pass and one look at its runs.
 */
function scrubWith(text: string, forms: SecretForms): string {
	const hidden = hideWhole(text, forms);
	return holdsPart(hidden, forms) ? WITHHELD : hidden;
}

function hideWhole(text: string, forms: SecretForms): string {
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

/**
 * Whether the text holds PARTIAL_ECHO_LENGTH characters in a row of a secret: as it stands, or
 * once decoded (up to three times, for an escape of an escape of JSON quoted in JSON), or in hex
 * or base64 in any of those. A secret that itself holds what reads as an escape (`\b`, `%41`,
 * `&amp;`) would be changed by decoding that kind where the quote did not encode it, so each pass
 * is also made without each such kind (`forms.lookalikes`); other secrets cost one reading a pass.
 */
function holdsPart(text: string, forms: SecretForms): boolean {
	if (forms.runs.all.size === 0 || text.length < PARTIAL_ECHO_LENGTH) return false;
	const readings = [
		ALL_KINDS,
		...forms.lookalikes.map((kind) => ALL_KINDS.filter((k) => k !== kind)),
	];
	const seen = new Set([text]);
	let views = [text];
	for (let depth = 0; views.length > 0; depth++) {
		// The quote as it stands is read every way its escapes may be meant (`holdsRunInSomeReading`);
		// a decoded view, in the one way each of its readings gives.
		for (const view of views) if (holdsRunInView(view, forms, depth === 0)) return true;
		if (depth === MAX_DECODE_DEPTH) break;
		const next: string[] = [];
		for (const view of views) {
			for (const kinds of readings) {
				const decoded = decodeOnce(view, kinds);
				if (seen.has(decoded)) continue;
				seen.add(decoded);
				next.push(decoded);
			}
		}
		views = next;
	}
	return false;
}

/** Escapes of escapes undone at most this many times (JSON quoted in JSON quoted in JSON). */
const MAX_DECODE_DEPTH = 3;

function holdsRunInView(view: string, forms: SecretForms, everyReading: boolean): boolean {
	return (
		(everyReading
			? holdsRunInSomeReading(view, forms.runs, forms.runTree)
			: holdsRun(canonical(view), forms.runs)) ||
		holdsEncodedRun(view, HEX_STRETCH, forms.hexRuns, (run) => run.toLowerCase()) ||
		holdsEncodedRun(view, BASE64_STRETCH, forms.base64Runs, base64url)
	);
}

/** A form-encoded space and a `+` read alike, in the runs and in the text they are looked for in. */
const canonical = (text: string) => (text.includes('+') ? text.replace(/\+/g, ' ') : text);
const base64url = (text: string) => text.replace(/[+/]/g, (char) => (char === '+' ? '-' : '_'));

/**
 * Runs of one length, and the pairs of ASCII characters they start with: a place of a text that
 * starts no run's pair is passed over without taking its run out of the text.
 */
interface Runs {
	length: number;
	all: Set<string>;
	/** 1 at `128 * first + second` for each run's first two characters (ASCII). */
	starts: number[];
}

function runsOf(length: number): Runs {
	return { length, all: new Set(), starts: new Array<number>(128 * 128).fill(0) };
}

function addRun(runs: Runs, run: string): void {
	runs.all.add(run);
	const first = run.charCodeAt(0);
	const second = run.charCodeAt(1);
	if (first < 128 && second < 128) runs.starts[128 * first + second] = 1;
}

function holdsRun(text: string, { length, all, starts }: Runs): boolean {
	for (let at = 0; at + length <= text.length; at++) {
		const first = text.charCodeAt(at);
		const second = text.charCodeAt(at + 1);
		if (first < 128 && second < 128 && starts[128 * first + second] === 0) continue;
		if (all.has(text.slice(at, at + length))) return true;
	}
	return false;
}

/**
 * Whether some reading of the text holds a run, each escape in it read as written or undone: the
 * quote's own text may read as an escape with the secret's first characters (`100%` before `00…`),
 * and a secret's characters may read as one (`\b` beside an HTML entity). Depth-first from each
 * place, along the runs' tree (`RunTree`) while the characters read so far begin a run; an escape
 * is read wherever one starts, so readings that pair characters differently are among them too.
 */
function holdsRunInSomeReading(text: string, runs: Runs, tree: RunTree): boolean {
	if (!/[%\\&]/.test(text)) return holdsRun(canonical(text), runs);
	// The readings still open: where each goes on, and the tree's node it has reached.
	const openAt: number[] = [];
	const openNode: number[] = [];
	/** Reads `chars` on from `node`: true when they complete a run, else the reading stays open. */
	const follow = (at: number, node: number, chars: string, from = 0) => {
		for (let k = from; k < chars.length && node > 0; k++)
			node = step(tree, node, chars.charCodeAt(k));
		if (node === RUN_END) return true;
		if (node > 0) {
			openAt.push(at);
			openNode.push(node);
		}
		return false;
	};
	for (let start = 0; start < text.length; start++) {
		// A reading may also start inside what an escape of several characters spells.
		if (readEscapeAt(text, start)) {
			const { end, chars } = escapeRead;
			for (let k = 0; k < chars.length; k++) if (follow(end, ROOT, chars, k)) return true;
		}
		const first = step(tree, ROOT, canonicalCode(text.charCodeAt(start)));
		if (first === RUN_END) return true;
		if (first > 0) {
			openAt.push(start + 1);
			openNode.push(first);
		}
		while (openAt.length > 0) {
			const at = openAt.pop()!;
			const node = openNode.pop()!;
			if (at >= text.length) continue;
			const next = step(tree, node, canonicalCode(text.charCodeAt(at)));
			if (next === RUN_END) return true;
			if (next > 0) {
				openAt.push(at + 1);
				openNode.push(next);
			}
			if (readEscapeAt(text, at) && follow(escapeRead.end, node, escapeRead.chars)) return true;
		}
	}
	return false;
}

/**
 * The runs of PARTIAL_ECHO_LENGTH characters as a tree: from each node, a character's code leads to
 * the next node; a run's last character leads to RUN_END. Node numbers start at ROOT (1); 0 is none.
 */
interface RunTree {
	nodes: Array<Map<number, number>>;
	/** 1 at the code of each run's first character: most places start none, found without a Map. */
	starts: Uint8Array;
}
const ROOT = 1;
const RUN_END = -1;

/** The node after `code` from `node`: RUN_END when that completes a run, 0 when no run goes on so. */
function step(tree: RunTree, node: number, code: number): number {
	if (node === ROOT && tree.starts[code] !== 1) return 0;
	return tree.nodes[node]?.get(code) ?? 0;
}

function addToTree(tree: RunTree, run: string): void {
	const { nodes } = tree;
	nodes[ROOT] ??= new Map();
	tree.starts[run.charCodeAt(0)] = 1;
	let node = ROOT;
	for (let k = 0; k < run.length; k++) {
		const code = run.charCodeAt(k);
		if (k === run.length - 1) {
			nodes[node].set(code, RUN_END);
			return;
		}
		const existing = nodes[node].get(code);
		if (existing !== undefined && existing > 0) {
			node = existing;
			continue;
		}
		nodes.push(new Map());
		nodes[node].set(code, nodes.length - 1);
		node = nodes.length - 1;
	}
}

/** `&#` at `at`: a decimal or hex character reference read into `escapeRead`, as ESCAPE_AT reads one. */
function readNumbered(text: string, at: number): boolean {
	const hex = (text.charCodeAt(at + 2) | 0x20) === 0x78;
	const [radix, most] = hex ? [16, 6] : [10, 7];
	let code = 0;
	let digits = 0;
	let to = at + (hex ? 3 : 2);
	for (; to < text.length && digits <= most; to++) {
		const digit = hexDigit(text.charCodeAt(to));
		if (!(digit < radix)) break;
		code = code * radix + digit;
		// Leading zeros do not count toward the digits allowed, as in ESCAPE_AT.
		if (code > 0) digits++;
	}
	if (to === at + (hex ? 3 : 2) || digits > most || text.charCodeAt(to) !== 0x3b) return false;
	escapeRead.end = to + 1;
	escapeRead.chars =
		code <= 0x10ffff ? canonical(String.fromCodePoint(code)) : text.slice(at, to + 1);
	return true;
}

/** The value of a hex digit's code; NaN for any other character. */
function hexDigit(code: number): number {
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	const lower = code | 0x20;
	return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : NaN;
}

/** A character's code as `canonical` reads it: `+` as a space. */
const canonicalCode = (code: number) => (code === 0x2b ? 0x20 : code);

/** `%`, `\\` or `&`: where an escape may start. */
const isEscapeStart = (code: number) => code === 0x25 || code === 0x5c || code === 0x26;

/** One escape: a `%XX` (the bytes of one UTF-8 character together), JSON's, or HTML's. */
const ESCAPE_AT =
	/(%[0-7][0-9A-Fa-f]|%[89A-Fa-f][0-9A-Fa-f](?:%[89A-Fa-f][0-9A-Fa-f])*)|\\u([0-9A-Fa-f]{4})|\\(["\\/bfnrt])|&#(?:[xX]0*([0-9A-Fa-f]{1,6})|0*([0-9]{1,7}));|&([A-Za-z]{2,20});/y;

/** The last escape `readEscapeAt` found: where it ends and the characters it spells, as read. */
const escapeRead = { end: 0, chars: '' };

/** Whether an escape starts at `at`; if so, `escapeRead` holds it (no object made per place). */
function readEscapeAt(text: string, at: number): boolean {
	if (!isEscapeStart(text.charCodeAt(at))) return false;
	// JSON's short escapes, the commonest, without the expression.
	const shortChar =
		text.charCodeAt(at) === 0x5c ? JSON_SHORT_BY_CODE[text.charCodeAt(at + 1)] : undefined;
	if (shortChar !== undefined) {
		escapeRead.end = at + 2;
		escapeRead.chars = shortChar;
		return true;
	}
	// An ASCII `%XX`, the other commonest, likewise.
	const byte =
		text.charCodeAt(at) === 0x25
			? 16 * hexDigit(text.charCodeAt(at + 1)) + hexDigit(text.charCodeAt(at + 2))
			: NaN;
	if (byte < 0x80) {
		escapeRead.end = at + 3;
		escapeRead.chars = byte === 0x2b ? ' ' : String.fromCharCode(byte);
		return true;
	}
	// HTML's numbered references, `&#38;` and `&#x26;`, likewise.
	if (text.charCodeAt(at) === 0x26 && text.charCodeAt(at + 1) === 0x23)
		return readNumbered(text, at);
	ESCAPE_AT.lastIndex = at;
	const found = ESCAPE_AT.exec(text);
	if (!found) return false;
	const [escape, percent, unit, short, hex, decimal, name] = found;
	const chars =
		percent !== undefined
			? percentDecoded(percent)
			: escape[0] === '\\'
				? jsonChar(unit, short)
				: htmlChar(escape, hex, decimal, name);
	escapeRead.end = at + escape.length;
	escapeRead.chars = canonical(chars);
	return true;
}

const HEX_STRETCH = /[0-9A-Fa-f]{12,}/g;
const BASE64_STRETCH = /[A-Za-z0-9+/_-]{7,}/g;

/** Each stretch of the encoding's alphabet, in its canonical spelling, looked through for a run. */
function holdsEncodedRun(
	text: string,
	stretch: RegExp,
	runs: Runs,
	spelling: (run: string) => string,
): boolean {
	stretch.lastIndex = 0;
	for (let found = stretch.exec(text); found; found = stretch.exec(text)) {
		if (holdsRun(spelling(found[0]), runs)) return true;
	}
	return false;
}

/** Named HTML entities of the characters a secret may hold; other characters are numbered. */
const HTML_NAMES: Record<string, string> = {
	'&': 'amp|AMP',
	'<': 'lt|LT',
	'>': 'gt|GT',
	'"': 'quot|QUOT',
	"'": 'apos',
	'!': 'excl',
	'#': 'num',
	$: 'dollar',
	'%': 'percnt',
	'(': 'lpar',
	')': 'rpar',
	'*': 'ast|midast',
	'+': 'plus',
	',': 'comma',
	'.': 'period',
	'/': 'sol',
	':': 'colon',
	';': 'semi',
	'=': 'equals',
	'?': 'quest',
	'@': 'commat',
	'[': 'lsqb|lbrack',
	'\\': 'bsol',
	']': 'rsqb|rbrack',
	'^': 'Hat',
	_: 'lowbar|UnderBar',
	'`': 'grave|DiacriticalGrave',
	'{': 'lcub|lbrace',
	'|': 'verbar|vert|VerticalLine',
	'}': 'rcub|rbrace',
	'~': 'tilde',
	'-': 'hyphen|dash',
	'\u00a0': 'nbsp|NonBreakingSpace',
	'\t': 'Tab',
	'\n': 'NewLine',
};

/** The character of each named entity, by name. */
const ENTITY_CHAR: Record<string, string> = Object.fromEntries(
	Object.entries(HTML_NAMES).flatMap(([char, names]) =>
		names.split('|').map((name) => [name, char]),
	),
);

/**
 * One level of the escapes a secret may be quoted in, by kind: `%XX` runs (UTF-8), JSON's
 * `\uXXXX` and short escapes, HTML's character references. `+` is left: `canonical` reads it as a
 * space. One backslash per escape: `\\/` is an escaped backslash before a `/`, so it reads `\/`,
 * never `/` (each further level of JSON quoting is undone by a further pass). The kinds start with
 * different characters and never overlap, so one pass reads them all.
 */
const ESCAPE =
	/(?:%[0-9A-Fa-f]{2})+|\\u([0-9A-Fa-f]{4})|\\(["\\/bfnrt])|&#(?:[xX]0*([0-9A-Fa-f]{1,6})|0*([0-9]{1,7}));|&([A-Za-z]{2,20});/g;

type EscapeKind = 'percent' | 'json' | 'html';
const ALL_KINDS: readonly EscapeKind[] = ['percent', 'json', 'html'];
const KIND_OF_FIRST: Record<string, EscapeKind> = { '%': 'percent', '\\': 'json', '&': 'html' };

/** The kinds of escape a secret holds a look-alike of, as written. */
function lookalikesIn(secret: string): EscapeKind[] {
	const kinds = new Set<EscapeKind>();
	for (const [found] of secret.matchAll(ESCAPE)) kinds.add(KIND_OF_FIRST[found[0]]);
	return [...kinds];
}

/** `%XX` escapes as the characters they spell: ASCII directly, other bytes as UTF-8. */
function percentDecoded(escapes: string): string {
	let ascii = '';
	for (let at = 0; at < escapes.length; at += 3) {
		const byte = parseInt(escapes.slice(at + 1, at + 3), 16);
		if (byte >= 0x80) return Buffer.from(escapes.replace(/%/g, ''), 'hex').toString('utf8');
		ascii += String.fromCharCode(byte);
	}
	return ascii;
}

/** One level of the escapes of `kinds` undone; the others are left as written. */
function decodeOnce(text: string, kinds: readonly EscapeKind[]): string {
	if (!/[%\\&]/.test(text)) return text;
	const every = kinds.length === ALL_KINDS.length;
	return text.replace(ESCAPE, (found, unit, short, hex, decimal, name) => {
		if (!every && !kinds.includes(KIND_OF_FIRST[found[0]])) return found;
		const first = found.charCodeAt(0);
		if (first === 0x25) return percentDecoded(found);
		if (first === 0x5c) return jsonChar(unit, short);
		return htmlChar(found, hex, decimal, name);
	});
}

function jsonChar(unit: string | undefined, short: string | undefined): string {
	if (unit !== undefined) return String.fromCharCode(parseInt(unit, 16));
	return JSON_SHORT_UNESCAPES[short!] ?? short!;
}

function htmlChar(
	found: string,
	hex: string | undefined,
	decimal: string | undefined,
	name: string | undefined,
): string {
	if (hex !== undefined || decimal !== undefined) {
		const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
		return code <= 0x10ffff ? String.fromCodePoint(code) : found;
	}
	return name !== undefined && Object.prototype.hasOwnProperty.call(ENTITY_CHAR, name)
		? ENTITY_CHAR[name]
		: found;
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
	const runs = runsOf(PARTIAL_ECHO_LENGTH);
	const hexRuns = runsOf(2 * PARTIAL_ECHO_LENGTH);
	const base64Runs = runsOf(BASE64_RUN_LENGTH);
	const lookalikes = new Set<EscapeKind>();
	const runTree: RunTree = { nodes: [new Map()], starts: new Uint8Array(0x10000) };
	for (const secret of secrets) {
		// An empty value would match everywhere.
		if (secret.length === 0) continue;
		sources.push(textPattern(secret), hexPattern(toHex(secret)), ...base64Patterns(secret, true));
		for (let at = 0; at + PARTIAL_ECHO_LENGTH <= secret.length; at++) {
			const run = canonical(secret.slice(at, at + PARTIAL_ECHO_LENGTH));
			addRun(runs, run);
			addToTree(runTree, run);
		}
		addByteRuns(secret, hexRuns, base64Runs);
		for (const kind of lookalikesIn(secret)) lookalikes.add(kind);
	}
	for (const text of base64Only) sources.push(...base64Patterns(text, false));
	const unique = [...new Set(sources)];
	return {
		values: [...secrets],
		base64Only: [...base64Only],
		any: new RegExp(unique.length > 0 ? unique.join('|') : '(?!)'),
		each: unique.map((source) => new RegExp(source, 'g')),
		runs,
		hexRuns,
		base64Runs,
		runTree,
		lookalikes: [...lookalikes],
	};
}

const toHex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

/** Every 6 bytes of the secret in hex, and in base64 at each of the 3 offsets a byte may take. */
function addByteRuns(secret: string, hexRuns: Runs, base64Runs: Runs): void {
	const bytes = Buffer.from(secret, 'utf8');
	for (let at = 0; at + PARTIAL_ECHO_LENGTH <= bytes.length; at++) {
		const run = bytes.subarray(at, at + PARTIAL_ECHO_LENGTH);
		addRun(hexRuns, run.toString('hex'));
		for (const offset of [0, 1, 2]) {
			const shifted = Buffer.concat([Buffer.alloc(offset), run]).toString('base64url');
			addRun(base64Runs, shifted.slice(Math.ceil((8 * offset) / 6)).slice(0, BASE64_RUN_LENGTH));
		}
	}
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

const JSON_SHORT_UNESCAPES: Record<string, string> = Object.fromEntries(
	Object.entries(JSON_SHORT_ESCAPES).map(([char, short]) => [short, char]),
);

/** The same by the code of the character after the backslash, for reading escapes place by place. */
const JSON_SHORT_BY_CODE: Array<string | undefined> = Array.from({ length: 128 }, (_, code) =>
	Object.prototype.hasOwnProperty.call(JSON_SHORT_UNESCAPES, String.fromCharCode(code))
		? JSON_SHORT_UNESCAPES[String.fromCharCode(code)]
		: undefined,
);

/**
 * A JSON escape's backslashes, also of JSON quoted in JSON (up to three levels deep). Bounded, so
 * a long run of backslashes costs a few steps per character, never a pass over the run each.
 */
const BACKSLASHES = '\\\\{1,8}';

function charPattern(char: string): string {
	const forms = [escapeRegExp(char), percentPattern(char)];
	if (char === ' ') forms.push('\\+|%2[bB]');
	const short = JSON_SHORT_ESCAPES[char];
	if (short !== undefined) forms.push(BACKSLASHES + escapeRegExp(short));
	let units = '';
	for (let i = 0; i < char.length; i++) {
		units += `${BACKSLASHES}u${hexPattern(char.charCodeAt(i).toString(16).padStart(4, '0'))}`;
	}
	forms.push(units);
	const code = char.codePointAt(0) ?? 0;
	forms.push(`&#0*${code};`, `&#[xX]0*${hexPattern(code.toString(16))};`);
	const names = HTML_NAMES[char];
	if (names !== undefined) forms.push(`&(?:${names});`);
	return `(?:${forms.join('|')})`;
}

/** Built once at load: most secrets are ASCII, so building a list's forms stays cheap. */
const ASCII_PATTERNS = Array.from({ length: 128 }, (_, code) =>
	charPattern(String.fromCharCode(code)),
);

/** The character's UTF-8 bytes as `%XX` or, encoded twice, `%25XX`, either hex case. */
function percentPattern(text: string): string {
	let pattern = '';
	for (const byte of Buffer.from(text, 'utf8')) {
		pattern += `%(?:25)?${hexPattern(byte.toString(16).padStart(2, '0'))}`;
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
