/**
 * Parameters both action nodes show with the same name and meaning (stable names: docs/DEVELOPMENT.md), and the
 * Options collection every operation offers: one definition each, so the editor explains them the
 * same way wherever they appear. They carry no resource/operation: each operation adds its own
 * with n8n's `updateDisplayOptions`. The runner reads the options back (runner/operation.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS, type EndpointName } from '../transport/endpoints';
import { MAX_AMOUNT, MIN_AMOUNT } from '../validation/validation';
import { AUTO_MAP, columnName, MAPPING_MODE, type ColumnField } from './columns';
import { ledgerPicker } from './credentialProperties';

/** How many items are out at once: the one default and ceiling of the Concurrency option. */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 100;

/**
 * Text, not a number field: n8n's number input shows its minimum (0.01) when empty, which invites
 * an accidental payout, and spreadsheet text such as "1,250.50" is accepted anyway.
 */
export const amountProperty: INodeProperties = {
	displayName: 'Amount',
	name: 'amount',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 1250.50',
	description: `Amount in Philippine pesos, from ${MIN_AMOUNT} to ${MAX_AMOUNT.toLocaleString('en-US')}. Spreadsheet text such as "1,250.50" is accepted.`,
};

/** The reference_no of a record, with what it is for in this operation. */
export function referenceNoProperty(placeholder: string, description: string): INodeProperties {
	return {
		displayName: 'Reference No',
		name: 'referenceNo',
		type: 'string',
		required: true,
		default: '',
		placeholder,
		description,
	};
}

/** The reference_no of a record the operation creates: it is what makes a re-run safe. */
export function newReferenceNoProperty(noun: string, placeholder: string): INodeProperties {
	return referenceNoProperty(
		placeholder,
		`Your own unique reference for this ${noun}, sent as reference_no. It is the idempotency key: map a stable value such as an invoice number (never a random or time-based value), so running the workflow again returns the same ${noun} instead of making a second one. Letters, digits, "-" and "_", at most 64 characters.`,
	);
}

export function callbackWebhookUrlProperty(noun: string): INodeProperties {
	return {
		displayName: 'Callback Webhook URL',
		name: 'callbackWebhookUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://your-n8n.example.com/webhook/...',
		description: `Strongly recommended. Paste the Production URL of a Payment Gateway Trigger node here: the service calls it with the final status of the ${noun} (completed or cancelled).`,
	};
}

/** Shown while Callback Webhook URL is empty: without it the final status never arrives. */
export function callbackMissingNotice(noun: string): INodeProperties {
	return {
		displayName: `Callback Webhook URL is empty: the service sends the final status of the ${noun} (completed or cancelled) only to that URL, so no callback will arrive. Paste the Production URL of a Payment Gateway Trigger, usually in another workflow (the one that handles the callbacks), or look the status up later with Wait for Final Status.`,
		name: 'callbackMissingNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { callbackWebhookUrl: [''] } },
	};
}

/**
 * The Options collection: Concurrency, Timeout, and the Endpoint Path of an assumed path.
 * @param overridable the endpoint whose assumed path the user may replace
 * @param extra the operation's own options, listed first
 */
export function executionOptionsProperty(
	overridable?: EndpointName,
	extra: INodeProperties[] = [],
): INodeProperties {
	const options: INodeProperties[] = [
		...extra,
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
			default: 8, // DEFAULT_CONCURRENCY: the lint rules want a literal
			description:
				'How many items are sent to the service at the same time. Output order always follows input order.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 300 },
			default: 30, // DEFAULT_TIMEOUT_MS in seconds
			description:
				'The longest one request may take, from connecting to the last byte of the answer (a slow answer does not extend it). Answers larger than 1 MiB are not read.',
		},
	];
	if (overridable) {
		const { path } = ENDPOINTS[overridable];
		options.push({
			displayName: 'Endpoint Path',
			name: 'endpointPath',
			type: 'string',
			default: '',
			placeholder: path,
			description: `The interface document does not show this path, so ${path} is assumed. Fill this in only if your service uses another path.`,
		});
	}
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** Dry Run and Maximum Total per Run, for Generate and Payout Create (in their Options). */
export function moneyGuardOptions(noun: string): INodeProperties[] {
	return [
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description: `Whether to only check every row and show what would be sent, with a summary item (rows, total per channel, rows that would fail and why). Nothing that creates a ${noun} is sent.`,
		},
		maxTotalPerRunOption(noun),
	];
}

export function maxTotalPerRunOption(noun: string): INodeProperties {
	return {
		displayName: 'Maximum Total per Run',
		name: 'maxTotalPerRun',
		type: 'number',
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		default: 100000,
		description: `Safety limit: the amounts of all input rows are added up before the first request, and when the sum is above this, no ${noun} is sent at all. A plain positive number (e.g. 100000); anything else stops the node. Remove the option to have no limit.`,
	};
}

