/**
 * Extra body fields of Generate Transaction. Some channels (cards) demand customer details
 * (docs/endpoints.md, Answers); anything else a merchant's channel demands goes through the JSON escape hatch.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	EMAIL_PATTERN,
	invalidInput,
	parseJsonObject,
	parsePhilippineMobile,
} from '../../shared/validation/validation';

/** Parameter name in the editor -> field name the service expects, with its label. */
export const CUSTOMER_DETAILS = [
	{ name: 'email', field: 'email', label: 'Email' },
	{ name: 'mobileNumber', field: 'mobile_number', label: 'Mobile Number' },
	{ name: 'firstName', field: 'first_name', label: 'First Name' },
	{ name: 'lastName', field: 'last_name', label: 'Last Name' },
	{ name: 'address', field: 'address', label: 'Address' },
	{ name: 'city', field: 'city', label: 'City' },
	{ name: 'state', field: 'state', label: 'State' },
	{ name: 'zipCode', field: 'zip_code', label: 'Zip Code' },
	{ name: 'countryCode', field: 'country_code', label: 'Country Code' },
] as const;

/** The fields the node itself sets: extra fields can never replace them. */
export const CORE_BODY_KEYS = [
	'channel_code',
	'amount',
	'reference_no',
	'callback_webhook_url',
	'success_redirect_url',
	'failure_redirect_url',
];

export function customerBody(node: INode, itemIndex: number, raw: IDataObject): IDataObject {
	const body: IDataObject = {};
	for (const { name, field, label } of CUSTOMER_DETAILS) {
		const value = raw[name];
		const text =
			typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
		if (text === '') continue;
		if (field === 'email' && !EMAIL_PATTERN.test(text)) {
			throw invalidInput(node, itemIndex, label, `"${text.slice(0, 40)}" is not an email address`);
		}
		body[field] =
			field === 'mobile_number' ? parsePhilippineMobile(node, itemIndex, label, text) : text;
	}
	return body;
}

export function extraBody(node: INode, itemIndex: number, value: unknown): IDataObject {
	const extra = parseJsonObject(node, itemIndex, 'Extra Body Fields', value) as IDataObject;
	const clashing = Object.keys(extra).filter((key) => CORE_BODY_KEYS.includes(key));
	if (clashing.length) {
		throw invalidInput(
			node,
			itemIndex,
			'Extra Body Fields',
			`cannot set ${clashing.join(', ')}`,
			"Use the node's own fields for the channel, amount, reference and URLs",
		);
	}
	return extra;
}
