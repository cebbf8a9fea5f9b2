/**
 * Payout > Create (Process Disbursement, docs/endpoints.md). Every field of the item is
 * checked before anything is sent; the payout is then created at most once per reference_no.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	amountProperty,
	callbackMissingNotice,
	callbackWebhookUrlProperty,
	columnsNotice,
	dailyCapOptions,
	executionOptionsProperty,
	limitWithoutDefault,
	manualOnly,
	mappingModeProperty,
	maxTotalPerRunOption,
	moneyGuardOptions,
	NEW_RECORD_COLUMNS,
	newReferenceNoProperty,
} from '../../../shared/descriptions/properties';
import { AUTO_MAP, type ColumnField } from '../../../shared/descriptions/columns';
import { sendAndWaitProperties, unlessWaiting } from '../../../shared/descriptions/sendAndWait';
import { readDailyCap } from '../../../shared/runner/dailyCap';
import { itemValues, runParameter } from '../../../shared/runner/itemValues';
import { resumeCallbackUrl, sendsAndWaits } from '../../../shared/runner/sendAndWait';
import {
	readRecipient,
	strayRecipientFields,
	type Recipient,
} from '../../../shared/validation/recipient';
import {
	readExecutionOptions,
	readRunGuards,
	type ItemPlan,
	type MoneyIntent,
	type RunGuards,
	type SendPlan,
} from '../../../shared/runner/operation';
import { readSafetyLimit } from '../../../shared/runner/options';
import type { ServiceRequest } from '../../../shared/transport/endpoints';
import {
	allowedRecipientsOption,
	checkAllowList,
	requireAllowedRecipient,
	requireCapAsTool,
} from '../../../shared/runner/toolMode';
import { ItemProblems } from '../../../shared/validation/problems';
import {
	MAX_AMOUNT,
	parseAmount,
	parseJsonObject,
	parseOptionalUrl,
	parseReferenceNo,
	requireText,
} from '../../../shared/validation/validation';
import type { ChannelType } from '../../../shared/validation/channels';
import {
	CHANNEL_FIELDS,
	channelFieldProperties,
	mergeUnder,
	readChannelFields,
} from './channelFields';
import { explainChannelRefusal } from './channels';
import {
	dryRunSetting,
	fromVersion2,
	nodeVersion,
	refuseUnreadDryRun,
	runModeNotices,
	storedDryRunOption,
	runModeProperty,
	version1Only,
} from './formVersions';
import type { RunContext } from '../../../shared/runner/runContext';

/** With "Map Input Columns Automatically", the columns a row supplies: the form's fields, checked the same way. */
const COMMON_COLUMNS: ColumnField[] = [
	...NEW_RECORD_COLUMNS,
	{ param: 'channel', label: 'Channel', orNodeField: true },
];
const columnsOf = (channelType: ChannelType): ColumnField[] => [
	...COMMON_COLUMNS,
	...CHANNEL_FIELDS[channelType].map(({ property, label }) => ({
		param: property.name,
		label: label ?? property.displayName,
		required: property.required,
	})),
];
const PAYOUT_COLUMNS: Record<ChannelType, ColumnField[]> = {
	bankTransfer: columnsOf('bankTransfer'),
	eWallet: columnsOf('eWallet'),
};

