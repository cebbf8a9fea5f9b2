import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	amountProperty,
	callbackMissingNotice,
	callbackWebhookUrlProperty,
	executionOptionsProperty,
	manualOnly,
	moneyGuardOptions,
	newReferenceNoProperty,
} from '../../../shared/descriptions/properties';
import { sendAndWaitProperties, unlessWaiting } from '../../../shared/descriptions/sendAndWait';
import { isAutoMapped, itemValues } from '../../../shared/runner/itemValues';
import {
	readExecutionOptions,
	readRunGuards,
	type RunGuards,
	type ItemPlan,
} from '../../../shared/runner/operation';
import { readOption } from '../../../shared/runner/options';
import { resumeCallbackUrl, sendsAndWaits } from '../../../shared/runner/sendAndWait';
import { requireCapAsTool } from '../../../shared/runner/toolMode';
import { unsendableCode } from '../../../shared/validation/codes';
import { ItemProblems } from '../../../shared/validation/problems';
import {
	parseAmount,
	parseOptionalUrl,
	parseReferenceNo,
	requireText,
} from '../../../shared/validation/validation';
import { CUSTOMER_DETAILS, customerBody, extraBody } from '../../helpers/customerBody';
import { customerColumns, GENERATE_COLUMNS, generateMappingProperties } from './columns';
import type { RunContext } from '../../../shared/runner/runContext';

const properties: INodeProperties[] = [
	{
		displayName: 'Channel Name or ID',
		name: 'channelCode',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getChannels' },
		required: true,
		default: '',
		description:
			'The payment channel the customer pays with. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	...generateMappingProperties,
	manualOnly(amountProperty),
	manualOnly(newReferenceNoProperty('payment link', 'e.g. INV-2024-0001')),
	...sendAndWaitProperties('payment link'),
	unlessWaiting(callbackWebhookUrlProperty('payment')),
	unlessWaiting(callbackMissingNotice('payment')),
	{
		displayName: 'Success Redirect URL',
		name: 'successRedirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://shop.example.com/thank-you',
		description: "Where the customer's browser goes after a successful payment",
	},
	{
		displayName: 'Failure Redirect URL',
		name: 'failureRedirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://shop.example.com/payment-failed',
		description: "Where the customer's browser goes after a failed or cancelled payment",
	},
	manualOnly({
		displayName: 'Customer Fields',
		name: 'customerFields',
		type: 'collection',
		placeholder: 'Add Customer Field',
		default: {},
		description: 'Customer details some channels (such as cards) require',
		options: CUSTOMER_DETAILS.map(({ name, label }) => ({
			displayName: label,
			name,
			type: 'string' as const,
			default: '',
			...(name === 'email' ? { placeholder: 'name@email.com' } : {}),
			...(name === 'mobileNumber' ? { placeholder: 'e.g. 09171234567' } : {}),
			...(name === 'countryCode' ? { placeholder: 'e.g. PH' } : {}),
		})).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	}),
	executionOptionsProperty(undefined, [
		{
			displayName: 'Extra Body Fields',
			name: 'extraBodyFields',
			type: 'json',
			default: '{}',
			description:
				'Other fields your channel demands, as a JSON object. They are sent as they are, but can never replace the channel, amount, reference or URLs.',
		},
		...moneyGuardOptions('payment link'),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['generate'] } },
	properties,
);

const URL_FIELDS = [
	['callbackWebhookUrl', 'callback_webhook_url', 'Callback Webhook URL'],
	['successRedirectUrl', 'success_redirect_url', 'Success Redirect URL'],
	['failureRedirectUrl', 'failure_redirect_url', 'Failure Redirect URL'],
] as const;

/** Reads and checks one item (every problem at once); the payment link is then created at most once. */
export function prepare(run: RunContext, itemIndex: number): ItemPlan {
	const { ctx } = run;
	const node = ctx.getNode();
	const problems = new ItemProblems(node, itemIndex);
	// The item's own columns with automatic mapping, the node's fields otherwise.
	const param = itemValues(run, itemIndex, GENERATE_COLUMNS);
	const channelCode = problems.check(() =>
		requireText(node, itemIndex, 'Channel', param('channelCode')),
	);
	// Sent exactly as typed, so it must be a code the service could have issued (codes.ts).
	const unsendable = channelCode === undefined ? undefined : unsendableCode('Channel', channelCode);
	if (unsendable) problems.add(unsendable);
	// A column missing from the row maps to undefined: report it as empty, not as "undefined".
	const amount = problems.check(() => parseAmount(node, itemIndex, param('amount') ?? ''));
	const referenceNo = problems.check(() => parseReferenceNo(node, itemIndex, param('referenceNo')));
	const urls: IDataObject = {};
	// Waiting, the service calls this execution back: the URL is n8n's, not the user's.
	const waits = sendsAndWaits(run);
	if (waits) urls.callback_webhook_url = resumeCallbackUrl(run, itemIndex);
	for (const [name, field, label] of URL_FIELDS) {
		if (waits && field === 'callback_webhook_url') continue;
		const url = problems.check(() => parseOptionalUrl(node, itemIndex, label, param(name, '')));
		if (url) urls[field] = url;
	}
	const customerFields = isAutoMapped(run)
		? customerColumns(param)
		: (param('customerFields', {}) as IDataObject);
	const customer = problems.check(() => customerBody(node, itemIndex, customerFields));
	const extra = problems.check(() =>
		extraBody(node, itemIndex, readOption(run, 'extraBodyFields', itemIndex, '')),
	);
	problems.throwIfAny();
	const { timeoutMs } = readExecutionOptions(run, itemIndex);

	// Core fields last: nothing typed elsewhere can replace them. Every value is present once no
	// problem was collected.
	const body: IDataObject = {
		...extra,
		...customer,
		channel_code: channelCode!,
		amount: amount!,
		reference_no: referenceNo!,
		...urls,
	};
	return {
		send: { endpoint: 'generateTransaction', body, timeoutMs },
		creates: {
			kind: 'transaction',
			referenceNo: referenceNo!,
			amount: amount!,
			channel: channelCode!,
		},
	};
}

/**
 * Dry Run and Maximum Total per Run, read before anything is sent. As an agent's tool (one link per
 * call) Maximum Total per Run is its cap, and it must be set.
 */
export function checkRun(run: RunContext): RunGuards {
	const { ctx } = run;
	requireCapAsTool(ctx, 'maxTotalPerRun', 'Maximum Total per Run');
	return readRunGuards(run);
}

/** The payment link's callback resumes an execution waiting for it (Send and Wait for Final Status). */
export const waitsFor = 'collection';
