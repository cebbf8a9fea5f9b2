/**
 * Send and Wait for Final Status, the resume half: the restart webhook of Transaction > Generate and
 * Payout > Create. A callback to this execution's resume URL is trusted as the trigger trusts one
 * (signature with the credential's Signing Secret, required here; Confirm With Service unless
 * switched off) and, on top, only for the reference this execution waits for and only with a final
 * status. A refused request is answered with an error and returns no workflowData, so n8n leaves the
 * execution waiting. Once the execution went on, n8n itself answers a repeated callback with a
 * conflict and starts nothing.
 *
 * What the execution waits for is the item n8n passes on if nothing resumes it before its time
 * limit (validation/waitingItem.ts; the waiting node's input, set by the runner's sendAndWait.ts):
 * the webhook reads it as `$json`, so the expectation lives in the execution n8n stored, not in
 * the URL a caller holds.
 */
import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { scrubDeep, scrubText } from '../transport/secrets';
import { serviceRun } from '../transport/runState';
import type { ApiInterface } from '../transport/endpoints';
import { callbackRecord, confirmWithService } from './confirm';
import { hiddenValues } from './hiddenValues';
import { loggable } from './loggable';
import { readCallback, type IncomingRequest } from './payload';
import { checkSignature } from './verification';
import {
	compareWithSent,
	differencesOf,
	finalItem,
	FINAL_STATUSES,
	readTimeLimitItem,
} from '../validation/waitingItem';
import { claimResume } from './resumeClaims';

export async function resumeOnCallback(
	ctx: IWebhookFunctions,
	api: ApiInterface,
): Promise<IWebhookResponseData> {
	const node = ctx.getNode().name;
	const service = serviceRun(ctx);
	// A broken service may echo a secret of the credential: nothing answered or logged holds one.
	const hidden = await hiddenValues(service, [api]);
	const refuse = (code: number, answer: string, reason: string) => {
		ctx.logger.warn(
			`${node} kept waiting: refused a callback (HTTP ${code}): ${loggable(scrubText(reason, hidden), 400)}`,
			{ node, workflowId: ctx.getWorkflow().id },
		);
		return reply(ctx, code, answer);
	};

	const waiting = waitingFor(ctx);
	if (!waiting) {
		return refuse(409, 'This execution is not waiting for a callback', 'no waiting state');
	}
	const read = readCallback(ctx.getRequestObject() as unknown as IncomingRequest, hidden);
	if (!read.ok) return refuse(400, `Bad request: ${read.reason}`, read.reason);
	const { callback } = read;

	// Unsigned callbacks are never accepted here: anyone holding the URL could end the wait.
	const signature = await checkSignature(service, [api], callback, false);
	if (!signature.ok) return refuse(401, 'Unauthorized', signature.reason);
	if (callback.referenceNo !== waiting.referenceNo) {
		return refuse(
			403,
			'Forbidden: this execution waits for another reference_no',
			'the callback is for another reference_no',
		);
	}
	if (!FINAL_STATUSES.includes(callback.status)) {
		return refuse(
			409,
			`Status ${callback.status} is not final: still waiting`,
			`status "${callback.status}" is not final`,
		);
	}

	// The callback states what was paid: compared with what this execution sent, as the record is.
	const { sent } = waiting;
	const byCallback = compareWithSent(sent, callbackRecord(callback));
	const confirm = ctx.getNodeParameter('waitConfirmWithService', true) !== false;
	let record: IDataObject = { ...waiting.record, status: callback.status };
	let differences = differencesOf(byCallback, 'callback');
	let unconfirmed: string[] = byCallback.unstated;
	if (confirm) {
		const confirmed = await confirmWithService(service, [api], callback);
		if (!confirmed.ok) {
			return refuse(
				confirmed.code,
				confirmed.code === 401 ? 'Unauthorized' : 'Service unavailable, try again later',
				confirmed.reason,
			);
		}
		// The service's record agrees with the callback, its final status included; it is the
		// authority on what it states, compared with what was sent in turn.
		record = confirmed.record;
		const byService = compareWithSent(sent, record);
		differences = [...differences, ...differencesOf(byService, 'service')];
		unconfirmed = byService.unstated;
	}

	// Only now, with every check passed: the first callback goes on, any other answers a conflict.
	const claim = [ctx.getExecutionId(), ctx.getNode().id, waiting.referenceNo, waiting.waitedUntil];
	if (!claimResume(claim.map(String).join('\u0000'))) {
		return refuse(
			409,
			'This execution was resumed by an earlier callback',
			'the execution was resumed already',
		);
	}
	const item: IDataObject = {
		...finalItem(record, 'callback', differences, unconfirmed),
		statusConfirmed: confirm,
		receivedAt: new Date().toISOString(),
	};
	ctx.logger.debug(`${node} resumed by a ${callback.status} callback`, { node });
	const resumed: INodeExecutionData = { json: scrubDeep(item, hidden), pairedItem: { item: 0 } };
	return { ...reply(ctx, 200, 'Execution resumed'), workflowData: [[resumed]] };
}

/** The reference the execution waits for and the record sent, or undefined when it waits for none. */
function waitingFor(ctx: IWebhookFunctions): ReturnType<typeof readTimeLimitItem> {
	try {
		return readTimeLimitItem(ctx.evaluateExpression('{{ $json }}', 0));
	} catch {
		return undefined;
	}
}

/** Answers the request; without workflowData n8n resumes nothing. */
function reply(ctx: IWebhookFunctions, code: number, message: string): IWebhookResponseData {
	const response = ctx.getResponseObject();
	response.writeHead(code, { 'content-type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ message }));
	return { noWebhookResponse: true };
}