/**
 * Maximum Total per Day and the time zone its day turns in (Payout > Create from version 2, Payout >
 * Confirm, and Payout > Prepare, whose summary states the day's figures): kept in the ledger the
 * node's Payout Ledger credential names (runner/dailyCap.ts).
 */
export const dailyCapOptions: INodeProperties[] = [
	{
		displayName: 'Maximum Total per Day',
		name: 'maxTotalPerDay',
		type: 'string',
		default: '',
		placeholder: 'e.g. 50000',
		// Shown under the field, not only on hover: the credential it needs is far above it.
		hint: `Needs a Payout Ledger credential: choose it in "${ledgerPicker('Maximum Total per Day')}", shown at the top of this node once a maximum is filled in`,
		description:
			"Safety limit across executions, restarts and queue-mode workers: the payouts this node's credential sends in one day never add up to more. Each payout is reserved in the ledger of the Payout Ledger credential (an n8n Data Table, n8n 2.7 or later) before it is sent, and refused with nothing sent when the day would go over. Without a ledger that can be read, every payout is refused. A plain positive number; left empty, it stops the node before anything is sent.",
	},
	{
		displayName: 'Day Time Zone',
		name: 'dayTimeZone',
		type: 'string',
		default: 'Asia/Manila',
		description:
			'The time zone whose midnight starts a new day for Maximum Total per Day (an IANA name such as Asia/Manila or UTC)',
	},
];

/**
 * A safety limit with no default (Payout > Create from version 2): a pre-filled number such as the
 * service's own maximum guards nothing, so the option starts empty, and left empty it stops the
 * node with nothing sent (runner/options.ts `readSafetyLimit` fails closed).
 */
export function limitWithoutDefault(limit: INodeProperties): INodeProperties {
	const text = { ...limit };
	delete text.typeOptions; // the number input's minimum and precision
	return {
		...text,
		type: 'string',
		default: '',
		placeholder: 'e.g. 20000',
		description: `${limit.description} Left empty, it stops the node before anything is sent.`,
	};
}

/**
 * Input Mapping, "Map Input Columns Automatically": instead of mapping every field with an
 * expression, each input item's columns are read as the fields of the same name
 * (runner/itemValues.ts). The stored values keep n8n's resourceMapper names; manual is the default.
 */
/** A field only shown, and only read, with manual mapping (updateDisplayOptions keeps the `hide`). */
export function manualOnly(property: INodeProperties): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: {
			...displayOptions,
			hide: { ...displayOptions.hide, [MAPPING_MODE]: [AUTO_MAP] },
		},
	};
}

export function mappingModeProperty(
	noun: string,
	defaultMode: 'defineBelow' | typeof AUTO_MAP = 'defineBelow',
): INodeProperties {
	return {
		displayName: 'Input Mapping',
		name: MAPPING_MODE,
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Map Each Field Manually',
				value: 'defineBelow',
				description: 'Fill in or map every field of the form below',
			},
			{
				name: 'Map Input Columns Automatically',
				value: AUTO_MAP,
				description: `Each input item is one ${noun}: its columns are read as the fields of the same name, with no expression per field`,
			},
		],
		default: defaultMode,
	};
}

/** The columns of Reference No and Amount above, for a row that creates a record. */
export const NEW_RECORD_COLUMNS: ColumnField[] = [
	{ param: 'referenceNo', label: 'Reference No', required: true },
	{ param: 'amount', label: 'Amount', required: true },
];

/**
 * What the automatic mode reads, in the editor: the required columns first, then the optional ones
 * (a column that stands in for a node field first among them), and how names are matched. One
 * notice per Channel Type where the columns differ, so it lists only the chosen type's columns.
 */
export function columnsNotice(
	columns: ColumnField[],
	show: Record<string, string[]> = {},
	nameSuffix = '',
): INodeProperties {
	const names = (required: boolean) =>
		columns
			.filter((column) => !column.orNodeField && !!column.required === required)
			.map((column) => columnName(column.param));
	const orNodeField = columns
		.filter((column) => column.orNodeField)
		.map((column) => `${columnName(column.param)} (missing or empty: the ${column.label} above)`);
	const optional = [...orNodeField, ...names(false)];
	return {
		displayName: `Required columns: ${names(true).join(', ')}.${optional.length ? ` Optional: ${optional.join(', ')}.` : ''} Names match ignoring case, spaces, "-" and "_" ("Reference No" is reference_no); other columns are ignored, and each row is checked as with manual mapping.`,
		name: `columnsNotice${nameSuffix}`,
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, [MAPPING_MODE]: [AUTO_MAP] } },
	};
}
