import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { amountField, callbackMissingNotice, callbackWebhookUrlField, newReferenceNoField } from '../../../shared/fields';
import type { ReadThenSend } from '../../../shared/itemRunner';
import { findCollectionTransaction } from '../../../shared/lookups';
import { submitOnce } from '../../../shared/moneySafe';
import { callService } from '../../../shared/transport';
import { parseAmount, parseOptionalUrl, parseReferenceNo, requireText } from '../../../shared/validation';
import { CUSTOMER_FIELDS, customerBody, extraBody } from '../../helpers/customerFields';
import { describeConflict, generatedTransaction } from '../../helpers/transaction';

const show = { resource: ['transaction'], operation: ['generate'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Channel Name or ID',
		name: 'channelCode',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getChannels' },
		required: true,
		default: '',
		description:
			'The payment channel the customer pays with. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show },
	},
	amountField(show),
	newReferenceNoField(show, 'payment link', 'e.g. INV-2024-0001'),
	callbackWebhookUrlField(show, 'payment'),
	callbackMissingNotice(show, 'payment'),
	{
		displayName: 'Success Redirect URL',
		name: 'successRedirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://shop.example.com/thank-you',
		description: 'Where the customer\'s browser goes after a successful payment',
		displayOptions: { show },
	},
	{
		displayName: 'Failure Redirect URL',
		name: 'failureRedirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://shop.example.com/payment-failed',
		description: 'Where the customer\'s browser goes after a failed or cancelled payment',
		displayOptions: { show },
	},
	{
		displayName: 'Customer Fields',
		name: 'customerFields',
		type: 'collection',
		placeholder: 'Add Customer Field',
		default: {},
		description: 'Customer details some channels (such as cards) require',
		displayOptions: { show },
		options: CUSTOMER_FIELDS.map(({ name, label }) => ({
			displayName: label,
			name,
			type: 'string' as const,
			default: '',
			...(name === 'email' ? { placeholder: 'name@email.com' } : {}),
			...(name === 'mobileNumber' ? { placeholder: 'e.g. 09171234567' } : {}),
			...(name === 'countryCode' ? { placeholder: 'e.g. PH' } : {}),
		})).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
	executionOptionsProperty(show, undefined, [
		{
			displayName: 'Extra Body Fields',
			name: 'extraBodyFields',
			type: 'json',
			default: '{}',
			description:
				'Other fields your channel demands, as a JSON object. They are sent as they are, but can never replace the channel, amount, reference or URLs.',
		},
	]),
];

/** Reads and checks the item, then generates its payment link at most once. */
export const execute: ReadThenSend = {
	read(ctx, itemIndex) {
		const request = readTransactionRequest(ctx, itemIndex);
		return async () => await generateOnce(ctx, itemIndex, request);
	},
};

interface TransactionRequest {
	channelCode: string;
	amount: number;
	referenceNo: string;
	body: IDataObject;
	timeoutMs: number;
}

function readTransactionRequest(ctx: IExecuteFunctions, itemIndex: number): TransactionRequest {
	const node = ctx.getNode();
	const channelCode = requireText(node, itemIndex, 'Channel', ctx.getNodeParameter('channelCode', itemIndex));
	// A column missing from the row maps to undefined: report it as empty, not as "undefined".
	const amount = parseAmount(node, itemIndex, ctx.getNodeParameter('amount', itemIndex) ?? '');
	const referenceNo = parseReferenceNo(node, itemIndex, ctx.getNodeParameter('referenceNo', itemIndex));
	const urls: IDataObject = {};
	for (const [name, field, label] of [
		['callbackWebhookUrl', 'callback_webhook_url', 'Callback Webhook URL'],
		['successRedirectUrl', 'success_redirect_url', 'Success Redirect URL'],
		['failureRedirectUrl', 'failure_redirect_url', 'Failure Redirect URL'],
	] as const) {
		const url = parseOptionalUrl(node, itemIndex, label, ctx.getNodeParameter(name, itemIndex, ''));
		if (url) urls[field] = url;
	}
	const customer = customerBody(node, itemIndex, ctx.getNodeParameter('customerFields', itemIndex, {}) as IDataObject);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const extra = extraBody(node, itemIndex, options.extraBodyFields);
	const { timeoutMs } = readExecutionOptions(ctx, itemIndex);

	// Core fields last: nothing typed elsewhere can replace them.
	const body: IDataObject = {
		...extra,
		...customer,
		channel_code: channelCode,
		amount,
		reference_no: referenceNo,
		...urls,
	};

	return { channelCode, amount, referenceNo, body, timeoutMs };
}

async function generateOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ channelCode, amount, referenceNo, body, timeoutMs }: TransactionRequest,
): Promise<IDataObject> {
	const outcome = await submitOnce(ctx, itemIndex, {
		referenceNo,
		noun: 'transaction',
		create: async () => {
			const { data } = await callService(ctx, { endpoint: 'generateTransaction', body, timeoutMs });
			return generatedTransaction(ctx, data, referenceNo);
		},
		lookup: async () => await findCollectionTransaction(ctx, referenceNo, timeoutMs),
		conflict: (existing) => describeConflict(existing, amount, channelCode),
	});
	return { ...outcome.record, replayed: outcome.replayed };
}
