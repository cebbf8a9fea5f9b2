// The scripts the scripted model plays, one per check: which tool it calls next, with what, built
// from what the tools answered so far. (b) passes Confirm a token with its amount changed (still
// under the cap, so the token is what refuses), (c) one genuine but past its expiry.
import {
	approvalKey,
	readApprovalToken,
	signApproval,
} from '../../../nodes/shared/validation/approvalToken';
import { SANDBOX_CREDENTIALS } from '../../../sandbox';
import { DEMO_CREDENTIALS } from '../../../scripts/n8n/credentials';
import type { ScriptedCall, ToolAnswer } from './scriptedModel';
import { MAX_AMOUNT, TOOLS } from './workflow';

const ALLOWED_ACCOUNT = '001234567890';

const row = (referenceNo: string, receiverAccountNumber = ALLOWED_ACCOUNT) => ({
	amount: 1500,
	referenceNo,
	receiverAccountName: 'Juan Dela Cruz',
	receiverAccountNumber,
});

export const tokenOf = (answers: ToolAnswer[]) => String(answers[0]?.approvalToken ?? '');

function readToken(token: string) {
	const read = readApprovalToken(token);
	if (!read) throw new Error(`Prepare gave no readable approval token: "${token}"`);
	return read;
}
const payloadOf = (token: string) => readToken(token).payload;

/** The token with its payload changed and its summary and signature kept, as a model might alter it. */
function withAmount(token: string, amount: number): string {
	const { summary, signed } = readToken(token);
	const [prefix, , signature] = signed.split('.');
	const payload = payloadOf(token);
	payload.send.body = { ...payload.send.body, amount };
	const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
	return `${summary} [${prefix}.${encoded}.${signature}]`;
}

/**
 * The token signed anew, by the sandbox credential's own key, with an expiry already past: a token
 * that is genuine in every way but its age, without waiting out Prepare's shortest validity.
 */
function expired(token: string): string {
	const key = approvalKey(SANDBOX_CREDENTIALS.signingSecret, DEMO_CREDENTIALS.disbursement.id);
	return signApproval(key, { ...payloadOf(token), expiresAt: Date.now() - 60_000 });
}

const call = (tool: string, args: ScriptedCall['args']): ScriptedCall => ({ tool, args });

export const SCRIPTS: Record<string, ScriptedCall[]> = {
	a: [
		call(TOOLS.prepare, () => row('AGENT-A-1')),
		call(TOOLS.confirm, (answers) => ({ approvalToken: tokenOf(answers) })),
	],
	b: [
		call(TOOLS.prepare, () => row('AGENT-B-1')),
		call(TOOLS.confirm, (answers) => ({
			approvalToken: withAmount(tokenOf(answers), MAX_AMOUNT - 500),
		})),
	],
	c: [
		call(TOOLS.prepare, () => row('AGENT-C-1')),
		call(TOOLS.confirm, (answers) => ({ approvalToken: expired(tokenOf(answers)) })),
	],
	d: [call(TOOLS.create, () => row('AGENT-D-1'))],
	e: [call(TOOLS.prepare, () => row('AGENT-E-1', '009876543210'))],
};

/** Example 08's tools, as n8n names them for the model. */
export const EXAMPLE_TOOLS = { prepare: 'Prepare_payout', confirm: 'Confirm_payout' } as const;

const walletRow =
	(referenceNo: string, mobileNumber: string, amount = 500) =>
	() => ({
		amount,
		referenceNo,
		mobileNumber,
	});

/** A call through n8n's human review: the gated tool's arguments go under toolParameters. */
const reviewedConfirm = (tokenOfAnswer: number) =>
	call(EXAMPLE_TOOLS.confirm, (answers) => ({
		toolParameters: { approvalToken: String(answers[tokenOfAnswer]?.approvalToken ?? '') },
	}));

/**
 * Example 08 in a chat, each script a conversation: Prepare then Confirm, which n8n's human review
 * holds until the check approves or denies it. In `review-swap` the model prepares two payouts and
 * passes the second one's token: the review must name that one. In `review-day-full` it asks, after
 * `review-approve`'s 500, for 1,500 more: past example 08's Maximum Total per Day of 1,500, which
 * Prepare refuses. In `review-day-over` it asks for 500 more, which fits when Prepare reads the day
 * and no longer when Confirm does (the check adds another payout to the day during the review).
 */
export const REVIEW_SCRIPTS: Record<string, ScriptedCall[]> = {
	'review-approve': [
		call(EXAMPLE_TOOLS.prepare, walletRow('REVIEW-OK-1', '09171234567')),
		reviewedConfirm(0),
	],
	'review-deny': [
		call(EXAMPLE_TOOLS.prepare, walletRow('REVIEW-NO-1', '09171234567')),
		reviewedConfirm(0),
	],
	'review-day-full': [
		call(EXAMPLE_TOOLS.prepare, walletRow('REVIEW-DAY-FULL', '09171234567', 1500)),
	],
	'review-day-over': [
		call(EXAMPLE_TOOLS.prepare, walletRow('REVIEW-DAY-OVER', '09171234567')),
		reviewedConfirm(0),
	],
	'review-swap': [
		call(EXAMPLE_TOOLS.prepare, walletRow('REVIEW-SWAP-SHOWN', '09171234567')),
		call(EXAMPLE_TOOLS.prepare, walletRow('REVIEW-SWAP-PASSED', '09181234567')),
		reviewedConfirm(1),
	],
};
