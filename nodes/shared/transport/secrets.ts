/**
 * Scrubbing by value: what the service echoes back passes through `scrubText` (or `scrubDeep`)
 * before it reaches an output item, an error or a log line, and before it is cut. The text is read
 * in a fixed set of decoded views; when a view holds 6 characters in a row of a secret, the secret's
 * whole forms are hidden, and a text still holding part of one is withheld whole. Why these views
 * and why this fails closed: docs/ARCHITECTURE.md ("Transport").
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

/** Longer than any answer the transport reads (1 MiB): such a text is withheld unread. */
const MAX_READ_LENGTH = 4 * 1024 * 1024;

/**
 * A secret inside the base64 of a longer text is found by the characters its bytes alone decide;
 * at least this many (72 bits), so unrelated base64 (a QR code, a file) is never hidden by chance.
 */
const MIN_BASE64_FRAGMENT = 12;

/** 6 bytes decide at least 7 base64 characters, whatever their offset (42 bits). */
const BASE64_RUN_LENGTH = 7;

/** Bound once: a global looked up per call is slow where the module runs in a VM context. */
const { imul, max, min } = Math;
const { fromCharCode, fromCodePoint } = String;
const hasOwnProperty = Object.prototype.hasOwnProperty;
const hasOwn = (object: object, key: string) => hasOwnProperty.call(object, key);

/** A list's search, carried by the list (not enumerable) and built on its first use. */
const SEARCH = Symbol('secretSearch');

interface SecretSearch {
	/** The values it is for: a list changed since gets a new one. */
	values: readonly string[];
	/** Texts hidden in their base64 forms only (`username:password`). */
	base64Only: readonly string[];
	/** Built by `built` on the first text scrubbed; most lists (a ledger request's) never need it. */
	parts?: Parts;
	whole?: WholeForms;
}

type SecretList = readonly string[] & { [SEARCH]?: SecretSearch };

/**
 * The secret values of a credential, longest first so a secret containing another is hidden whole.
 * The credential keeps the list's search (not enumerable), so the lists of a run's requests share
 * it until a value changes (a new token).
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
	const kept = (credentials as { [SEARCH]?: SecretSearch })[SEARCH];
	const search =
		kept && sameValues(kept.values, list) && sameValues(kept.base64Only, basic)
			? kept
			: { values: list, base64Only: basic };
	attach(credentials, search);
	attach(list, search);
	return list;
}

/**
 * What may be shown of a text the service sent: every whole secret hidden, or WITHHELD when part
 * of one is left. Every quoted service text passes through here (or `scrubDeep`) before it is cut.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
	if (secrets.length === 0) return text;
	return scrubWith(text, searchOf(secrets));
}

/** The value with every string (keys included) through `scrubText`; the same object when nothing was found. */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	const search = searchOf(secrets);
	return scrubValue(value, (text) => scrubWith(text, search)) as T;
}

/**
 * Whole secrets hidden, nothing withheld: for what the node writes itself around service text
 * scrubbed on arrival (the trigger's item and log lines), as a last net. Its own words ("collection",
 * "disbursement") may share a few letters with a password without repeating it.
 */
export function hideDeep<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	const search = searchOf(secrets);
	return scrubValue(value, (text) => hideWith(text, search)) as T;
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
 * A whole secret of 6 characters or more holds a run of them, so a text no view of which holds a
 * run holds no whole secret either and is shown as it is. Otherwise its whole forms are hidden, and
 * a text still holding a run is WITHHELD. Secrets shorter than a run are looked for whole always.
 */
function scrubWith(text: string, search: SecretSearch): string {
	if (text.length > MAX_READ_LENGTH) return WITHHELD;
	const parts = built(search);
	if (!parts.anyShort && !holdsPart(text, parts)) return text;
	const hidden = hideWhole(text, search);
	if (hidden === text && !parts.anyShort) return WITHHELD;
	return holdsPart(hidden, parts) ? WITHHELD : hidden;
}

function hideWith(text: string, search: SecretSearch): string {
	const parts = built(search);
	if (!parts.anyShort && text.length <= MAX_READ_LENGTH && !holdsPart(text, parts)) return text;
	return hideWhole(text, search);
}

/**
 * The decodings a text is read through, each undone up to MAX_DEPTH times (JSON quoted in JSON
 * quoted in JSON, a query encoded twice): all kinds at once (a secret quoted with several), and
 * each kind alone when a secret holds what reads as an escape of another kind (`\b`, `%41`,
 * `&amp;`): a quote in one kind leaves that as it is, and only undoing its own kind reads it right.
 */
