/**
 * Approval tokens in the runner (validation/approvalToken.ts holds the token itself): Payout >
 * Prepare's plan is signed with the node's credential, and a request carrying a token (Payout >
 * Confirm) is sent only when the token was signed by this credential for its current Environment,
 * Base URL and username, has not expired, reads the summary its payload gives, and covers exactly
 * that request. A refused token sends nothing.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS } from '../transport/endpoints';
import { callService, CREDENTIAL_TYPE, credentialsFor } from '../transport/transport';
import {
	approvalKey,
	approvalSummary,
	canonicalJson,
	credentialFingerprint,
	environmentLabel,
	hasValidSignature,
	normalBaseUrl,
	readApprovalToken,
	signApproval,
	type ApprovalBinding,
	type ApprovalPayload,
} from '../validation/approvalToken';
import type { DailyTotal } from '../validation/days';
import { channelsOfType, payoutChannelsIn, type ChannelType } from '../validation/channels';
import { listedSpelling } from '../validation/codes';
import type { Recipient } from '../validation/recipient';
import { banksIn, type Bank } from '../validation/schemas';
import type { ApprovePlan, SendPlan } from './operation';
import type { RunContext, SigningKey } from './runContext';

/** Thrown when the credential has no Signing Secret: approvals never use a person's password. */
function noSigningSecret(ctx: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		"Approvals need the credential's Signing Secret, and it is empty: nothing was prepared or sent",
		{
			itemIndex,
			description:
				'Tell the user that the owner of this workflow must fill in Signing Secret in the Disbursement credential (the key issued with the credentials). Approval tokens are never signed with the password.',
		},
	);
}

/** The key is derived once per run (kept in the run's context): scrypt is slow on purpose. */
export async function signingKey(
	run: RunContext,
	itemIndex: number,
	endpoint: SendPlan['send']['endpoint'],
): Promise<SigningKey> {
	const { ctx } = run;
	let key = run.signingKey;
	if (!key) {
		const api = ENDPOINTS[endpoint].api;
		key = credentialsFor(run, api).then((data) => {
			const secret = typeof data.signingSecret === 'string' ? data.signingSecret : '';
			if (secret === '') throw noSigningSecret(ctx, itemIndex);
			const credentialId = ctx.getNode().credentials?.[CREDENTIAL_TYPE[api]]?.id ?? '';
			const binding: ApprovalBinding = {
				environment: String(data.environment ?? ''),
				baseUrl: normalBaseUrl(String(data.baseUrl ?? '')),
				username: String(data.username ?? ''),
			};
			const derived = approvalKey(secret, credentialId);
			return { key: derived, fingerprint: credentialFingerprint(derived, binding), binding };
		});
		run.signingKey = key;
	}
	return await key;
}

/**
 * The bank of `code` as the service lists it, or undefined when the list cannot be read or names
 * the code more than once (the summary then shows the code as typed, which is what is sent).
 */
async function listedBank(run: RunContext, code: string): Promise<Bank | undefined> {
	// The bank list is read at most once per run, for the codes and names in Prepare's summaries.
	run.bankList ??= callService(run, { endpoint: 'getBanks' }).then(
		({ data }) => banksIn(data),
		() => undefined,
	);
	const banks = (await run.bankList) ?? [];
	const spelling = listedSpelling(
		code,
		banks.map((bank) => bank.code),
	);
	return banks.find((bank) => bank.code === spelling);
}

/**
 * The account's payout channel codes of `channelType`, read at most once per run (shared with the
 * explanation of a refused channel); undefined when the list cannot be read.
 */
async function listedChannelCodes(
	run: RunContext,
	channelType: string,
): Promise<string[] | undefined> {
	run.payoutChannels ??= callService(run, { endpoint: 'getPayoutChannels' }).then(
		({ data }) => payoutChannelsIn(data),
		() => undefined,
	);
	const channels = await run.payoutChannels;
	return channels && channelsOfType(channels, channelType as ChannelType).map(({ code }) => code);
}

/**
 * The payout as it is sent and shown: its channel and bank code in the service's own spelling
 * where its lists name them once (`gcash` is sent as the list's `GCASH`, `bpi` as `BPI`), so the
 * summary and the request read one code; and the bank's name, for the summary.
 */
export async function inListedSpelling(
	run: RunContext,
	send: SendPlan['send'],
	recipient: Recipient | undefined,
	channelType: string,
): Promise<{ send: SendPlan['send']; recipient?: Recipient; bankName?: string }> {
	if (!recipient) return { send, recipient };
	const body = { ...(send.body ?? {}) };
	const listedChannels = await listedChannelCodes(run, channelType);
	const channel = listedChannels && listedSpelling(recipient.channel, listedChannels);
	if (channel) body.channel = channel;
	const listed = { ...recipient, channel: channel ?? recipient.channel };
	if (listed.kind !== 'bankAccount') return { send: { ...send, body }, recipient: listed };
	const bank = await listedBank(run, listed.bankCode);
	if (bank) body.fields = { ...(body.fields as IDataObject), bank_code: bank.code };
	return {
		send: { ...send, body },
		recipient: bank ? { ...listed, bankCode: bank.code } : listed,
		bankName: bank?.name,
	};
}

