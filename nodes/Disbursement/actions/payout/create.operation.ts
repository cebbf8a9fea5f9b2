/**
 * Payout > Create (Process Disbursement, interface document 4.6). Every field of the item is
 * checked before anything is sent; the payout is then created at most once per reference_no.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/descriptions/executionOptions';
import { moneyGuardOptions, readRunGuards, readSafetyLimit, type RunGuards } from '../../../shared/runner/moneyGuards';
import type { ItemPlan } from '../../../shared/runner/operation';
import { itemValues } from '../../../shared/runner/itemValues';
import { runParameter } from '../../../shared/runner/runParameters';
import { ItemProblems } from '../../../shared/validation/problems';
import {
	parseAmount,
	parseJsonObject,
	parseOptionalUrl,
	parseReferenceNo,
	requireText,
} from '../../../shared/validation/validation';
import { bankTransferMapping, bankTransferProperties, eWalletMapping, eWalletProperties } from './form/channelFields';
import { commonPayoutProperties } from './form/common.properties';
import { explainChannelRefusal } from './channels';
import { mergeUnder, readChannelFields, type ChannelType } from './form/mapping';
import { PAYOUT_COLUMNS } from './form/columns';

const show = { resource: ['payout'], operation: ['create'] };

export const description: INodeProperties[] = [
	...commonPayoutProperties,
	...bankTransferProperties,
	...eWalletProperties,
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
		...moneyGuardOptions('payout'),
	]),
];

/** Reads and checks one item; throws one error listing every problem of the item. */
export function prepare(ctx: IExecuteFunctions, itemIndex: number): ItemPlan {
	const node = ctx.getNode();
	const problems = new ItemProblems(node, itemIndex);
	const channelType = String(runParameter(ctx, 'channelType', itemIndex, 'bankTransfer'));
	// The item's own columns with automatic mapping, the node's fields otherwise.
	const param = itemValues(ctx, itemIndex, PAYOUT_COLUMNS[channelType as ChannelType] ?? []);
	const channel = problems.check(() => requireText(node, itemIndex, 'Channel', param('channel')));
	const amount = problems.check(() => parseAmount(node, itemIndex, param('amount')));
	const maxPerPayout = readSafetyLimit(ctx, itemIndex, 'maxAmountPerPayout', 'Maximum Amount per Payout', node);
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
	const formFields = readChannelFields(ctx, itemIndex, mappings ?? [], problems, param);
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
		creates: { kind: 'payout', referenceNo: referenceNo!, amount: amount!, channel: channel!, payee: payeeOf(formFields) },
		explain: explainChannelRefusal(ctx, channel!, channelType as ChannelType),
	};
}

/** Who is paid, masked for a dry run's preview: the last 4 digits of the account or mobile number. */
function payeeOf(fields: IDataObject): string | undefined {
	const receiver = fields.receiver as IDataObject | undefined;
	const number = String(receiver?.account_number ?? fields.mobile_number ?? '');
	return number ? `${'•'.repeat(Math.max(0, number.length - 4))}${number.slice(-4)}` : undefined;
}

/** Limits that cannot be read stop the node before the first payout, not at the row that reads them. */
export function checkRun(ctx: IExecuteFunctions): RunGuards {
	const guards = readRunGuards(ctx);
	if (ctx.getInputData().length > 0) readSafetyLimit(ctx, 0, 'maxAmountPerPayout', 'Maximum Amount per Payout');
	return guards;
}
