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
