/**
 * A node run as an AI agent's tool fails closed: an operation that moves money refuses unless its
 * Maximum Amount per Payout is set, the Allowed Recipients option (when set) is enforced, and a
 * refusal comes back as the tool's answer, worded for the agent to relay, not as a crashed run.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isAllowedRecipient, parseAllowList } from '../validation/allowList';
import type { PayoutRecipient } from '../validation/records';
import { readOption } from './operation';
import { stopRun } from './runStop';

/**
 * Whether the node runs as a tool: n8n 2.x says so (`isToolExecution`) when the agent calls it
 * through its tool wrapper; when the engine runs the tool node itself (n8n 2.x agents) or n8n is
 * older, the tool variant's type name ends in "Tool". Either one is enough.
 */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	const { isToolExecution } = ctx as Partial<Pick<IExecuteFunctions, 'isToolExecution'>>;
	if (typeof isToolExecution === 'function' && isToolExecution.call(ctx)) return true;
	return ctx.getNode().type.endsWith('Tool');
}

/** As a tool, an operation that moves money needs its cap set; without it nothing is sent. */
export function requireCapAsTool(
	ctx: IExecuteFunctions,
	option = 'maxAmountPerPayout',
	label = 'Maximum Amount per Payout',
): void {
	if (!runsAsTool(ctx)) return;
	const options = ctx.getNode().parameters.options as IDataObject | undefined;
	if (options?.[option] !== undefined) return;
	throw stopRun(
		new NodeOperationError(
			ctx.getNode(),
			`Refused: this tool moves money and its "${label}" is not set, so nothing was sent`,
			{
				description: `Tell the user that the owner of this workflow must set "${label}" in the Options of this tool before an agent may use it.`,
			},
		),
	);
}

export const allowedRecipientsOption: INodeProperties = {
	displayName: 'Allowed Recipients',
	name: 'allowedRecipients',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	placeholder: '09171234567, 001234567890, 0918*',
	description:
		'Only these recipients may be paid: mobile numbers and account numbers, separated by commas or new lines; * stands for any digits (0918* allows every number starting with 0918). A payout to anyone else is refused with nothing sent. Recommended when an AI agent uses this node.',
};

/** Refuses a payout to a recipient outside Allowed Recipients, when the option is set. */
export function requireAllowedRecipient(
	ctx: IExecuteFunctions,
	itemIndex: number,
	recipient: PayoutRecipient,
): void {
	const options = ctx.getNode().parameters.options as IDataObject | undefined;
	if (options?.allowedRecipients === undefined) return;
	const allowList = parseAllowList(readOption(ctx, 'allowedRecipients', itemIndex, ''));
	if (isAllowedRecipient(recipient, allowList)) return;
	const who = recipient.accountNumber ? 'account number' : 'mobile number';
	throw new NodeOperationError(
		ctx.getNode(),
		`Refused: the recipient's ${who} is not in this node's Allowed Recipients, so nothing was sent`,
		{
			itemIndex,
			description:
				'Tell the user that this recipient is not allowed. The owner of this workflow can add it to "Allowed Recipients" in the Options.',
		},
	);
}

/** A refusal or error as a tool's answer, which the agent reads and can relay. */
export function toolAnswerFor(error: unknown): IDataObject {
	const message = error instanceof Error ? error.message : String(error);
	const description =
		error instanceof Error && 'description' in error && typeof error.description === 'string'
			? error.description
			: undefined;
	return { refused: true, error: message, ...(description ? { whatToDo: description } : {}) };
}
