/**
 * A node run as an AI agent's tool fails closed: an operation that moves money refuses unless its
 * Maximum per Payout is set, the Allowed Recipients option (when set) is enforced, and a
 * refusal comes back as the tool's answer, worded for the agent to relay, not as a crashed run.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	ANY_BANK,
	isAllowedRecipient,
	parseAllowList,
	type AllowedRecipient,
	type RefusedAllowList,
} from '../validation/allowList';
import type { Recipient } from '../validation/recipient';
import { sentence, shownText } from '../validation/shownText';
import { readOption } from './options';
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
	label = 'Maximum per Payout',
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
		'Only these recipients may be paid, separated by commas or new lines. A mobile number (09171234567, +63 917 123 4567) admits e-wallet payouts to it. An account number is written with its bank code: BDO:001234567890 admits bank transfers to that account at bank BDO only, ANY:001234567890 at any bank. * stands for any digits (0917* admits every mobile number starting with 0917). An entry that is none of these, or an account number without its bank, stops the node before anything is sent; a payout to anyone else is refused with nothing sent. Recommended when an AI agent uses this node.',
};

const isSet = (ctx: IExecuteFunctions) =>
	(ctx.getNode().parameters.options as IDataObject | undefined)?.allowedRecipients !== undefined;

const quotedEntries = (entries: string[]) =>
	entries.map((entry) => `"${entry.slice(0, 40)}"`).join(', ');

/** What is wrong with the list, naming each entry, and how to write an account number without its bank. */
function refusedListMessage({ unreadable, withoutBank }: RefusedAllowList): string {
	const one = (entries: string[]) => entries.length === 1;
	const parts = [];
	if (unreadable.length > 0)
		parts.push(
			`${one(unreadable) ? 'an entry that is' : 'entries that are'} neither a mobile number nor an account number: ${quotedEntries(unreadable)}`,
		);
	if (withoutBank.length > 0)
		parts.push(
			`${one(withoutBank) ? 'an account number without its bank' : 'account numbers without their bank'}: ${quotedEntries(withoutBank)}`,
		);
	let message = `Allowed Recipients has ${parts.join(', and ')}.`;
	if (withoutBank.length > 0) {
		// The entry's own number in the fix, without the former any-bank prefix.
		const number = withoutBank[0].replace(/^account\s*:\s*/i, '').slice(0, 40);
		message += ` Write ${one(withoutBank) ? 'it' : 'each'} with its bank code, as BDO:${number}, or as ${ANY_BANK}:${number} for that number at any bank.`;
	}
	return `${message} Nothing was sent`;
}

/** The item's Allowed Recipients; an entry that cannot be used stops the run before anything is sent. */
function allowListOf(run: RunContext, itemIndex: number): AllowedRecipient[] {
	const { ctx } = run;
	const parsed = parseAllowList(readOption(run, 'allowedRecipients', itemIndex, ''));
	if ('allowed' in parsed) return parsed.allowed;
	throw stopRun(
		new NodeOperationError(ctx.getNode(), refusedListMessage(parsed), {
			itemIndex,
			description: `Write each entry as a mobile number (09171234567, 0917*) or as a bank code and an account number (BDO:001234567890, or ${ANY_BANK}:001234567890 for that number at any bank), separated by commas. An account number names an account only together with its bank: at another bank the same number is someone else's.`,
		}),
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
				'Tell the user that this recipient is not allowed. The owner of this workflow can add it to "Allowed Recipients" in the Options (a mobile number admits only e-wallet payouts; a bank code and an account number, such as BDO:001234567890, only bank transfers to that account at that bank).',
		},
	);
}

/**
 * A refusal or error as a tool's answer, which the agent reads and can relay to a person as it is:
 * sentences ending with a full stop, and no "(row 1)" when the tool was given one item (a
 * spreadsheet's row means nothing in a chat).
 */
export function toolAnswerFor(error: unknown, itemCount: number): IDataObject {
	const message = error instanceof Error ? error.message : String(error);
	const description =
		error instanceof Error && 'description' in error && typeof error.description === 'string'
			? error.description
			: undefined;
	const said = itemCount > 1 ? message : message.replace(/ \(row \d+\)$/, '');
	return {
		refused: true,
		error: sentence(said),
		...(description ? { whatToDo: sentence(description) } : {}),
	};
}
