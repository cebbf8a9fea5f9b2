/**
 * Payout > Prepare: the first half of a payout a person approves. The row is read and checked
 * exactly as Payout > Create does (its `prepare`); nothing that moves money is sent. The output is
 * a summary a person can check and an approval token covering every field that will be sent,
 * signed with the credential (shared/runner/approval.ts), valid for a limited time. Payout > Confirm
 * sends exactly that payout; no state is kept between the two. With Maximum Total per Day set, the
 * day's figures are read from the ledger (nothing is reserved) and stated in the signed summary:
 * advisory, since Confirm reserves and counts again when it sends.
 */
import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { dailyCapOptions, executionOptionsProperty } from '../../../shared/descriptions/properties';
import { readDailyCap } from '../../../shared/runner/dailyCap';
import { runParameter } from '../../../shared/runner/itemValues';
import {
	type BatchMode,
	type ItemPlan,
	type MoneyIntent,
	type RunGuards,
	type SendPlan,
} from '../../../shared/runner/operation';
import { readOption } from '../../../shared/runner/options';
import { allowedRecipientsOption, checkAllowList } from '../../../shared/runner/toolMode';
import { unshownCodes } from '../../../shared/validation/approvalToken';
import {
	maxAmountPerPayoutOption,
	payoutFormProperties,
	prepare as preparePayout,
	readMaxPerPayout,
} from './create.operation';
import type { RunContext } from '../../../shared/runner/runContext';

const DEFAULT_VALID_MINUTES = 15;
const MAX_VALID_MINUTES = 1440;

/** Maximum Total per Day as Prepare reads it: the day's figures for the person, nothing reserved. */
const DAY_AT_PREPARE =
	"The day's payouts of this node's credential are read from the ledger of the Payout Ledger credential (an n8n Data Table, n8n 2.7 or later), and the summary a person approves states the day's total so far and what remains after this payout. A payout that alone would bring the day above this is refused, with nothing prepared, as is every payout when the ledger cannot be read. Nothing is reserved here: set the same maximum on Payout > Confirm, which counts the day again when it sends. A plain positive number; left empty, it stops the node before anything is prepared.";

/** Whether Prepare and Confirm take one payout per item or all their items as one batch. */
export const APPROVAL_SCOPE = 'approvalScope';
export const BATCH = 'batch';

/** The approval's scope, read once for the run: a value it does not know stops the node. */
export function approvesBatch(run: RunContext): boolean {
	const scope = runParameter(run, APPROVAL_SCOPE, 0, 'eachItem');
	if (scope === BATCH) return true;
	if (scope === 'eachItem') return false;
	throw new NodeOperationError(
		run.ctx.getNode(),
		`Approval is "${String(scope)}", neither "eachItem" nor "batch": nothing was prepared or sent`,
		{ description: 'Choose Approval from its list.' },
	);
}

export const approvalScopeProperty: INodeProperties = {
	displayName: 'Approval',
	name: APPROVAL_SCOPE,
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'One per Item',
			value: 'eachItem',
			description: 'Each input item is one payout with its own summary and approval token',
		},
		{
			name: 'One for All Items (Batch)',
			value: BATCH,
			description:
				'All input items are one batch (a payroll or supplier sheet): one item comes out, with the batch in words, its table (HTML and CSV) and one approval token for the exact list',
		},
	],
	default: 'eachItem',
	description: 'Whether a person approves each payout, or the whole sheet at once',
};

const properties: INodeProperties[] = [
	{
		displayName:
			'Nothing is paid here: the payout is checked as Create checks it, and a summary for a person comes out with an approval token. Payout > Confirm sends exactly that payout once a person approved it.',
		name: 'prepareNotice',
		type: 'notice',
		default: '',
	},
	approvalScopeProperty,
	// The same form as Create, without its column notices: those are Create's (README's column table).
	...payoutFormProperties.filter((property) => !property.name.startsWith('columnsNotice')),
	executionOptionsProperty('createPayout', [
		{
			displayName: 'Valid For (Minutes)',
			name: 'approvalValidMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_VALID_MINUTES },
			default: DEFAULT_VALID_MINUTES,
			description:
				'How long the approval token may be confirmed; after that Payout > Confirm refuses it and the payout must be prepared again',
		},
		maxAmountPerPayoutOption,
		...dailyCapOptions.map((option) =>
			option.name === 'maxTotalPerDay' ? { ...option, description: DAY_AT_PREPARE } : option,
		),
		allowedRecipientsOption,
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payout'], operation: ['prepare'] } },
	properties,
);

/**
 * Limits and Allowed Recipients that cannot be read stop the node before the first row. With
 * Maximum Total per Day set, each payout's summary states the day's figures, read from the ledger
 * (the runner's dailyCap.ts), and one that would bring the day above the maximum is refused.
 */
export function batch(run: RunContext): BatchMode | undefined {
	return approvesBatch(run) ? { approve: true } : undefined;
}

export function checkRun(run: RunContext): RunGuards {
	const { ctx } = run;
	if (ctx.getInputData().length > 0) readMaxPerPayout(run, 0);
	checkAllowList(run);
	return { dryRun: false, dailyCap: readDailyCap(run) };
}

export function prepare(run: RunContext, itemIndex: number): ItemPlan {
	const { ctx } = run;
	const { send, creates } = preparePayout(run, itemIndex) as SendPlan & { creates: MoneyIntent };
	// The summary shows codes amid the payout's facts: a code that is not one is never shown there.
	const unshown = creates.recipient ? unshownCodes(creates.recipient) : [];
	if (unshown.length > 0) {
		throw new NodeOperationError(ctx.getNode(), `${unshown.join('; ')}: nothing was prepared`, {
			itemIndex,
			description:
				'Choose the bank and the channel from their lists, or give the codes the service issued.',
		});
	}
	const raw = readOption(run, 'approvalValidMinutes', itemIndex, DEFAULT_VALID_MINUTES);
	const minutes = Number(raw);
	if (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_VALID_MINUTES) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Options > Valid For (Minutes), how long the approval may be confirmed, is "${String(raw)}", not a number of minutes from 1 to ${MAX_VALID_MINUTES}`,
			{ itemIndex, description: 'Set it to a whole number of minutes such as 15.' },
		);
	}
	return {
		approve: {
			send,
			creates,
			channelType: String(runParameter(run, 'channelType', itemIndex, 'bankTransfer')),
			validForMs: minutes * 60_000,
		},
	};
}