/** The payout form (channel, amount, reference, recipient): Payout > Prepare shows it too. */
export const payoutFormProperties: INodeProperties[] = [
	{
		displayName: 'Channel Type',
		name: 'channelType',
		type: 'options',
		options: [
			{
				name: 'Bank Transfer',
				value: 'bankTransfer',
				description: 'Send to a bank account (for example over InstaPay or PESONet)',
			},
			{
				name: 'E-Wallet',
				value: 'eWallet',
				description:
					'Send to an e-wallet identified by a mobile number (for example GCash or Maya)',
			},
		],
		default: 'bankTransfer',
		description: 'Decides which recipient fields the payout needs',
	},
	{
		displayName: 'Channel Name or ID',
		name: 'channel',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getPayoutChannels', loadOptionsDependsOn: ['channelType'] },
		required: true,
		default: '',
		description:
			'The payout channel, from the service\'s list for the Channel Type above (e.g. InstaPay for a bank transfer, GCash for an e-wallet). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	version1Only(mappingModeProperty('payout')),
	// An AI agent fills the form's fields, so its tool keeps manual mapping.
	fromVersion2({
		...mappingModeProperty('payout', AUTO_MAP),
		displayOptions: { show: { '@tool': [false] } },
	}),
	fromVersion2({ ...mappingModeProperty('payout'), displayOptions: { show: { '@tool': [true] } } }),
	columnsNotice(PAYOUT_COLUMNS.eWallet, { channelType: ['eWallet'] }, 'EWallet'),
	columnsNotice(PAYOUT_COLUMNS.bankTransfer, { channelType: ['bankTransfer'] }, 'BankTransfer'),
	manualOnly(amountProperty),
	manualOnly(newReferenceNoProperty('payout', 'e.g. PAYOUT-2026-0001')),
	unlessWaiting(callbackWebhookUrlProperty('payout')),
	unlessWaiting(callbackMissingNotice('payout')),
	...channelFieldProperties,
	{
		displayName: 'Channel Fields (JSON)',
		name: 'extraChannelFields',
		type: 'json',
		default: '{}',
		description:
			'Channel fields this form does not list, as a JSON object. They are added to "fields" in the request; a value filled in above always wins over the same key here.',
	},
];

export const maxAmountPerPayoutOption: INodeProperties = {
	displayName: 'Maximum per Payout',
	name: 'maxAmountPerPayout',
	type: 'number',
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: MAX_AMOUNT,
	description:
		'Safety limit: a payout above this amount is refused before it is sent. It must be a plain positive number (e.g. 20000): anything else stops the node before any payout is sent. Remove the option to have no limit. Recommended when an AI agent uses this node.',
};

/** Maximum per Payout, read fail-closed (shared/runner/options.ts `readSafetyLimit`); undefined when not set. */
export function readMaxPerPayout(
	run: RunContext,
	itemIndex: number,
	node = run.ctx.getNode(),
): number | undefined {
	return readSafetyLimit(run, itemIndex, 'maxAmountPerPayout', 'Maximum per Payout', node);
}

/**
 * The one check of a payout against Maximum per Payout, for Create and Confirm: the limit
 * the amount is above, or undefined. The limit is read even without an amount, so one that cannot
 * be read stops the run at any row.
 */
export function aboveMaxPerPayout(
	run: RunContext,
	itemIndex: number,
	amount: number | undefined,
	node = run.ctx.getNode(),
): number | undefined {
	const limit = readMaxPerPayout(run, itemIndex, node);
	return amount !== undefined && limit !== undefined && amount > limit ? limit : undefined;
}

const properties: INodeProperties[] = [
	version1Only({
		displayName:
			'Money moves when this node runs: each reference_no is paid once. "Dry Run" in Options checks a sheet without paying.',
		name: 'moneyNotice',
		type: 'notice',
		default: '',
		displayOptions: { hide: { '@tool': [true] } },
	}),
	...runModeNotices,
	{
		// Shown only where the node is an AI agent's tool: n8n's "@tool" display condition.
		displayName:
			'Money moves when the agent calls this tool. Set "Maximum per Payout" and "Maximum Total per Run" in Options, so a payout or a run above them is refused before anything is sent.',
		name: 'agentNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@tool': [true] } },
	},
	runModeProperty,
	...payoutFormProperties,
	// Version 1 stays as stored workflows know it (test/disbursement/version2.test.ts).
	...sendAndWaitProperties('payout').map(fromVersion2),
	version1Only(
		executionOptionsProperty('createPayout', [
			maxAmountPerPayoutOption,
			allowedRecipientsOption,
			...moneyGuardOptions('payout'),
		]),
	),
	// Version 2: Dry Run is the Mode above; the limits start empty instead of at a value that guards nothing.
	fromVersion2(
		executionOptionsProperty('createPayout', [
			limitWithoutDefault(maxAmountPerPayoutOption),
			limitWithoutDefault(maxTotalPerRunOption('payout')),
			...dailyCapOptions,
			allowedRecipientsOption,
			storedDryRunOption,
		]),
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payout'], operation: ['create'] } },
	properties,
);

