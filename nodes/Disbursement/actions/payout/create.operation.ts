/**
 * Payout > Create (Process Disbursement, interface document 4.6). Every field of the item is
 * checked before anything is sent; the payout is then created at most once per reference_no.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import type { ReadThenSend } from '../../../shared/itemRunner';
import { findPayout } from '../../../shared/lookups';
import { submitOnce } from '../../../shared/moneySafe';
import { callService } from '../../../shared/transport';
import {
	parseAmount,
	parseJsonObject,
	parseOptionalUrl,
	parseReferenceNo,
	requireText,
} from '../../../shared/validation';
import { ItemProblems } from '../../helpers/problems';
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
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 0,
			description:
				'Safety limit: a payout above this amount is refused before it is sent. 0 turns the limit off. Recommended when an AI agent uses this node.',
		},
	]),
];

interface PayoutRequest {
	referenceNo: string;
	channel: string;
	amount: number;
	body: IDataObject;
}

/** Reads and checks one item; throws one error listing every problem of the item. */
function readPayoutRequest(ctx: IExecuteFunctions, itemIndex: number): PayoutRequest {
	const node = ctx.getNode();
	const problems = new ItemProblems(node, itemIndex);
	const param = (name: string, fallback: unknown = '') => ctx.getNodeParameter(name, itemIndex, fallback);

	const channelType = String(param('channelType', 'bankTransfer'));
	const channel = problems.check(() => requireText(node, itemIndex, 'Channel', param('channel')));
	const amount = problems.check(() => parseAmount(node, itemIndex, param('amount')));
	const maxPerPayout = Number(param('options.maxAmountPerPayout', 0));
	if (amount !== undefined && Number.isFinite(maxPerPayout) && maxPerPayout > 0 && amount > maxPerPayout) {
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
	// Every value is present once no problem was collected.
	const body: IDataObject = { channel: channel!, amount: amount!, reference_no: referenceNo! };
	if (callbackUrl) body.callback_webhook_url = callbackUrl;
	body.fields = mergeUnder((extraFields ?? {}) as IDataObject, formFields);
	return { referenceNo: referenceNo!, channel: channel!, amount: amount!, body };
}

/** The channel code of a payout record, whether the service gives it as text or as an object. */
function channelCodeOf(record: IDataObject): string | undefined {
	const channel = record.channel;
	if (typeof channel === 'string') return channel;
	if (channel && typeof channel === 'object' && typeof (channel as IDataObject).code === 'string') {
		return (channel as IDataObject).code as string;
	}
	return undefined;
}

/** Why an existing payout with this reference_no is not the one the item asks for. */
function conflictWith(request: PayoutRequest, existing: IDataObject): string | undefined {
	const reasons: string[] = [];
	const existingAmount = Number(existing.amount);
	if (existing.amount !== undefined && Number.isFinite(existingAmount) && Math.abs(existingAmount - request.amount) >= 0.005) {
		reasons.push(`the existing payout is for ${existingAmount}, this item asks for ${request.amount}`);
	}
	const existingChannel = channelCodeOf(existing);
	if (existingChannel !== undefined && existingChannel !== request.channel) {
		reasons.push(`the existing payout uses channel ${existingChannel}, this item asks for ${request.channel}`);
	}
	return reasons.length > 0 ? reasons.join(', and ') : undefined;
}

/** Reads and checks the item, then creates its payout at most once. */
export const execute: ReadThenSend = {
	read(ctx, itemIndex) {
		const request = readPayoutRequest(ctx, itemIndex);
		const { timeoutMs, endpointPath } = readExecutionOptions(ctx, itemIndex);
		return async () => {
			const outcome = await submitOnce<IDataObject>(ctx, itemIndex, {
				referenceNo: request.referenceNo,
				noun: 'payout',
				create: async () => {
					const { message, data } = await callService(ctx, {
						endpoint: 'createPayout',
						pathOverride: endpointPath,
						body: request.body,
						timeoutMs,
					});
					if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
					// The response shape is not documented: without a record, echo what was accepted.
					return {
						reference_no: request.referenceNo,
						channel: request.channel,
						amount: request.amount,
						message,
					};
				},
				lookup: async () => await findPayout(ctx, request.referenceNo, timeoutMs),
				conflict: (existing) => conflictWith(request, existing),
			});
			return { ...outcome.record, replayed: outcome.replayed };
		};
	},
};
