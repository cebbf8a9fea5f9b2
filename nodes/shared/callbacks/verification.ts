/**
 * The signature check (docs/endpoints.md, Callbacks): HMAC-SHA256 of `<amount>@<reference_no>` with the
 * signing secret of the credential, compared in constant time (nodes/shared/validation/signature.ts).
 */
import {
	NodeOperationError,
	type IHookFunctions,
	type INode,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { INTERFACE_LABEL } from '../transport/endpoints';
import { verifySignature } from '../validation/signature';
import { CREDENTIAL_TYPE, credentialsFor, type ServiceRun } from '../transport/transport';
import type { ApiInterface, Callback } from './payload';
import { copyContradiction } from './signedCopy';

export type SignatureOutcome =
	| { ok: true; verified: true | 'not configured'; interfaces: ApiInterface[] }
	| { ok: false; reason: string };

interface SigningSecrets {
	secrets: Array<[ApiInterface, string]>;
	withoutSecret: ApiInterface[];
}

/** The Signing Secret of each chosen credential, and the interfaces whose credential has none. */
export async function signingSecrets(
	service: ServiceRun<IWebhookFunctions | IHookFunctions>,
	chosen: ApiInterface[],
): Promise<SigningSecrets> {
	const found: SigningSecrets = { secrets: [], withoutSecret: [] };
	for (const api of chosen) {
		const secret = (await credentialsFor(service, api)).signingSecret;
		if (typeof secret === 'string' && secret !== '') found.secrets.push([api, secret]);
		else found.withoutSecret.push(api);
	}
	return found;
}

/**
 * Returns the interfaces whose secret verified the callback. A chosen credential without a
 * secret fails closed: its callbacks are refused, unless `acceptUnsigned` (the user's explicit,
 * unsafe opt-in) lets them through unverified, as those interfaces. Either way, a transaction
 * copy contradicting the signed fields refuses the callback (signedCopy.ts).
 */
export async function checkSignature(
	service: ServiceRun<IWebhookFunctions>,
	chosen: ApiInterface[],
	callback: Callback,
	acceptUnsigned: boolean,
): Promise<SignatureOutcome> {
	const outcome = await signedBy(service, chosen, callback, acceptUnsigned);
	const contradiction = outcome.ok ? copyContradiction(callback) : undefined;
	return contradiction === undefined ? outcome : { ok: false, reason: contradiction };
}

async function signedBy(
	service: ServiceRun<IWebhookFunctions>,
	chosen: ApiInterface[],
	callback: Callback,
	acceptUnsigned: boolean,
): Promise<SignatureOutcome> {
	const { secrets, withoutSecret } = await signingSecrets(service, chosen);
	const signature = callback.signature;
	const verified = secrets
		.filter(
			([, secret]) =>
				signature !== undefined &&
				callback.signedAmounts.some((amount) =>
					verifySignature(secret, amount, callback.referenceNo, signature),
				),
		)
		.map(([api]) => api);
	if (verified.length > 0) return { ok: true, verified: true, interfaces: verified };
	if (acceptUnsigned && withoutSecret.length > 0) {
		return { ok: true, verified: 'not configured', interfaces: withoutSecret };
	}
	if (secrets.length === 0) {
		return {
			ok: false,
			reason: `${missingSecretReason(service.ctx.getNode(), withoutSecret)} and Accept Unsigned Callbacks (Unsafe) is off`,
		};
	}
	if (!signature) return { ok: false, reason: 'the callback carries no signature' };
	const checked = secrets.map(([api]) => INTERFACE_LABEL[api]).join(' and ');
	return {
		ok: false,
		reason: `the signature does not match amount@reference_no signed with the Signing Secret of the ${checked} credential`,
	};
}

/**
 * The chosen credentials as the user named them, quoted: '"Shop payments"', or '"A" and "B"'; the
 * interface's label where the node holds no name (never the case once the credential is chosen).
 */
function credentialNames(node: INode, apis: ApiInterface[]): string {
	return apis
		.map((api) => `"${node.credentials?.[CREDENTIAL_TYPE[api]]?.name ?? INTERFACE_LABEL[api]}"`)
		.join(' and ');
}

/** 'the credential "Shop payments" has no Signing Secret', naming it as the user did. */
export function missingSecretReason(node: INode, apis: ApiInterface[]): string {
	const several = apis.length > 1;
	return `the credential${several ? 's' : ''} ${credentialNames(node, apis)} ${several ? 'have' : 'has'} no Signing Secret`;
}

/**
 * Why activation fails for a chosen credential without a Signing Secret (while unsigned callbacks
 * are refused): every callback to it would be refused later, one log line its only trace. n8n
 * shows the message alone when activating, so the message carries the fix too.
 */
export function missingSecretError(ctx: IHookFunctions, apis: ApiInterface[]): NodeOperationError {
	const node = ctx.getNode();
	const several = apis.length > 1;
	return new NodeOperationError(
		node,
		`Cannot activate "${node.name}": ${missingSecretReason(node, apis)}, so ${several ? 'their' : 'its'} callbacks would be refused (HTTP 401). Add the Signing Secret to ${several ? 'those credentials' : 'that credential'}, or switch on Accept Unsigned Callbacks (Unsafe) knowingly`,
		{
			description: `Open the credential${several ? 's' : ''} ${credentialNames(node, apis)} and enter the Signing Secret issued with your merchant credentials. Switch on Accept Unsigned Callbacks (Unsafe) only if anyone who knows this URL may start the workflow.`,
		},
	);
}
