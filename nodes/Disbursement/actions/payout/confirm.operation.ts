/**
 * Payout > Confirm: the second half of a payout a person approved. It takes the approval token of
 * Payout > Prepare and sends exactly the payout the token covers, through the money-safe path (its
 * reference_no makes a second Confirm a replay, never a second payout). The runner refuses, with
 * nothing sent, a token that was changed, has expired or was signed by another credential
 * (shared/runner/approval.ts); this node's own Maximum per Payout and Allowed Recipients apply too.
 */
import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	dailyCapOptions,
	executionOptionsProperty,
	limitWithoutDefault,
	maxTotalPerRunOption,
} from '../../../shared/descriptions/properties';
import { readSafetyLimit } from '../../../shared/runner/options';
import { isBatchToken } from '../../../shared/validation/batchToken';
import { readDailyCap } from '../../../shared/runner/dailyCap';
import {
	readExecutionOptions,
	type BatchMode,
	type ItemPlan,
	type RunGuards,
} from '../../../shared/runner/operation';
import {
	allowedRecipientsOption,
	checkAllowList,
	requireCapAsTool,
} from '../../../shared/runner/toolMode';
import {
	APPROVAL_VERSION,
	approvalSummary,
	earlierApprovalVersion,
	readApprovalToken,
	type EarlierVersion,
} from '../../../shared/validation/approvalToken';
import type { ChannelType } from '../../../shared/validation/channels';
import {
	aboveMaxPerPayout,
	maxAmountPerPayoutOption,
	payoutFormProperties,
	payoutPlan,
	prepare as preparePayout,
	readMaxPerPayout,
} from './create.operation';
import { APPROVAL_SCOPE, approvalScopeProperty, approvesBatch, BATCH } from './prepare.operation';
import { refuseUnreadDryRun, storedDryRunOption } from './formVersions';
import type { RunContext } from '../../../shared/runner/runContext';

const properties: INodeProperties[] = [
	{
		displayName:
			"Money moves when this node runs: it sends the payout an approval token of Payout > Prepare covers, once. Put it behind a person's approval (n8n's human review).",
		name: 'confirmNotice',
		type: 'notice',
		default: '',
	},
	{
		...approvalScopeProperty,
		description:
			'Whether Approval Token confirms one payout, or Approved Batch and the input items (the rows) confirm a whole batch',
	},
	{
		displayName: 'Approval Token',
		name: 'approvalToken',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		displayOptions: { show: { [APPROVAL_SCOPE]: ['eachItem'] } },
		description:
			"The approvalToken Payout > Prepare returned, unchanged: it starts with the payout in words, which a person's review shows. A token that was changed, has expired, or comes from another credential, environment or Base URL is refused with nothing sent.",
	},
	{
		displayName:
			'The input items are the rows to pay, read as Payout > Create reads them (from Prepare, or the sheet read again). They are paid only when they are exactly the approved list; any row that differs, is added or is missing refuses the whole batch with nothing sent.',
		name: 'batchNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [APPROVAL_SCOPE]: [BATCH] } },
	},
	{
		displayName: 'Approved Batch',
		name: 'approvedBatch',
		type: 'json',
		required: true,
		default: '',
		placeholder: "={{ $('Prepare Payroll').first().json }}",
		displayOptions: { show: { [APPROVAL_SCOPE]: [BATCH] } },
		description:
			'The item Payout > Prepare gave for the batch (as an object or its JSON text), with its approvalToken and payouts: an expression naming the Prepare node, as the placeholder shows. Read once, from the first item. A token that was changed, has expired, or comes from another credential, environment or Base URL is refused with nothing sent.',
	},
	...updateDisplayOptions(
		{ show: { [APPROVAL_SCOPE]: [BATCH] } },
		payoutFormProperties.filter((property) => !property.name.startsWith('columnsNotice')),
	),
	executionOptionsProperty(undefined, [
		maxAmountPerPayoutOption,
		limitWithoutDefault(maxTotalPerRunOption('payout')),
		...dailyCapOptions,
		allowedRecipientsOption,
		storedDryRunOption,
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payout'], operation: ['confirm'] } },
	properties,
);

/** Why a token of an earlier version is refused, after its version's name. */
const EARLIER: Record<EarlierVersion, string> = {
	pa2: ' whose summary could be misread',
	pa3: ", made before the day's figures were signed with the payout",
};

/** With Approval set to a batch, the whole input is the batch Approved Batch names. */
export function batch(run: RunContext): BatchMode | undefined {
	if (!approvesBatch(run)) return undefined;
	return { confirm: run.ctx.getNodeParameter('approvedBatch', 0, '') };
}

export function prepare(run: RunContext, itemIndex: number): ItemPlan {
	// A batch's row is read and checked as Create reads it; the batch runner pays it (batchApproval.ts).
	if (approvesBatch(run)) return preparePayout(run, itemIndex);
	const { ctx } = run;
	const node = ctx.getNode();
	const token = String(ctx.getNodeParameter('approvalToken', itemIndex, '') ?? '').trim();
	const earlier = earlierApprovalVersion(token);
	if (earlier) {
		throw new NodeOperationError(
			node,
			`The approval token is of an earlier version ([${earlier}.…])${EARLIER[earlier]}: nothing was sent`,
			{
				itemIndex,
				description:
					'Run Payout > Prepare again, have a person check the new summary, and confirm with its whole token.',
			},
		);
	}
	if (isBatchToken(token)) {
		throw new NodeOperationError(node, "The approval token is a batch's: nothing was sent", {
			itemIndex,
			description:
				"Set Approval to One for All Items (Batch) and Approved Batch to Prepare's item for the batch.",
		});
	}
	const approved = readApprovalToken(token)?.payload;
	// A payload naming no readable payout was never signed by Prepare: refused before it is read further.
	if (!approved || approved.send.endpoint !== 'createPayout' || !approvalSummary(approved)) {
		throw new NodeOperationError(
			node,
			'The approval token is not one Payout > Prepare gave, whole: nothing was sent',
			{
				itemIndex,
				description: `Pass the approvalToken of Payout > Prepare unchanged, its summary and its [${APPROVAL_VERSION}.…] part together, or prepare the payout again.`,
			},
		);
	}
	const { timeoutMs } = readExecutionOptions(run, itemIndex);
	const send = { ...approved.send, endpoint: 'createPayout' as const, timeoutMs };
	const plan = payoutPlan(run, itemIndex, send, approved.channelType as ChannelType);
	const limit = aboveMaxPerPayout(run, itemIndex, plan.creates.amount);
	if (limit !== undefined) {
		throw new NodeOperationError(
			node,
			`Refused: the amount ${plan.creates.amount} is above this node's Maximum per Payout (${limit.toLocaleString('en-US')}), so nothing was sent`,
			{
				itemIndex,
				description:
					'Tell the user the payout is above the limit. Lower the amount and prepare it again, or ask the owner of this workflow to raise the limit.',
			},
		);
	}
	return { ...plan, approval: token };
}

/** As a tool, Confirm needs its cap set before anything is read. */
export function checkRun(run: RunContext): RunGuards {
	const { ctx } = run;
	requireCapAsTool(ctx);
	refuseUnreadDryRun(ctx, false);
	if (ctx.getInputData().length > 0) readMaxPerPayout(run, 0);
	checkAllowList(run);
	const maxTotal =
		ctx.getInputData().length > 0
			? readSafetyLimit(run, 0, 'maxTotalPerRun', 'Maximum Total per Run')
			: undefined;
	return { dryRun: false, maxTotal, dailyCap: readDailyCap(run) };
}
