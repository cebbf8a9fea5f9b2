/**
 * The signature the service puts in `data.signature` (docs/endpoints.md, Callbacks): lower-case hex
 * HMAC-SHA256, keyed with the signing secret, over `<amount>@<reference_no>` with the amount as it
 * stands in the callback body. Written here from that description, not taken from the node, so a
 * wrong signature in the node shows up as a disagreement in test/sandbox/agreement.test.ts.
 */
import { createHmac } from 'crypto';

export function signCallback(secret: string, amount: number, referenceNo: string): string {
	return createHmac('sha256', secret).update(`${amount}@${referenceNo}`).digest('hex');
}
