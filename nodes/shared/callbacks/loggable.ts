/**
 * Anything a caller sent (or a service answered) that goes into a log line or a reply passes
 * through here: cut to a few dozen characters and with control characters escaped, so a 900 KB
 * field cannot flood the log and a new line cannot forge a log line of its own.
 */
export const MAX_LOGGED_CHARS = 64;

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function loggable(value: unknown, maxChars = MAX_LOGGED_CHARS): string {
	const text = typeof value === 'string' ? value : safeString(value);
	const kept = Array.from(text.slice(0, maxChars * 2)).slice(0, maxChars);
	const escaped = kept.map(escapeChar).join('');
	const cut = text.length > kept.join('').length ? `... (${text.length} characters)` : '';
	return escaped + cut;
}

function safeString(value: unknown): string {
	if (value === undefined) return 'undefined';
	try {
		return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
	} catch {
		return '[unreadable]';
	}
}

/** C0 and C1 controls, DEL and the Unicode line and paragraph separators. */
function escapeChar(char: string): string {
	const code = char.charCodeAt(0);
	const control =
		code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
	if (!control) return char;
	return ESCAPES[char] ?? `\\u${code.toString(16).padStart(4, '0')}`;
}
