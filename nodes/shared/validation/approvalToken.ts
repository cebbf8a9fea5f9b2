/**
 * The approval token of Payout > Prepare and Payout > Confirm: what a person approved, signed so
 * that Confirm can send exactly that and nothing else, with no state kept anywhere (queue-mode
 * workers and restarts see the same token). It is `pa1.<payload>.<signature>`, the payload being
 * canonical JSON (sorted keys) of the request that will be sent, the channel type, the expiry and
 * a fingerprint of the credential; the signature an HMAC-SHA256 of that text.
 *
 * The key is derived with scrypt from the credential's secret (its Signing Secret, or its Password
 * when no Signing Secret is set) and the credential's id: a token shown to a model gives no cheap
 * offline test of a short password, and the fingerprint (an HMAC under that key) tells credentials
 * apart without revealing anything of the secret.
 */
import { createHmac, scryptSync, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

const PREFIX = 'pa1';

/** What a token covers: every field of the request that will be sent, and for how long. */
export interface ApprovalPayload {
	/** The request as sent: endpoint name, path override (when set), query and the exact body. */
	send: { endpoint: string; body: IDataObject } & IDataObject;
	/** The form's channel type, for explaining a refused channel. */
	channelType: string;
	/** Expiry, milliseconds since the epoch. */
	expiresAt: number;
	/** The credential the token was signed with (`credentialFingerprint`). */
	credential: string;
}

/** A credential's signing key; derived once per run by the caller. */
export function approvalKey(secret: string, credentialId: string): Buffer {
	return scryptSync(secret, `n8n payout approval|${credentialId}`, 32);
}

export function credentialFingerprint(key: Buffer): string {
	return createHmac('sha256', key).update('credential').digest('base64url').slice(0, 22);
}

/** JSON with object keys sorted at every level, so the same request always gives the same text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as IDataObject)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonicalJson(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value ?? null);
}

const signatureOf = (key: Buffer, encodedPayload: string) =>
	createHmac('sha256', key).update(`${PREFIX}.${encodedPayload}`).digest('base64url');

export function signApproval(key: Buffer, payload: ApprovalPayload): string {
	const encoded = Buffer.from(canonicalJson(payload)).toString('base64url');
	return `${PREFIX}.${encoded}.${signatureOf(key, encoded)}`;
}

/**
 * The payload of a token, NOT yet verified: limits and allow-lists may be checked against it
 * early, since a changed payload fails `hasValidSignature` before anything is sent.
 * Undefined when the text is not an approval token at all.
 */
export function readApprovalPayload(token: unknown): ApprovalPayload | undefined {
	if (typeof token !== 'string') return undefined;
	const parts = token.trim().split('.');
	if (parts.length !== 3 || parts[0] !== PREFIX) return undefined;
	try {
		const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
		if (!payload || typeof payload !== 'object') return undefined;
		const { send, channelType, expiresAt, credential } = payload as ApprovalPayload;
		const body = send?.body;
		if (!body || typeof body !== 'object' || typeof send.endpoint !== 'string') return undefined;
		if (typeof expiresAt !== 'number' || typeof credential !== 'string') return undefined;
		if (typeof channelType !== 'string') return undefined;
		return payload as ApprovalPayload;
	} catch {
		return undefined;
	}
}

/** Whether the token was signed with this key, over exactly its payload's text. */
export function hasValidSignature(key: Buffer, token: string): boolean {
	const [, encoded, signature] = token.trim().split('.');
	const expected = Buffer.from(signatureOf(key, encoded ?? ''));
	const given = Buffer.from(signature ?? '');
	return given.length === expected.length && timingSafeEqual(given, expected);
}
