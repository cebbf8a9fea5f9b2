/**
 * The callback body as one JSON object, read from the bytes that arrived (n8n's `rawBody`) so
 * that the content type cannot change what is read: a form (urlencoded or multipart), or JSON
 * encoded twice as a string, is not a callback. A callback is small and shallow: anything
 * bigger or deeper is refused before any check reads it (n8n's own deepCopy and JSON.stringify
 * overflow the stack on deep data).
 */
export const MAX_BODY_BYTES = 1024 * 1024;
/** The service's deepest field is data.transaction.channel.category (5 levels). */
export const MAX_BODY_DEPTH = 32;

export interface RequestBody {
	/** What n8n parsed; never read here, as it depends on the content type the sender chose. */
	body?: unknown;
	/** The bytes that arrived; n8n reads them for every body but a multipart form. */
	rawBody?: Buffer;
}

export type JsonBody =
	| { ok: true; body: Record<string, unknown>; text: string }
	| { ok: false; reason: string };

export function readJsonObject(request: RequestBody): JsonBody {
	const bad = (reason: string): JsonBody => ({ ok: false, reason });
	const raw = request.rawBody;
	if (raw === undefined) return bad('the body is not JSON');
	if (raw.length > MAX_BODY_BYTES) return bad(`the body is larger than ${MAX_BODY_BYTES} bytes`);
	// JSON is UTF-8 (RFC 8259); a byte order mark may lead it, as n8n's own parser allows.
	const text = raw.toString('utf8').replace(/^\uFEFF/, '');
	if (text.trim() === '') return bad('the body is empty');
	const body = parseJson(text);
	if (body === undefined) return bad('the body is not valid JSON');
	if (!isObject(body)) return bad('the body is not a JSON object');
	if (Object.keys(body).length === 0) return bad('the body is empty');
	if (deeperThan(body, MAX_BODY_DEPTH))
		return bad(`the body is nested deeper than ${MAX_BODY_DEPTH} levels`);
	return { ok: true, body, text };
}

/** Walked with a list, not recursion: the depth is what is in doubt. */
function deeperThan(value: unknown, maxDepth: number): boolean {
	const pending: Array<[unknown, number]> = [[value, 1]];
	for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
		const [current, depth] = next;
		if (depth > maxDepth) return true;
		if (typeof current !== 'object' || current === null) continue;
		for (const child of Object.values(current)) {
			if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
		}
	}
	return false;
}

/** Undefined when the text is not JSON (JSON itself cannot express undefined). */
function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