/** Reads and checks one item; throws one error listing every problem of the item. */
export function prepare(run: RunContext, itemIndex: number): ItemPlan {
	const { ctx } = run;
	const node = ctx.getNode();
	const problems = new ItemProblems(node, itemIndex);
	const channelType = String(runParameter(run, 'channelType', itemIndex, 'bankTransfer'));
	// The item's own columns with automatic mapping, the node's fields otherwise.
	const param = itemValues(run, itemIndex, PAYOUT_COLUMNS[channelType as ChannelType] ?? []);
	const channel = problems.check(() => requireText(node, itemIndex, 'Channel', param('channel')));
	const amount = problems.check(() => parseAmount(node, itemIndex, param('amount')));
	const maxPerPayout = aboveMaxPerPayout(run, itemIndex, amount, node);
	if (maxPerPayout !== undefined) {
		problems.add(
			`Amount ${amount} is above the Maximum per Payout (${maxPerPayout.toLocaleString('en-US')}) set in this node's options`,
			'Lower the amount, or raise the limit if a payout this large is intended',
		);
	}
	const referenceNo = problems.check(() => parseReferenceNo(node, itemIndex, param('referenceNo')));
	// Waiting, the service calls this execution back: the URL is n8n's, not the user's.
	const callbackUrl = sendsAndWaits(run)
		? resumeCallbackUrl(run, itemIndex)
		: problems.check(() =>
				parseOptionalUrl(node, itemIndex, 'Callback Webhook URL', param('callbackWebhookUrl')),
			);

	const channelFields =
		channelType === 'bankTransfer' || channelType === 'eWallet'
			? CHANNEL_FIELDS[channelType]
			: undefined;
	if (!channelFields)
		problems.add(`Channel Type "${channelType}" is not one of bankTransfer, eWallet`);
	const formFields = readChannelFields(run, itemIndex, channelFields ?? [], problems, param);
	const extraFields = problems.check(() =>
		parseJsonObject(node, itemIndex, 'Channel Fields (JSON)', param('extraChannelFields', '{}')),
	);

	const fields = mergeUnder((extraFields ?? {}) as IDataObject, formFields);
	if (channelFields)
		for (const stray of strayRecipientFields(fields, channelType as ChannelType))
			problems.add(stray);

	problems.throwIfAny();
	const { timeoutMs, endpointPath } = readExecutionOptions(run, itemIndex);
	// Every value is present once no problem was collected.
	const body: IDataObject = { channel: channel!, amount: amount!, reference_no: referenceNo! };
	if (callbackUrl) body.callback_webhook_url = callbackUrl;
	body.fields = fields;
	const send = { endpoint: 'createPayout' as const, pathOverride: endpointPath, body, timeoutMs };
	return payoutPlan(run, itemIndex, send, channelType as ChannelType);
}

/**
 * A checked payout request as the runner sends it: what it creates, and how a refused channel is
 * explained. Who is paid is read here once, from the body that is sent (recipient.ts), and checked
 * against Allowed Recipients; a recipient field the channel type does not use is refused.
 */
export function payoutPlan(
	run: RunContext,
	itemIndex: number,
	send: ServiceRequest & { body: IDataObject },
	channelType: ChannelType,
): SendPlan & { creates: MoneyIntent } {
	const { ctx } = run;
	const { body } = send;
	const read = readRecipient(body, channelType);
	if ('problems' in read) {
		const problems = new ItemProblems(ctx.getNode(), itemIndex);
		for (const problem of read.problems) problems.add(problem);
		problems.throwIfAny();
	}
	const { recipient } = read as { recipient: Recipient };
	requireAllowedRecipient(run, itemIndex, recipient);
	const channel = String(body.channel);
	return {
		send,
		creates: {
			kind: 'payout',
			referenceNo: String(body.reference_no),
			amount: Number(body.amount),
			channel,
			recipient,
		},
		explain: explainChannelRefusal(run, channel, channelType),
	};
}

/** Limits that cannot be read stop the node before the first payout, not at the row that reads them. */
export function checkRun(run: RunContext): RunGuards {
	const { ctx } = run;
	requireCapAsTool(ctx);
	const guards = readRunGuards(run, dryRunSetting(run));
	// Check Only reads nothing that pays; version 1 reads Options > Dry Run itself.
	refuseUnreadDryRun(ctx, guards.dryRun || nodeVersion(run) < 2);
	if (ctx.getInputData().length > 0) readMaxPerPayout(run, 0);
	checkAllowList(run);
	return guards.dryRun ? guards : { ...guards, dailyCap: readDailyCap(run) };
}

/** The payout's callback resumes an execution waiting for it (Send and Wait for Final Status). */
export const waitsFor = 'disbursement';
