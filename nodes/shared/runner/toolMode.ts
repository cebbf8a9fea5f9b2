/**
 * A node run as an AI agent's tool fails closed: an operation that moves money refuses unless its
 * Maximum Amount per Payout is set, the Allowed Recipients option (when set) is enforced, and a
 * refusal comes back as the tool's answer, worded for the agent to relay, not as a crashed run.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isAllowedRecipient, parseAllowList, type AllowedRecipient } from '../validation/allowList';
import type { Recipient } from '../validation/recipient';
import { shownText } from '../validation/shownText';
import { readOption } from './operation';
import { stopRun } from './runStop';
import type { RunContext } from './runContext';

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
	placeholder: '0917*, 09181234567, BDO:001234567890',
	description:
		'Only these recipients may be paid, separated by commas or new lines. A mobile number (09171234567, +63 917 123 4567) admits e-wallet payouts to it; an account number (001234567890) bank transfers to it at any bank, BDO:001234567890 only at bank BDO. * stands for any digits (0917* admits every mobile number starting with 0917). An entry that is none of these stops the node before anything is sent; a payout to anyone else is refused with nothing sent. Recommended when an AI agent uses this node.',
};

const isSet = (ctx: IExecuteFunctions) =>
	(ctx.getNode().parameters.options as IDataObject | undefined)?.allowedRecipients !== undefined;

/** The item's Allowed Recipients; an entry that cannot be read stops the run before anything is sent. */
function allowListOf(run: RunContext, itemIndex: number): AllowedRecipient[] {
	const { ctx } = run;
	const parsed = parseAllowList(readOption(run, 'allowedRecipients', itemIndex, ''));
	if ('allowed' in parsed) return parsed.allowed;
	const entries = parsed.unreadable.map((entry) => `"${entry.slice(0, 40)}"`).join(', ');
	throw stopRun(
		new NodeOperationError(
			ctx.getNode(),
			`Allowed Recipients has ${parsed.unreadable.length === 1 ? 'an entry' : 'entries'} that is neither a mobile number nor an account number: ${entries}. Nothing was sent`,
			{
				itemIndex,
				description:
					'Write each entry as a mobile number (09171234567, 0917*), an account number (001234567890) or a bank code and account number (BDO:001234567890), separated by commas.',
			},
		),
	);
}

/** Allowed Recipients read before the first payout, so an unreadable entry stops the run at once. */
export function checkAllowList(run: RunContext): void {
	const { ctx } = run;
	if (isSet(ctx) && ctx.getInputData().length > 0) allowListOf(run, 0);
}

/** Refuses a payout to a recipient outside Allowed Recipients, when the option is set. */
export function requireAllowedRecipient(
	run: RunContext,
	itemIndex: number,
	recipient: Recipient,
): void {
	const { ctx } = run;
	if (!isSet(ctx)) return;
	if (isAllowedRecipient(recipient, allowListOf(run, itemIndex))) return;
	const who =
		recipient.kind === 'bankAccount'
			? `account number ${recipient.accountNumber} at bank ${shownText(recipient.bankCode, 40)}`
			: `mobile number ${recipient.mobileNumber}`;
	throw new NodeOperationError(
		ctx.getNode(),
		`Refused: the recipient (${who}) is not in this node's Allowed Recipients, so nothing was sent`,
		{
			itemIndex,
			description:
				'Tell the user that this recipient is not allowed. The owner of this workflow can add it to "Allowed Recipients" in the Options (a mobile number admits only e-wallet payouts, an account number only bank transfers).',
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
