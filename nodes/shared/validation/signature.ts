/**
 * Callback signature (docs/endpoints.md, Callbacks): lower-case hex HMAC-SHA256 with the signing secret as key
 * over `<amount>@<reference_no>`, where `<amount>` is the amount exactly as it appears in the
 * callback body. The trigger verifies with it; the sandbox signs with its own code, and a test
 * proves the two agree. Node's `crypto` only: this file ships inside the n8n package.
 */
import { createHmac, timingSafeEqual } from 'crypto';

export function signCallback(secret: string, amount: string | number, referenceNo: string): string {
	return createHmac('sha256', secret)
		.update(`${String(amount)}@${referenceNo}`)
		.digest('hex');
}

/**
 * Constant-time check of a received signature. False (never a throw) on an empty secret, a
 * missing or non-hex signature, or a length mismatch, so a caller can treat any false the same.
 */
export function verifySignature(
	secret: string,
	amount: string | number,
	referenceNo: string,
	signature: unknown,
): boolean {
	if (typeof secret !== 'string' || secret === '') return false;
	if (typeof amount !== 'string' && typeof amount !== 'number') return false;
	if (typeof referenceNo !== 'string' || referenceNo === '') return false;
	if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
	const expected = Buffer.from(signCallback(secret, amount, referenceNo), 'hex');
	const given = Buffer.from(signature, 'hex');
	if (given.length !== expected.length) return false;
	return timingSafeEqual(expected, given);
}
