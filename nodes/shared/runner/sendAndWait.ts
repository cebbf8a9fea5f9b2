/**
 * Send and Wait for Final Status, the sending half (docs/waiting.md). Before anything is sent the
 * run is checked: one item (n8n resumes an execution once), not as an agent's tool, and a Signing
 * Secret on the credential (the resume webhook trusts signed callbacks only). The operation sends
 * this execution's resume URL as the callback URL (`resumeCallbackUrl`). After the send, a pending
 * record parks the execution with n8n's putExecutionToWait: no worker is held, and n8n resumes it
 * through the node's restart webhook (callbacks/resume.ts) or, at the time limit, by itself.
 *
 * At a time-limit resume n8n runs nothing of the node: it passes the node's input on unchanged.
 * So before waiting the runner makes that input the item a time limit should give (the record
 * still pending, `finalStatus: false`, `waitEnded: "timeLimit"`), as n8n's own webhook resume
 * replaces it with what the webhook returns.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_PAYOUT_WAIT_MINUTES,
	LINK_EXPIRY_MARGIN_MINUTES,
	SEND_AND_WAIT,
} from '../descriptions/sendAndWait';
import type { ApiInterface } from '../transport/endpoints';
import { credentialsFor } from '../transport/transport';
import { recordStatus } from '../validation/records';
import {
	compareWithSent,
	differencesOf,
	finalItem,
	FINAL_STATUSES,
	timeLimitItem,
	type SentFacts,
	type WaitEnded,
} from '../validation/waitingItem';
import { runParameter } from './itemValues';
import { readExecutionOptions, type MoneyIntent } from './operation';
import { recipientFacts } from '../validation/recipient';
import { pollUntilFinal } from './recordLookUps';
import type { RunContext } from './runContext';
import { stopRun } from './runStop';
import { runsAsTool } from './toolMode';

const MINUTE_MS = 60_000;
const FIRST_LOOK_UP_MS = 5_000;
const LONGEST_LOOK_UP_MS = 30_000;
const REPLAY_WAIT_REASON =
	'this reference_no was sent before, and the service calls back the URL sent then: its status was looked up instead';

/** Whether this run sends and waits (a switch per node: never per item). */
export function sendsAndWaits(run: RunContext): boolean {
	return runParameter(run, SEND_AND_WAIT, 0, false) === true;
}

/**
 * This execution's resume URL with the node's id, as n8n's restart webhook of this node listens to
 * it. Recent n8n appends a token as a query parameter; the node id then follows the token, which is
 * how n8n reads it back.
 */
export function resumeCallbackUrl(run: RunContext, itemIndex: number): string {
	const { ctx } = run;
	const resumeUrl = String(ctx.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
	return `${resumeUrl}/${ctx.getNode().id}`;
}

/** Checks made before anything is sent; each refusal stops the node with nothing sent. */
export async function checkSendAndWait(run: RunContext, api: ApiInterface): Promise<void> {
	const { ctx } = run;
	const node = ctx.getNode();
	const refuse = (message: string, description: string) =>
		stopRun(new NodeOperationError(node, message, { description }));
	// n8n reads the switch hidden from a tool as off; should one still read it on, it fails closed.
	if (runsAsTool(ctx)) {
		throw refuse(
			"Refused: Send and Wait for Final Status cannot run as an agent's tool, so nothing was sent",
			'Tell the user that the owner of this workflow must switch off "Send and Wait for Final Status" in this tool: a tool call cannot wait for the service\'s callback.',
		);
	}
	const items = ctx.getInputData().length;
	if (items > 1) {
		throw refuse(
			`Send and Wait for Final Status takes one item per execution, and ${items} came in: nothing was sent`,
			'n8n resumes an execution once, so one execution waits for one payment. Put a Loop Over Items node before this node to send and wait for each item in turn, or, for a sheet or a batch, switch this off and receive the final statuses with the Payment Gateway Trigger.',
		);
	}
	const secret = (await credentialsFor(run, api)).signingSecret;
	if (typeof secret !== 'string' || secret === '') {
		throw refuse(
			'Send and Wait for Final Status needs the Signing Secret of the credential: nothing was sent',
			'The execution resumes only on a callback signed with it. Open the credential and enter the Signing Secret issued with your merchant credentials.',
		);
	}
}

/**
 * After the send: a pending record parks the execution until its callback or the time limit; a
 * record already final (a replay of a finished one) goes on at once. A record still pending that
 * was sent before (by an execution that was stopped, crashed or is still waiting) holds the callback
 * URL sent then, so its callback never reaches this execution: its status is looked up until it is
 * final or the time limit passes. Anything else (an
 * error item, Check Only's rows) goes on as it is. `sent` is what this execution sent, read once
 * from the request (the operation's plan): every record and callback is compared with it.
 */
export async function waitForCallback(
	run: RunContext,
	output: INodeExecutionData[][],
	sent: SentFacts | undefined,
): Promise<INodeExecutionData[][]> {
	const [main = [], ...other] = output;
	if (!sent || main.length !== 1 || other.some((items) => items.length > 0)) return output;
	const [item] = main;
	const record = item.json;
	if (record.error !== undefined || record.reference_no !== sent.referenceNo) return output;
	const status = recordStatus(record);
	const goOn = (json: IDataObject) => [[{ ...item, json }], ...other];
	if (status !== undefined && FINAL_STATUSES.includes(status)) {
		return goOn(endedWith(record, sent, 'finalBeforeWaiting'));
	}
	if (status !== 'pending') return output;

	const limitMs = waitMinutes(run, record) * MINUTE_MS;
	if (calledBackElsewhere(run, record))
		return goOn(await lookUpUntilFinal(run, record, sent, limitMs));

	const { ctx } = run;
	const waitTill = new Date(Date.now() + limitMs);
	// What n8n passes on if the time limit ends the wait, and what the resume webhook reads.
	const entry = ctx.getExecuteData();
	entry.data = {
		...entry.data,
		main: [[{ json: timeLimitItem(record, waitTill, sent), pairedItem: { item: 0 } }]],
	};
	// n8n's editor shows a waiting node's hints, not its output: the hint is where the link is seen.
	ctx.addExecutionHints({
		message: waitingHint(record, sent, waitTill),
		type: 'info',
		location: 'outputPane',
	});
	await ctx.putExecutionToWait(waitTill);
	return output;
}

const escapeHtml = (text: string) =>
	text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
	);

