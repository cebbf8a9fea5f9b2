/**
 * The signature check (PUBLIC-FACTS.md): HMAC-SHA256 of `<amount>@<reference_no>` with the
 * signing secret of the credential, compared in constant time (nodes/shared/signature.ts).
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { verifySignature } from '../../shared/signature';
import { credentialsFor } from '../../shared/transport';
import type { ApiInterface, Callback } from './payload';

export type SignatureOutcome =
	| { ok: true; verified: true | 'not configured'; interfaces: ApiInterface[] }
	| { ok: false; reason: string };

const LABEL: Record<ApiInterface, string> = {
	collection: 'Payment Collection',
	disbursement: 'Disbursement',
};

/**
 * Checks the signature against the secret of every chosen credential that has one. When any
 * chosen credential has a secret, a callback must verify with one of them: a callback is never
 * let through unverified just because its body claims the interface whose credential has none.
 * Returns the interfaces whose secret verified it (all chosen ones when no secret is set).
 */
export async function checkSignature(
	ctx: IWebhookFunctions,
	chosen: ApiInterface[],
	callback: Callback,
): Promise<SignatureOutcome> {
	const secrets: Array<[ApiInterface, string]> = [];
	for (const api of chosen) {
		const secret = (await credentialsFor(ctx, api)).signingSecret;
		if (typeof secret === 'string' && secret !== '') secrets.push([api, secret]);
	}
	if (secrets.length === 0) return { ok: true, verified: 'not configured', interfaces: chosen };
	if (!callback.signature) return { ok: false, reason: 'the callback carries no signature' };

	const signature = callback.signature;
	const verified = secrets
		.filter(([, secret]) =>
			callback.signedAmounts.some((amount) =>
				verifySignature(secret, amount, callback.referenceNo, signature),
			),
		)
		.map(([api]) => api);
	if (verified.length === 0) {
		const checked = secrets.map(([api]) => LABEL[api]).join(' and ');
		return {
			ok: false,
			reason: `the signature does not match amount@reference_no signed with the Signing Secret of the ${checked} credential`,
		};
	}
	return { ok: true, verified: true, interfaces: verified };
}