/** What was signed of a request: everything sent, nothing of how long to wait for it. */
const signedPart = (send: SendPlan['send']): ApprovalPayload['send'] => {
	const { endpoint, pathOverride, pathParams, query, body } = send;
	return { endpoint, pathOverride, pathParams, query, body: body ?? {} };
};

/**
 * Payout > Prepare: the summary a person checks, and the token that lets exactly this be sent. With
 * Maximum Total per Day set, `dailyTotal` holds the day's figures Prepare read (dailyCap.ts): they
 * are signed with the payout, stated in its summary and given on the output.
 */
export async function signedApproval(
	run: RunContext,
	itemIndex: number,
	plan: ApprovePlan,
	dailyTotal?: DailyTotal,
): Promise<IDataObject> {
	const { creates, channelType, validForMs } = plan.approve;
	const { key, fingerprint, binding } = await signingKey(
		run,
		itemIndex,
		plan.approve.send.endpoint,
	);
	const expiresAt = Date.now() + validForMs;
	const { send, recipient, bankName } = await inListedSpelling(
		run,
		plan.approve.send,
		creates.recipient,
		channelType,
	);
	const payload: ApprovalPayload = {
		send: signedPart(send),
		channelType,
		expiresAt,
		environment: binding.environment,
		baseUrl: binding.baseUrl,
		credential: fingerprint,
		...(bankName ? { bankName } : {}),
		...(dailyTotal ? { dailyTotal } : {}),
	};
	return {
		sent: false,
		summary: approvalSummary(payload),
		reference_no: creates.referenceNo,
		amount: creates.amount,
		channel: recipient?.channel ?? creates.channel,
		...(recipient ? { recipient: { ...recipient, ...(bankName ? { bankName } : {}) } } : {}),
		...(dailyTotal ? { dailyTotal } : {}),
		expiresAt: new Date(expiresAt).toISOString(),
		approvalToken: signApproval(key, payload),
	};
}

/** What every signed token states of where and how long it pays, a batch's too. */
interface SignedToken {
	summary: string;
	signed: string;
	payload: { environment: string; baseUrl: string; credential: string; expiresAt: number };
}

/** A refusal of a token, with what to do about it. */
export type TokenRefusal = (what: string, todo: string) => Error;

/**
 * The checks every token gets before anything is sent: prepared for this credential's Environment
 * and Base URL, signed with this credential (username and Signing Secret unchanged), unchanged
 * since (signature, and the words rebuilt from its payload), not expired.
 */
export async function checkSignedToken(
	run: RunContext,
	itemIndex: number,
	token: SignedToken,
	words: string | undefined,
	refuse: TokenRefusal,
	prepareAgain: string,
): Promise<void> {
	const { payload } = token;
	const { key, fingerprint, binding } = await signingKey(run, itemIndex, 'createPayout');
	if (payload.environment !== binding.environment || payload.baseUrl !== binding.baseUrl) {
		throw refuse(
			`was prepared for ${environmentLabel(payload.environment)} at ${payload.baseUrl}, but this credential is now ${environmentLabel(binding.environment)} at ${binding.baseUrl}`,
			`A token pays only where it was prepared. ${prepareAgain}`,
		);
	}
	if (payload.credential !== fingerprint) {
		throw refuse(
			"was signed with another credential, or this credential's username or Signing Secret changed since",
			`Confirm with the credential Prepare used. ${prepareAgain}`,
		);
	}
	if (!hasValidSignature(key, token)) {
		throw refuse('was changed after it was prepared (its signature does not match)', prepareAgain);
	}
	if (token.summary !== words) {
		const version = token.signed.split('.')[0];
		throw refuse(
			`does not read the summary Prepare wrote for it: the text before its [${version}.…] part was changed`,
			prepareAgain,
		);
	}
	if (Date.now() > payload.expiresAt) {
		throw refuse(`expired at ${new Date(payload.expiresAt).toISOString()}`, prepareAgain);
	}
}

/** Refuses, with nothing sent, a request its approval token does not cover. */
export async function checkApproval(
	run: RunContext,
	itemIndex: number,
	plan: SendPlan & { approval: string },
): Promise<void> {
	const { ctx } = run;
	const refuse = (what: string, todo: string) =>
		new NodeOperationError(ctx.getNode(), `The approval token ${what}: nothing was sent`, {
			itemIndex,
			description: todo,
		});
	const prepareAgain =
		'Run Payout > Prepare again, have a person check the new summary, and confirm with its whole token.';
	const token = readApprovalToken(plan.approval);
	if (!token) throw refuse('is not one Payout > Prepare gave, whole', prepareAgain);
	const { payload } = token;
	await checkSignedToken(run, itemIndex, token, approvalSummary(payload), refuse, prepareAgain);
	if (canonicalJson(payload.send) !== canonicalJson(signedPart(plan.send))) {
		throw refuse('covers a different payout than the one about to be sent', prepareAgain);
	}
}