const PERCENT = 1;
const JSON_ESCAPES = 2;
const HTML = 4;
const ALL_KINDS = PERCENT | JSON_ESCAPES | HTML;
const MAX_DEPTH = 3;

function chainsFor(secrets: readonly string[]): number[] {
	let lookalikes = 0;
	for (const secret of secrets)
		for (let at = 0; at < secret.length; at++)
			if (escapeAt(secret, at, ALL_KINDS)) lookalikes |= ESCAPE_LEADS[secret.charCodeAt(at)];
	const alone = [PERCENT, JSON_ESCAPES, HTML].filter((kind) => (lookalikes & ~kind) !== 0);
	return [ALL_KINDS, ...alone];
}

/**
 * Whether some view of the text holds a run of a secret: the text as it stands, or decoded by
 * one of the chains (`chainsFor`) up to MAX_DEPTH times; as text, in hex or in base64 (`holdsRunInView`). An
 * escape undone is also read as written between the decoded text around it (`decodeOnce`), for a
 * quote following a `%`, `\` or `&` of the text before it.
 */
function holdsPart(text: string, parts: Parts): boolean {
	if (parts.text.all.size + parts.hex.all.size === 0 || text.length < PARTIAL_ECHO_LENGTH)
		return false;
	if (holdsRunInView(text, parts)) return true;
	// Views already read: each with the view it was decoded from and the kinds undone.
	const decodedViews: Array<[string, number, string]> = [];
	for (const chain of parts.chains) {
		let view = text;
		for (let depth = 0; depth < MAX_DEPTH; depth++) {
			const kinds = chain & kindsIn(view);
			if (kinds === 0) break;
			const known = decodedViews.find(([from, undone]) => undone === kinds && from === view);
			if (known) {
				view = known[2];
				continue;
			}
			const decoded = decodeOnce(view, kinds, parts);
			if (decoded === FOUND_RUN) return true;
			decodedViews.push([view, kinds, decoded]);
			view = decoded;
		}
	}
	return false;
}

/** The kinds of escape that may start in the text. */
function kindsIn(text: string): number {
	return (
		(text.includes('%') ? PERCENT : 0) |
		(text.includes('\\') ? JSON_ESCAPES : 0) |
		(text.includes('&') ? HTML : 0)
	);
}

/**
 * The runs a text is searched for: the secret's characters, their UTF-8 bytes in lower-case hex
 * (6 bytes, 12 digits), and the base64 characters 6 bytes alone decide at each offset. Text and
 * base64 runs are kept in every spelling a text may give them (`+` for a space, as a form encodes
 * one; either base64 alphabet); a hex run is looked up in lower case.
 */
interface Parts {
	text: Runs;
	hex: Runs;
	base64: Runs;
	/**
	 * By the first three characters at a place (`startIndex`): which runs may start there
	 * (TEXT_RUN, HEX_RUN, BASE64_RUN), in any spelling. Most places start none.
	 */
	starts: Uint8Array;
	/** The same for the fourth to sixth characters of a run: a place passing both is looked up. */
	middles: Uint8Array;
	/** 1 for each ASCII pair of characters found side by side in a text run, in any spelling. */
	pairs: Uint8Array;
	/** 1 for each ASCII character some such pair starts with. */
	pairStarts: Uint8Array;
	/** Whether some text run starts with a character beyond ASCII (such places are always read). */
	wideStarts: boolean;
	/** Whether some secret is shorter than a run: its whole forms are looked for in every text. */
	anyShort: boolean;
	/** The kinds of escape undone together, for each chain of views (`chainsFor`). */
	chains: number[];
}

interface Runs {
	all: Set<string>;
}

const TEXT_RUN = 1;
const HEX_RUN = 2;
const BASE64_RUN = 4;

/** A form-encoded space and a `+` read alike. */
const canonical = (text: string) => (text.includes('+') ? text.replaceAll('+', ' ') : text);

/** The codes a run's character may be written with: a space as `+` too, a hex digit in either case, base64's two alphabets. */
function spellingsOf(code: number, kind: number): number[] {
	if (kind === TEXT_RUN) return code === 0x20 ? [code, 0x2b] : [code];
	if (kind === HEX_RUN) return code >= 0x61 && code <= 0x66 ? [code, code - 0x20] : [code];
	if (code === 0x2d) return [code, 0x2b];
	return code === 0x5f ? [code, 0x2f] : [code];
}