/**
 * What the output pane says while the execution waits (n8n renders hints as HTML): the payment
 * link to open, or the payout's reference and status. A link that is not http(s) is shown as text.
 */
function waitingHint(record: IDataObject, sent: SentFacts, waitTill: Date): string {
	const reference = escapeHtml(sent.referenceNo);
	const until = `until ${waitTill.toISOString()} at the latest (Time Limit)`;
	if (sent.kind !== 'transaction') {
		const status = escapeHtml(String(record.status ?? 'pending'));
		return `Waiting for the final status of payout ${reference} (status: ${status}), ${until}.`;
	}
	const link = typeof record.web_payment_url === 'string' ? record.web_payment_url : '';
	const shown = /^https?:\/\//i.test(link)
		? `<a href="${escapeHtml(link)}" target="_blank" rel="noopener">${escapeHtml(link)}</a>`
		: escapeHtml(link || 'no web_payment_url in the answer');
	return `Waiting for the payment of ${reference}: the customer pays at ${shown} (web_payment_url), ${until}.`;
}

/**
 * Whether the service will call another URL than this execution's: the record was made before this
 * item was sent (`replayed`, proven by the money-safe path), or it states a callback URL that is not
 * this execution's resume URL. A record that states neither is taken as this execution's own: its
 * callback comes here (docs/waiting.md says when that cannot be told).
 */
function calledBackElsewhere(run: RunContext, record: IDataObject): boolean {
	if (record.replayed === true) return true;
	const stated = record.callback_webhook_url;
	return typeof stated === 'string' && stated !== '' && stated !== resumeCallbackUrl(run, 0);
}

/** A final record compared with what was sent: `finalStatus` only when nothing it states differs. */
function endedWith(
	record: IDataObject,
	sent: SentFacts,
	ended: 'finalBeforeWaiting' | 'lookedUp',
): IDataObject {
	const comparison = compareWithSent(sent, record);
	return finalItem(record, ended, differencesOf(comparison, 'service'), comparison.unstated);
}

/**
 * A replay still pending: the reference is looked up as Wait for Final Status does (a pause of
 * FIRST_LOOK_UP_MS, doubling up to LONGEST_LOOK_UP_MS, so a payment is seen within a minute),
 * until it is final or the time limit passes. The execution is held meanwhile (docs/waiting.md).
 */
async function lookUpUntilFinal(
	run: RunContext,
	record: IDataObject,
	sent: SentFacts,
	limitMs: number,
): Promise<IDataObject> {
	const polled = await pollUntilFinal(run, 0, {
		poll: {
			kind: sent.kind,
			referenceNo: sent.referenceNo,
			timeoutMs: readExecutionOptions(run, 0).timeoutMs,
			limitMs,
			firstMs: FIRST_LOOK_UP_MS,
			longestMs: LONGEST_LOOK_UP_MS,
		},
	});
	const looked = { ...polled, replayed: record.replayed, waitedFor: REPLAY_WAIT_REASON };
	if (polled.finalStatus === true) return endedWith(looked, sent, 'lookedUp');
	return {
		...looked,
		waitEnded: 'timeLimit' satisfies WaitEnded,
		message:
			`No final status within the time limit: look it up later with Wait for Final Status, or raise Time Limit (Minutes). ${polled.message ?? ''}`.trim(),
	};
}

/** What a money-creating request sends, as the wait compares records and callbacks with it. */
export function sentFactsOf(intent: MoneyIntent): SentFacts {
	const { kind, referenceNo, amount, channel, recipient } = intent;
	return { kind, referenceNo, amount, channel, recipient: recipient && recipientFacts(recipient) };
}

/** Time Limit (Minutes); 0 for a payment link: until it expires, plus a margin. */
function waitMinutes(run: RunContext, record: IDataObject): number {
	const set = Number(runParameter(run, 'waitTimeLimitMinutes', 0, 0));
	if (Number.isFinite(set) && set > 0) return set;
	const expiresAt =
		typeof record.expires_at === 'string' ? Date.parse(record.expires_at) : Number.NaN;
	if (Number.isFinite(expiresAt)) {
		const untilExpiry = Math.ceil((expiresAt - Date.now()) / MINUTE_MS);
		return Math.max(untilExpiry, 0) + LINK_EXPIRY_MARGIN_MINUTES;
	}
	return DEFAULT_PAYOUT_WAIT_MINUTES;
}
