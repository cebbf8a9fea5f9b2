/**
 * Approval tokens in the runner (validation/approvalToken.ts holds the token itself): Payout >
 * Prepare's plan is signed with the node's credential, and a request carrying a token (Payout >
 * Confirm) is sent only when the token was signed by this credential, has not expired, and covers
 * exactly that request. A refused token sends nothing.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS } from '../transport/endpoints';
import { CREDENTIAL_TYPE, credentialsFor } from '../transport/transport';
import {
	approvalKey,
	canonicalJson,
	credentialFingerprint,
	hasValidSignature,
	readApprovalPayload,
	signApproval,
	type ApprovalPayload,
} from '../validation/approvalToken';
import type { ApprovePlan, SendPlan } from './operation';

interface SigningKey {
	key: Buffer;
	fingerprint: string;
}

// The key is derived once per execution context: scrypt is slow on purpose.
const keys = new WeakMap<object, Promise<SigningKey>>();

async function signingKey(ctx: IExecuteFunctions, endpoint: SendPlan['send']['endpoint']) {
	let key = keys.get(ctx);
	if (!key) {
		const api = ENDPOINTS[endpoint].api;
		key = credentialsFor(ctx, api).then((data) => {
			const secret = String(data.signingSecret || data.password || '');
			const credentialId = ctx.getNode().credentials?.[CREDENTIAL_TYPE[api]]?.id ?? '';
			const derived = approvalKey(secret, credentialId);
			return { key: derived, fingerprint: credentialFingerprint(derived) };
		});
		keys.set(ctx, key);
	}
	return await key;
}

/** What was signed of a request: everything sent, nothing of how long to wait for it. */
const signedPart = (send: SendPlan['send']): ApprovalPayload['send'] => {
	const { endpoint, pathOverride, pathParams, query, body } = send;
	return { endpoint, pathOverride, pathParams, query, body: body ?? {} };
};

/** Payout > Prepare: the summary a person checks, and the token that lets exactly this be sent. */
export async function signedApproval(
	ctx: IExecuteFunctions,
	plan: ApprovePlan,
): Promise<IDataObject> {
	const { send, creates, channelType, validForMs } = plan.approve;
	const { key, fingerprint } = await signingKey(ctx, send.endpoint);
	const expiresAt = Date.now() + validForMs;
	const payload: ApprovalPayload = {
		send: signedPart(send),
		channelType,
		expiresAt,
		credential: fingerprint,
	};
	const payee = creates.payee ? ` to ${creates.payee}` : '';
	return {
		sent: false,
		summary: `Pay ${creates.amount.toLocaleString('en-US', { minimumFractionDigits: 2 })}${payee} over ${creates.channel}, reference ${creates.referenceNo}`,
		reference_no: creates.referenceNo,
		amount: creates.amount,
		channel: creates.channel,
		...(creates.payee ? { payee: creates.payee } : {}),
		expiresAt: new Date(expiresAt).toISOString(),
		approvalToken: signApproval(key, payload),
	};
}

/** Refuses, with nothing sent, a request its approval token does not cover. */
export async function checkApproval(
	ctx: IExecuteFunctions,
	itemIndex: number,
	plan: SendPlan & { approval: string },
): Promise<void> {
	const refuse = (what: string, todo: string) =>
		new NodeOperationError(ctx.getNode(), `The approval token ${what}: nothing was sent`, {
			itemIndex,
			description: todo,
		});
	const prepareAgain =
		'Run Payout > Prepare again, have a person check the new summary, and confirm with its token.';
	const payload = readApprovalPayload(plan.approval);
	if (!payload) throw refuse('is not one Payout > Prepare gave', prepareAgain);
	const { key, fingerprint } = await signingKey(ctx, plan.send.endpoint);
	if (payload.credential !== fingerprint) {
		throw refuse(
			"was signed with another credential, or this credential's secret changed since",
			`Confirm with the credential Prepare used. ${prepareAgain}`,
		);
	}
	if (!hasValidSignature(key, plan.approval)) {
		throw refuse('was changed after it was prepared (its signature does not match)', prepareAgain);
	}
	if (Date.now() > payload.expiresAt) {
		throw refuse(`expired at ${new Date(payload.expiresAt).toISOString()}`, prepareAgain);
	}
	if (canonicalJson(payload.send) !== canonicalJson(signedPart(plan.send))) {
		throw refuse('covers a different payout than the one about to be sent', prepareAgain);
	}
}