/** Where three ASCII codes are in `starts`: a hash, so a place may be read for nothing, never passed over. */
const startIndex = (a: number, b: number, c: number) =>
	imul((a << 14) | (b << 7) | c, 0x9e3779b1) >>> 16;

function addRun(parts: Parts, runs: Runs, kind: number, run: string): void {
	if (kind === HEX_RUN) runs.all.add(run);
	else for (const spelled of spellingsIn(run, kind)) runs.all.add(spelled);
	const wide = [0, 1, 2, 3, 4, 5].some((k) => run.charCodeAt(k) >= 128);
	if (wide) parts.wideStarts = true;
	else
		for (const [table, from] of [
			[parts.starts, 0],
			[parts.middles, 3],
		] as const)
			for (const a of spellingsOf(run.charCodeAt(from), kind))
				for (const b of spellingsOf(run.charCodeAt(from + 1), kind))
					for (const c of spellingsOf(run.charCodeAt(from + 2), kind))
						table[startIndex(a, b, c)] |= kind;
	if (kind !== TEXT_RUN) return;
	for (let k = 0; k + 1 < run.length; k++) {
		const [x, y] = [run.charCodeAt(k), run.charCodeAt(k + 1)];
		if (x >= 128 || y >= 128) continue;
		for (const a of spellingsOf(x, kind))
			for (const b of spellingsOf(y, kind)) {
				parts.pairs[128 * a + b] = 1;
				parts.pairStarts[a] = 1;
			}
	}
}

/** The run in every spelling of its characters (at most 2 to the run's length). */
function spellingsIn(run: string, kind: number): string[] {
	const places = [...run.matchAll(kind === TEXT_RUN ? / /g : /[-_]/g)].map((found) => found.index);
	const spelled: string[] = [];
	for (let choice = 0; choice < 1 << places.length; choice++) {
		const chars = run.split('');
		places.forEach((place, bit) => {
			if (choice & (1 << bit))
				chars[place] = String.fromCharCode(spellingsOf(run.charCodeAt(place), kind)[1]);
		});
		spelled.push(chars.join(''));
	}
	return spelled;
}

/** Whether the view holds a run: one pass, looking a run up only where its first characters allow one. */
function holdsRunInView(view: string, parts: Parts, from = 0, to = view.length): boolean {
	const { starts, middles, wideStarts } = parts;
	const last = to - PARTIAL_ECHO_LENGTH;
	for (let at = from; at <= last; at++) {
		const a = view.charCodeAt(at);
		const b = view.charCodeAt(at + 1);
		const c = view.charCodeAt(at + 2);
		let kinds =
			a < 128 && b < 128 && c < 128 ? starts[startIndex(a, b, c)] : wideStarts ? TEXT_RUN : 0;
		if (kinds === 0) continue;
		const [d, e, f] = [view.charCodeAt(at + 3), view.charCodeAt(at + 4), view.charCodeAt(at + 5)];
		if (d < 128 && e < 128 && f < 128)
			kinds &= middles[startIndex(d, e, f)] | (wideStarts ? TEXT_RUN : 0);
		if (kinds === 0) continue;
		if (kinds & TEXT_RUN && parts.text.all.has(view.slice(at, at + PARTIAL_ECHO_LENGTH)))
			return true;
		if (kinds & BASE64_RUN && parts.base64.all.has(view.slice(at, at + BASE64_RUN_LENGTH)))
			return true;
		const hex = kinds & HEX_RUN ? view.slice(at, at + 2 * PARTIAL_ECHO_LENGTH) : '';
		if (hex.length === 2 * PARTIAL_ECHO_LENGTH && parts.hex.all.has(hex.toLowerCase())) return true;
	}
	return false;
}

/** What `decodeOnce` answers when the view it decodes holds a run. */
const FOUND_RUN = Symbol('foundRun');

/**
 * One level of the escapes of `kinds` undone: `%XX` (the bytes of a UTF-8 character together),
 * JSON's `\uXXXX` and short escapes, HTML's character references. One backslash per escape: `\\/`
 * is an escaped backslash before a `/`, so it reads `\/` (a further level is a further pass).
 * What does not decode (a byte that is no UTF-8, an unknown entity, a code beyond Unicode) stays
 * as written, so what it may hide is read still. An escape undone may have been the text's own
 * characters before a quote (`100%` before `00…`): if the runs' pairs allow, it is read once more
 * as written, between the decoded text around it.
 */
