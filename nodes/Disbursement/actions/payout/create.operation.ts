/**
 * Payout > Create (Process Disbursement, interface document 4.6). Every field of the item is
 * checked before anything is sent; the payout is then created at most once per reference_no.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { stopRun } from '../../../shared/itemRunner';
import type { ItemPlan } from '../../../shared/operation';
import { ItemProblems } from '../../../shared/problems';
import {
	parseAmount,
	parseJsonObject,
	parseOptionalUrl,
	parseReferenceNo,
	readLimit,
	requireText,
} from '../../../shared/validation';
import { bankTransferFields, bankTransferMapping } from './fields/bankTransfer.fields';
import { commonPayoutFields } from './fields/common.fields';
import { eWalletFields, eWalletMapping } from './fields/eWallet.fields';
import { mergeUnder, readChannelFields } from './fields/mapping';

const show = { resource: ['payout'], operation: ['create'] };

export const description: INodeProperties[] = [
	...commonPayoutFields,
	...bankTransferFields,
	...eWalletFields,
	{
		displayName: 'Extra Channel Fields (JSON)',
		name: 'extraChannelFields',
		type: 'json',
		default: '{}',
		description:
			'Channel fields this form does not list, as a JSON object. They are added to "fields" in the request; a value filled in above always wins over the same key here.',
		displayOptions: { show },
	},
	executionOptionsProperty(show, 'createPayout', [
		{
			displayName: 'Maximum Amount per Payout',
			name: 'maxAmountPerPayout',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: 50000,
			description:
				'Safety limit: a payout above this amount is refused before it is sent. It must be a plain positive number (e.g. 20000): anything else stops the node before any payout is sent. Remove the option to have no limit. Recommended when an AI agent uses this node.',
		},
	]),
];

/**
 * The Maximum Amount per Payout of an item, or undefined when the option is not set. A value that
 * is not a clean positive number stops the run before anything is sent: never "no limit".
 */
function readPayoutCap(ctx: IExecuteFunctions, itemIndex: number, node: INode = ctx.getNode()): number | undefined {
	// Whether the option is set is read from the stored parameters: an expression that comes out
	// empty or undefined is a set limit that cannot be read, not an absent one.
	const options = node.parameters.options as { maxAmountPerPayout?: unknown } | undefined;
	if (options?.maxAmountPerPayout === undefined) return undefined;
	const raw = ctx.getNodeParameter('options.maxAmountPerPayout', itemIndex, undefined) as unknown;
	const cap = readLimit(raw);
	if (cap !== undefined) return cap;
	const given = typeof raw === 'string' || typeof raw === 'number' ? String(raw).slice(0, 40) : '';
	const shown = given.trim() === '' ? 'empty' : `"${given}"`;
	throw stopRun(
		new NodeOperationError(
			node,
			`Maximum Amount per Payout is ${shown}, not a positive number: no payout was sent`,
			{
				itemIndex,
				description:
					'Write the limit as a plain number such as 20000 (no commas, currency signs or text), or remove the option to have no limit.',
			},
		),
	);
}

/** Reads and checks one item; throws one error listing every problem of the item. */
export function prepare(ctx: IExecuteFunctions, itemIndex: number): ItemPlan {
	const node = ctx.getNode();
	const problems = new ItemProblems(node, itemIndex);
	const param = (name: string, fallback: unknown = '') => ctx.getNodeParameter(name, itemIndex, fallback);

	const channelType = String(param('channelType', 'bankTransfer'));
	const channel = problems.check(() => requireText(node, itemIndex, 'Channel', param('channel')));
	const amount = problems.check(() => parseAmount(node, itemIndex, param('amount')));
	const maxPerPayout = readPayoutCap(ctx, itemIndex, node);
	if (amount !== undefined && maxPerPayout !== undefined && amount > maxPerPayout) {
		problems.add(
			`Amount ${amount} is above the Maximum Amount per Payout (${maxPerPayout.toLocaleString('en-US')}) set in this node's options`,
			'Lower the amount, or raise the limit if a payout this large is intended',
		);
	}
	const referenceNo = problems.check(() => parseReferenceNo(node, itemIndex, param('referenceNo')));
	const callbackUrl = problems.check(() =>
		parseOptionalUrl(node, itemIndex, 'Callback Webhook URL', param('callbackWebhookUrl')),
	);

	const mappings =
		channelType === 'bankTransfer' ? bankTransferMapping : channelType === 'eWallet' ? eWalletMapping : undefined;
	if (!mappings) problems.add(`Channel Type "${channelType}" is not one of bankTransfer, eWallet`);
	const formFields = readChannelFields(ctx, itemIndex, mappings ?? [], problems);
	const extraFields = problems.check(() =>
		parseJsonObject(node, itemIndex, 'Extra Channel Fields (JSON)', param('extraChannelFields', '{}')),
	);

	problems.throwIfAny();
	const { timeoutMs, endpointPath } = readExecutionOptions(ctx, itemIndex);
	// Every value is present once no problem was collected.
	const body: IDataObject = { channel: channel!, amount: amount!, reference_no: referenceNo! };
	if (callbackUrl) body.callback_webhook_url = callbackUrl;
	body.fields = mergeUnder((extraFields ?? {}) as IDataObject, formFields);
	return {
		send: { endpoint: 'createPayout', pathOverride: endpointPath, body, timeoutMs },
		creates: { kind: 'payout', referenceNo: referenceNo!, amount: amount!, channel: channel! },
	};
}

/** An invalid limit stops the node before the first payout, not at the row that reads it. */
export function checkRun(ctx: IExecuteFunctions): void {
	if (ctx.getInputData().length > 0) readPayoutCap(ctx, 0);
}

