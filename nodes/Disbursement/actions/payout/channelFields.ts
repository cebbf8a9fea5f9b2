/**
 * The channel-type entries of a payout's `fields` object (docs/endpoints.md, Answers): a bank
 * transfer's `fields.bank_code`, `fields.sender`, `fields.receiver`, an e-wallet's
 * `fields.mobile_number`. Each is declared once, with the channel types that use it, and read from
 * an item into `fields` here, collecting every missing or invalid value instead of stopping at the first.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { manualOnly } from '../../../shared/descriptions/properties';
import { isAutoMapped, type ItemValue } from '../../../shared/runner/itemValues';
import type { ChannelType } from '../../../shared/validation/channels';
import { foldCode } from '../../../shared/validation/codes';
import type { ItemProblems } from '../../../shared/validation/problems';
import {
	EMAIL_PATTERN,
	parseAccountNumber,
	parsePhilippineMobile,
} from '../../../shared/validation/validation';
import { fromVersion2, nodeVersion, version1Only } from './formVersions';
import type { RunContext } from '../../../shared/runner/runContext';

/**
 * One channel field: its form property and where its value goes. A field several channel types
 * use lists them all, so n8n keeps its value when the user switches Channel Type (n8n drops the
 * value of a parameter the moment it is hidden).
 */
export interface ChannelField {
	channelTypes: ChannelType[];
	property: Omit<INodeProperties, 'displayOptions'>;
	/** The field's name in error messages when it is not the form label. */
	label?: string;
	/** Where the value goes inside `fields`. */
	path: string[];
	/** text (default), mobile (Philippine number), account (letters and digits), email, code (an enumerated value, upper-cased). */
	kind?: 'text' | 'mobile' | 'account' | 'email' | 'code';
	/** Used when the value is empty. */
	fallback?: string;
	/** The values a `code` field offers as a list from node version 2 (an expression may give another). */
	choices?: Array<{ name: string; value: string }>;
}

type TextOptions = Partial<Omit<ChannelField, 'property' | 'path'>> & {
	property?: Partial<INodeProperties>;
};

/** A text field of a bank transfer; `path` is where it lands inside `fields`. */
function text(
	displayName: string,
	name: string,
	path: string[],
	description: string,
	extra: TextOptions = {},
): ChannelField {
	const { property, ...rest } = extra;
	return {
		channelTypes: ['bankTransfer'],
		property: { displayName, name, type: 'string', default: '', description, ...property },
		path,
		...rest,
	};
}

/**
 * Required ones are assumed: the interface document marks none, and these five are what a bank
 * transfer cannot do without (who pays, which bank, which account).
 */
const required = { property: { required: true } };