function decodeOnce(text: string, kinds: number, parts: Parts): string | typeof FOUND_RUN {
	const out = new Uint16Array(text.length);
	let length = 0;
	// Escapes to read again as written: where each is in `out` and in `text`.
	const seams: number[] = [];
	// The last escape, when only the code decoded after it tells whether it may join a run.
	let [pendingFrom, pendingTo, pendingAt, pendingEnd] = [-1, 0, 0, 0];
	// Where escapes were undone in `out`: only places near them may hold a run the text did not.
	const changed: number[] = [];
	for (let at = 0; at < text.length; ) {
		const code = text.charCodeAt(at);
		const escape = code < 128 && (ESCAPE_LEADS[code] & kinds) !== 0 && escapeAt(text, at, kinds);
		if (pendingFrom >= 0) {
			const next = escape ? escapeRead.chars.charCodeAt(0) : code;
			if (pairIn(parts, text.charCodeAt(pendingEnd - 1), next))
				seams.push(pendingFrom, pendingTo, pendingAt, pendingEnd);
			pendingFrom = -1;
		}
		if (!escape) {
			out[length++] = code;
			at++;
			continue;
		}
		const { end, chars } = escapeRead;
		const joins = mayJoinRun(parts, length > 0 ? out[length - 1] : NaN, text, at, end);
		const from = length;
		for (let k = 0; k < chars.length; k++) out[length++] = chars.charCodeAt(k);
		if (changed.length > 0 && changed[changed.length - 1] === from)
			changed[changed.length - 1] = length;
		else changed.push(from, length);
		if (joins === JOINS) seams.push(from, length, at, end);
		if (joins === JOINS_IF_FOLLOWED)
			[pendingFrom, pendingTo, pendingAt, pendingEnd] = [from, length, at, end];
		at = end;
	}
	const decoded = textOf(out, length);
	const reach = PARTIAL_ECHO_LENGTH - 1;
	for (let k = 0; k < seams.length; k += 4) {
		const window =
			decoded.slice(max(0, seams[k] - reach), seams[k]) +
			text.slice(seams[k + 2], seams[k + 3]) +
			decoded.slice(seams[k + 1], seams[k + 1] + reach);
		if (holdsRunInView(window, parts)) return FOUND_RUN;
	}
	return holdsRunNear(decoded, changed, parts) ? FOUND_RUN : decoded;
}

/** The longest run, in characters: a hex run of 6 bytes. */
const LONGEST_RUN = 2 * PARTIAL_ECHO_LENGTH;

/**
 * Whether the decoded view holds a run that overlaps a place where an escape was undone
 * (`changed`: pairs of from and to); elsewhere it reads as the view it was decoded from.
 */
function holdsRunNear(view: string, changed: number[], parts: Parts): boolean {
	for (let k = 0; k < changed.length; ) {
		const from = max(0, changed[k] - LONGEST_RUN + 1);
		let to = changed[k + 1];
		// Places close enough to be read in one pass.
		for (k += 2; k < changed.length && changed[k] - to < LONGEST_RUN; k += 2) to = changed[k + 1];
		if (holdsRunInView(view, parts, from, min(view.length, to + LONGEST_RUN - 1))) return true;
	}
	return false;
}

/** The first `length` codes as a string, a slice at a time (a call takes only so many arguments). */
function textOf(codes: Uint16Array, length: number): string {
	const pieces: string[] = [];
	for (let at = 0; at < length; at += 8192) {
		const slice = codes.subarray(at, min(length, at + 8192));
		pieces.push(fromCharCode.apply(null, slice as unknown as number[]));
	}
	return pieces.join('');
}

/** The kind of escape each ASCII code may start (`%`, `\\`, `&`). */
const ESCAPE_LEADS = new Uint8Array(128);
ESCAPE_LEADS[0x25] = PERCENT;
ESCAPE_LEADS[0x5c] = JSON_ESCAPES;
ESCAPE_LEADS[0x26] = HTML;

const JOINS = 1;
const JOINS_IF_FOLLOWED = 2;

/** Whether two codes are side by side in some text run (beyond ASCII: maybe, so yes; NaN: no). */
function pairIn(parts: Parts, first: number, second: number): boolean {
	if (first !== first || second !== second) return false;
	return first >= 128 || second >= 128 || parts.pairs[128 * first + second] === 1;
}

