/**
 * Scrubbing by value: whatever the service echoes back (a password in a token error, the
 * Authorization header quoted in a 422 message, a token inside a record) is replaced before it can
 * reach an output item, an error or a log line. Field names prove nothing, so only values count.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const HIDDEN = '[hidden]';

/** Shorter values would hide ordinary words and digits; no real secret of the service is this short. */
const MIN_SECRET_LENGTH = 4;

/** The secret values of a credential, longest first so a secret containing another is hidden whole. */
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
	return [...new Set(secrets)].sort((a, b) => b.length - a.length);
}

export function scrubText(text: string, secrets: readonly string[]): string {
	let scrubbed = text;
	for (const secret of secrets) {
		if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(HIDDEN);
	}
	return scrubbed;
}

/** The value with every string (keys included) scrubbed; the same object when nothing was found. */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
	if (secrets.length === 0) return value;
	return scrubValue(value, secrets) as T;
}

function scrubValue(value: unknown, secrets: readonly string[]): unknown {
	if (typeof value === 'string') return scrubText(value, secrets);
	if (Array.isArray(value)) {
		let changed = false;
		const copy = value.map((entry) => {
			const scrubbed = scrubValue(entry, secrets);
			changed ||= scrubbed !== entry;
			return scrubbed;
		});
		return changed ? copy : value;
	}
	if (value && typeof value === 'object') {
		let changed = false;
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			const cleanKey = scrubText(key, secrets);
			const scrubbed = scrubValue(entry, secrets);
			changed ||= scrubbed !== entry || cleanKey !== key;
			copy[cleanKey] = scrubbed;
		}
		return changed ? copy : value;
	}
	return value;
}
