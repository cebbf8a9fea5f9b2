/**
 * The secret guard: whatever a test can observe of a run (output items, errors, n8n's log lines,
 * credential test messages) is scanned for every secret the credential store knows. A hit throws,
 * naming the kind of secret and where it was found, never its value, so the test that caused it
 * fails without printing the secret.
 */
import type { CredentialStore, SecretKind } from './credentialStore';
import type { LogLine } from './logging';
import { quotedForms } from './secretForms';

/** Shorter values would match ordinary text by chance; test credentials are longer than this. */
export const MIN_SECRET_LENGTH = 6;

let scanned = 0;

/** How many texts (items, errors, log lines, messages) the guard has scanned in this test file. */
export function scannedCount(): number {
	return scanned;
}

export interface SecretFigures {
	passwords: number;
	signingSecrets: number;
	tokens: number;
	total: number;
}

/** How many secrets of each kind the guard looks for in this store (counts, never values). */
export function secretsOf(store: CredentialStore): SecretFigures {
	const figures = { passwords: 0, signingSecrets: 0, tokens: 0, total: 0 };
	for (const { kind } of store.secrets()) {
		if (kind === 'password') figures.passwords++;
		else if (kind === 'signing secret') figures.signingSecrets++;
		else figures.tokens++;
		figures.total++;
	}
	return figures;
}

export class SecretLeakError extends Error {
	constructor(kind: SecretKind, credentialType: string, where: string) {
		super(`Secret leak: the ${kind} of a ${credentialType} credential appears in ${where}`);
		this.name = 'SecretLeakError';
	}
}

/** Renders anything as searchable text; errors by all their own properties, cycles cut. */
export function toText(value: unknown): string {
	if (typeof value === 'string') return value;
	const seen = new WeakSet<object>();
	try {
		return (
			JSON.stringify(value, (_key, inner: unknown) => {
				if (inner instanceof Error) {
					const plain: Record<string, unknown> = {};
					for (const name of Object.getOwnPropertyNames(inner)) {
						plain[name] = (inner as unknown as Record<string, unknown>)[name];
					}
					return plain;
				}
				if (typeof inner === 'bigint') return inner.toString();
				if (inner && typeof inner === 'object') {
					if (seen.has(inner)) return '[circular]';
					seen.add(inner);
				}
				return inner;
			}) ?? ''
		);
	} catch {
		return String(value);
	}
}

/** Throws SecretLeakError when `text` contains a secret of the store. */
export function assertNoSecret(store: CredentialStore, where: string, value: unknown): void {
	scanned++;
	const text = toText(value);
	if (!text) return;
	for (const secret of store.secrets()) {
		if (secret.value.length < MIN_SECRET_LENGTH) continue;
		if (containsSecret(text, secret.value)) {
			throw new SecretLeakError(secret.kind, secret.credentialType, where);
		}
	}
}

/** Each secret as written and in every form a service may quote it back in (secretForms.ts), built once. */
const formsBySecret = new Map<string, string[]>();

function formsOf(secret: string): string[] {
	let forms = formsBySecret.get(secret);
	if (!forms) {
		// Basic auth's form needs the username: the one of each credential is not known here.
		const quoted = quotedForms(secret, '').map(([, form]) => form);
		forms = [...new Set([secret, ...quoted])].filter((form) => form.length >= MIN_SECRET_LENGTH);
		formsBySecret.set(secret, forms);
	}
	return forms;
}

/**
 * Finds the secret as written, URL-encoded once or twice, form-encoded, JSON-escaped or `\uXXXX`,
 * as HTML entities, in hex or in base64.
 */
function containsSecret(text: string, secret: string): boolean {
	return formsOf(secret).some((form) => text.includes(form));
}

export function assertNoSecretInLogs(store: CredentialStore, lines: LogLine[]): void {
	for (const line of lines) {
		assertNoSecret(store, `a "${line.level}" log line of n8n`, `${line.message} ${line.metadata}`);
	}
}