/**
 * Whether the escape at `from` to `to`, read as written, could be inside a run: JOINS when some
 * pair of its characters, or with the character before it (NaN for none), is side by side in a
 * run; JOINS_IF_FOLLOWED when only its last character begins such a pair; else 0.
 */
function mayJoinRun(parts: Parts, before: number, text: string, from: number, to: number): number {
	let previous = before;
	for (let k = from; k < to; k++) {
		const code = text.charCodeAt(k);
		if (pairIn(parts, previous, code)) return JOINS;
		previous = code;
	}
	return previous >= 128 || parts.pairStarts[previous] === 1 ? JOINS_IF_FOLLOWED : 0;
}

/** The last escape `escapeAt` found: where it ends and the characters it spells. */
const escapeRead = { end: 0, chars: '' };

/** Whether an escape of `kinds` starts at `at`; if so, `escapeRead` holds it (no object made per place). */
function escapeAt(text: string, at: number, kinds: number): true | undefined {
	const code = text.charCodeAt(at);
	if (code === 0x25 && kinds & PERCENT) return percentAt(text, at);
	if (code === 0x5c && kinds & JSON_ESCAPES) return jsonAt(text, at);
	if (code === 0x26 && kinds & HTML) return htmlAt(text, at);
	return undefined;
}

/** The value of a hex digit's code; NaN for any other character. */
function hexDigit(code: number): number {
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	const lower = code | 0x20;
	return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : NaN;
}

/** The byte of a `%XX` at `at`, or NaN. */
const byteAt = (text: string, at: number) =>
	text.charCodeAt(at) === 0x25
		? 16 * hexDigit(text.charCodeAt(at + 1)) + hexDigit(text.charCodeAt(at + 2))
		: NaN;

/** A `%XX`: an ASCII byte, or the `%XX` bytes of one UTF-8 character. */
function percentAt(text: string, at: number): true | undefined {
	const lead = byteAt(text, at);
	if (!(lead >= 0)) return undefined;
	if (lead < 0x80) return read(at + 3, fromCharCode(lead));
	const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
	if (length === 0 || lead > 0xf4) return undefined;
	let point = lead & (0xff >> (length + 1));
	for (let k = 1; k < length; k++) {
		const next = byteAt(text, at + 3 * k);
		if (!((next & 0xc0) === 0x80)) return undefined;
		point = (point << 6) | (next & 0x3f);
	}
	const shortest = [0, 0, 0x80, 0x800, 0x10000][length];
	if (point < shortest || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff))
		return undefined;
	return read(at + 3 * length, fromCodePoint(point));
}

function jsonAt(text: string, at: number): true | undefined {
	const short = JSON_SHORT_BY_CODE[text.charCodeAt(at + 1)];
	if (short !== undefined) return read(at + 2, short);
	if (text.charCodeAt(at + 1) !== 0x75) return undefined;
	let unit = 0;
	for (let k = 2; k < 6; k++) {
		const digit = hexDigit(text.charCodeAt(at + k));
		if (!(digit >= 0)) return undefined;
		unit = 16 * unit + digit;
	}
	return read(at + 6, fromCharCode(unit));
}

/** HTML's `&#38;` and `&#x26;` (leading zeros not counted: at most 7 digits, 6 in hex), and the named entities of HTML_NAMES. */
function htmlAt(text: string, at: number): true | undefined {
	if (text.charCodeAt(at + 1) !== 0x23) {
		let to = at + 1;
		while (to - at <= 21 && isLetter(text.charCodeAt(to))) to++;
		if (to - at < 3 || to - at > 21 || text.charCodeAt(to) !== 0x3b) return undefined;
		const name = text.slice(at + 1, to);
		return hasOwn(ENTITY_CHAR, name) ? read(to + 1, ENTITY_CHAR[name]) : undefined;
	}
	const hex = (text.charCodeAt(at + 2) | 0x20) === 0x78;
	const [radix, most, first] = hex ? [16, 6, at + 3] : [10, 7, at + 2];
	let code = 0;
	let digits = 0;
	let to = first;
	for (; digits <= most; to++) {
		const digit = hexDigit(text.charCodeAt(to));
		if (!(digit < radix)) break;
		code = code * radix + digit;
		if (code > 0) digits++;
	}
	if (to === first || digits > most || text.charCodeAt(to) !== 0x3b || code > 0x10ffff)
		return undefined;
	return read(to + 1, fromCodePoint(code));
}

const isLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

function read(end: number, chars: string): true {
	escapeRead.end = end;
	escapeRead.chars = chars;
	return true;
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

/** The search of the list, built now if it is the list's first text. */
function built(search: SecretSearch): Parts {
	search.parts ??= partsOf(search.values);
	return search.parts;
}

function partsOf(secrets: readonly string[]): Parts {
	const runs = (): Runs => ({ all: new Set() });
	const parts: Parts = {
		text: runs(),
		hex: runs(),
		base64: runs(),
		starts: new Uint8Array(0x10000),
		middles: new Uint8Array(0x10000),
		pairs: new Uint8Array(128 * 128),
		pairStarts: new Uint8Array(128),
		wideStarts: false,
		anyShort: false,
		chains: chainsFor(secrets),
	};
	for (const secret of secrets) {
		// An empty value would match everywhere.
		if (secret.length === 0) continue;
		if (secret.length < PARTIAL_ECHO_LENGTH) parts.anyShort = true;
		for (let at = 0; at + PARTIAL_ECHO_LENGTH <= secret.length; at++)
			addRun(parts, parts.text, TEXT_RUN, canonical(secret.slice(at, at + PARTIAL_ECHO_LENGTH)));
		addByteRuns(secret, parts);
	}
	return parts;
}

/** Every 6 bytes of the secret in hex, and in base64 at each of the 3 offsets a byte may take. */
function addByteRuns(secret: string, parts: Parts): void {
	const bytes = Buffer.from(secret, 'utf8');
	for (let at = 0; at + PARTIAL_ECHO_LENGTH <= bytes.length; at++) {
		const run = bytes.subarray(at, at + PARTIAL_ECHO_LENGTH);
		addRun(parts, parts.hex, HEX_RUN, run.toString('hex'));
		for (const offset of [0, 1, 2]) {
			const shifted = Buffer.concat([Buffer.alloc(offset), run]).toString('base64url');
			const decided = shifted.slice(Math.ceil((8 * offset) / 6)).slice(0, BASE64_RUN_LENGTH);
			addRun(parts, parts.base64, BASE64_RUN, decided);
		}
	}
}

/** Every whole form of every secret, to hide in place: one expression to tell, one per form for the spans. */
interface WholeForms {
	any: RegExp;
	each: RegExp[];
}

/**
 * Every span any whole form of a secret covers becomes one HIDDEN; overlapping spans are merged,
 * so a secret overlapping another leaves no part of either; touching ones stay apart.
 */
function hideWhole(text: string, search: SecretSearch): string {
	search.whole ??= wholeFormsOf(search.values, search.base64Only);
	const { any, each } = search.whole;
	if (!any.test(text)) return text;
	const spans: Array<[number, number]> = [];
	for (const form of each) {
		form.lastIndex = 0;
		for (let found = form.exec(text); found; found = form.exec(text)) {
			spans.push([found.index, found.index + found[0].length]);
			form.lastIndex = found.index + 1;
		}
	}
	spans.sort((a, b) => a[0] - b[0]);
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

function wholeFormsOf(secrets: readonly string[], base64Only: readonly string[]): WholeForms {
	const sources: string[] = [];
	for (const secret of secrets) {
		if (secret.length === 0) continue;
		sources.push(textPattern(secret), hexPattern(toHex(secret)), ...base64Patterns(secret, true));
	}
	for (const text of base64Only) sources.push(...base64Patterns(text, false));
	const unique = [...new Set(sources)];
	return {
		any: new RegExp(unique.length > 0 ? unique.join('|') : '(?!)'),
		each: unique.map((source) => new RegExp(source, 'g')),
	};
}

/** The search a list carries, or (a list made elsewhere, or changed since) a new one attached now. */
function searchOf(secrets: SecretList): SecretSearch {
	const carried = secrets[SEARCH];
	if (carried && sameValues(carried.values, secrets)) return carried;
	const search: SecretSearch = { values: [...secrets], base64Only: [] };
	attach(secrets, search);
	return search;
}

function attach(holder: object, search: SecretSearch): void {
	if (!Object.isExtensible(holder)) return;
	Object.defineProperty(holder, SEARCH, { value: search, configurable: true, writable: true });
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && a.every((value, index) => value === b[index]);
}

const toHex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

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