const BANK_TRANSFER: ChannelField[] = [
	{
		channelTypes: ['bankTransfer'],
		property: {
			displayName: 'Bank Name or ID',
			name: 'bankCode',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getBanks' },
			required: true,
			default: '',
			description:
				'The receiving bank, sent as bank_code. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		label: 'Bank',
		path: ['bank_code'],
	},
	text(
		'Sender First Name',
		'senderFirstName',
		['sender', 'first_name'],
		'First name of the sender',
		required,
	),
	text(
		'Sender Middle Name',
		'senderMiddleName',
		['sender', 'middle_name'],
		'Middle name of the sender; left out when empty',
	),
	text(
		'Sender Last Name',
		'senderLastName',
		['sender', 'last_name'],
		'Last name of the sender',
		required,
	),
	text(
		'Sender Suffix',
		'senderSuffix',
		['sender', 'suffix'],
		'Suffix of the sender such as Jr. or III; left out when empty',
	),
	text(
		'Receiver Account Name',
		'receiverAccountName',
		['receiver', 'account_name'],
		'Name on the receiving bank account',
		required,
	),
	text(
		'Receiver Account Number',
		'receiverAccountNumber',
		['receiver', 'account_number'],
		'Number of the receiving bank account',
		{ ...required, kind: 'account' },
	),
	text(
		'Receiver Type',
		'receiverType',
		['receiver', 'type'],
		'Kind of receiver. INDIVIDUAL is the documented value (used when left empty); enter another value only if the service gave you one.',
		{
			property: { default: 'INDIVIDUAL', placeholder: 'INDIVIDUAL' },
			kind: 'code',
			fallback: 'INDIVIDUAL',
			choices: [
				{ name: 'Corporate', value: 'CORPORATE' },
				{ name: 'Individual', value: 'INDIVIDUAL' },
			],
		},
	),
	text(
		'Receiver Mobile Number',
		'receiverMobileNumber',
		['receiver', 'mobile_number'],
		'Philippine mobile number of the receiver, 09XXXXXXXXX or +639XXXXXXXXX; left out when empty',
		{ property: { placeholder: '09171234567' }, kind: 'mobile' },
	),
	text(
		'Receiver Email',
		'receiverEmail',
		['receiver', 'email'],
		'Email address of the receiver; left out when empty',
		{
			property: { placeholder: 'name@email.com' },
			kind: 'email',
		},
	),
	text(
		'Receiver Address',
		'receiverAddress',
		['receiver', 'address'],
		'Street address of the receiver; left out when empty',
	),
	text(
		'Receiver Barangay',
		'receiverBarangay',
		['receiver', 'barangay'],
		'Barangay of the receiver; left out when empty',
	),
	text(
		'Receiver City',
		'receiverCity',
		['receiver', 'city'],
		'City or municipality of the receiver; left out when empty',
	),
	text(
		'Receiver Zip Code',
		'receiverZipCode',
		['receiver', 'zip_code'],
		'Zip code of the receiver; left out when empty',
	),
	text(
		'Receiver Gender',
		'receiverGender',
		['receiver', 'gender'],
		'Gender of the receiver, e.g. MALE (the documented value) or FEMALE; left out when empty',
		{
			property: { placeholder: 'MALE' },
			kind: 'code',
			choices: [
				{ name: 'Female', value: 'FEMALE' },
				{ name: 'Male', value: 'MALE' },
			],
		},
	),
];

const E_WALLET: ChannelField[] = [
	{
		channelTypes: ['eWallet'],
		property: {
			displayName: 'Mobile Number',
			name: 'mobileNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: '09171234567',
			description:
				'Mobile number of the e-wallet that receives the money: 09XXXXXXXXX or +639XXXXXXXXX (spaces and dashes are ignored)',
		},
		path: ['mobile_number'],
		kind: 'mobile',
	},
];

export const CHANNEL_FIELDS: Record<ChannelType, ChannelField[]> = {
	bankTransfer: BANK_TRANSFER,
	eWallet: E_WALLET,
};

/** From node version 2 the optional bank-transfer fields are grouped here, as n8n's own nodes group them. */
export const ADDITIONAL_FIELDS = 'additionalFields';

const isOptional = (field: ChannelField) => field.property.required !== true;

/** A field as version 2's Additional Fields lists it: an enumerated one as a list of its values. */
function groupedProperty({ property, choices }: ChannelField): INodeProperties {
	if (!choices) return property;
	return {
		...property,
		type: 'options',
		options: choices,
		default: property.default || choices[0].value,
		description: `${property.description} Choose from the list, or specify another value using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

/**
 * The form properties, each shown for its channel types (the operation adds resource and
 * operation). Version 1 shows every field at the top level; from version 2 the optional ones are
 * under Additional Fields, with the same names.
 */
export const channelFieldProperties: INodeProperties[] = [
	...[...BANK_TRANSFER, ...E_WALLET].map((field) => {
		const shown = manualOnly({
			...field.property,
			displayOptions: { show: { channelType: field.channelTypes } },
		});
		return isOptional(field) ? version1Only(shown) : shown;
	}),
	fromVersion2(
		manualOnly({
			displayName: 'Additional Fields',
			name: ADDITIONAL_FIELDS,
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show: { channelType: ['bankTransfer'] } },
			options: BANK_TRANSFER.filter(isOptional).map(groupedProperty),
		}),
	),
];

/** Where a field's value is read: from version 2 an optional field typed into the form sits under Additional Fields. */
function parameterPath(run: RunContext, field: ChannelField): string {
	const grouped = isOptional(field) && nodeVersion(run) >= 2 && !isAutoMapped(run);
	return grouped ? `${ADDITIONAL_FIELDS}.${field.property.name}` : field.property.name;
}

/** Text from a form field or a spreadsheet cell: numbers count as text, empty means absent. */
function asText(value: unknown): string {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return String(value);
	return '';
}

/** The item's values of `channelFields` (node fields, or the row's columns), placed where each goes inside `fields`. */
export function readChannelFields(
	run: RunContext,
	itemIndex: number,
	channelFields: ChannelField[],
	problems: ItemProblems,
	read: ItemValue = (param, fallback) => run.ctx.getNodeParameter(param, itemIndex, fallback),
): IDataObject {
	const { ctx } = run;
	const fields: IDataObject = {};
	for (const field of channelFields) {
		const label = field.label ?? field.property.displayName;
		const raw = read(parameterPath(run, field), '');
		const given = asText(raw);
		if (given === '' && raw !== undefined && raw !== null && typeof raw !== 'string') {
			problems.add(`${label} must be text, not ${Array.isArray(raw) ? 'a list' : typeof raw}`);
			continue;
		}
		let value = given || field.fallback || '';
		if (value === '') {
			if (field.property.required === true) problems.add(`${label} is required`);
			continue;
		}
		if (field.kind === 'mobile' || field.kind === 'account') {
			const parse =
				field.kind === 'mobile'
					? () => parsePhilippineMobile(ctx.getNode(), itemIndex, label, value)
					: () => parseAccountNumber(ctx.getNode(), itemIndex, label, raw);
			const parsed = problems.check(parse);
			if (parsed === undefined) continue;
			value = parsed;
		} else if (field.kind === 'email' && !EMAIL_PATTERN.test(value)) {
			problems.add(`${label} "${value.slice(0, 40)}" is not an email address`);
			continue;
		} else if (field.kind === 'code') {
			value = foldCode(value);
		}
		setPath(fields, field.path, value);
	}
	return fields;
}

function setPath(target: IDataObject, path: string[], value: string): void {
	let node = target;
	for (const key of path.slice(0, -1)) {
		node[key] ??= {};
		node = node[key] as IDataObject;
	}
	node[path[path.length - 1]] = value;
}

/**
 * Extra channel fields the form does not list go under the form's own: on any key both define,
 * the form's value stays (objects are merged key by key, so extra receiver details can be added).
 */
export function mergeUnder(extra: IDataObject, form: IDataObject): IDataObject {
	const merged: IDataObject = { ...form };
	for (const [key, value] of Object.entries(extra)) {
		const mine = merged[key];
		if (mine === undefined) merged[key] = value;
		else if (isPlainObject(mine) && isPlainObject(value)) merged[key] = mergeUnder(value, mine);
	}
	return merged;
}

function isPlainObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}
