/**
 * Reads the channel-type fields of one item into the `fields` object of Process Disbursement,
 * collecting every missing or invalid value instead of stopping at the first.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { EMAIL_PATTERN, parsePhilippineMobile } from '../../../../shared/validation/validation';
import type { ItemProblems } from '../../../../shared/validation/problems';
import { manualOnly } from '../../../../shared/descriptions/columnMapping';
import type { ItemValue } from '../../../../shared/runner/itemValues';

export interface FieldMapping {
	/** Node parameter name. */
	param: string;
	/** How the field is named in error messages (its label in the form). */
	label: string;
	/** Where the value goes inside `fields`. */
	path: string[];
	required?: boolean;
	/** text (default), mobile (Philippine number), email, code (an enumerated value, upper-cased). */
	kind?: 'text' | 'mobile' | 'email' | 'code';
	/** Used when the value is empty. */
	fallback?: string;
}

export type ChannelType = 'bankTransfer' | 'eWallet';

/**
 * One channel field, declared once: its form property and where its value goes. A field several
 * channel types use lists them all, so n8n keeps its value when the user switches Channel Type
 * (n8n drops the value of a parameter the moment it is hidden).
 */
export interface ChannelField {
	channelTypes: ChannelType[];
	property: Omit<INodeProperties, 'displayOptions'>;
	/** The field's name in error messages when it is not the form label. */
	label?: string;
	path: string[];
	kind?: FieldMapping['kind'];
	fallback?: string;
}

export function channelFieldProperty(field: ChannelField): INodeProperties {
	return manualOnly({
		...field.property,
		displayOptions: { show: { resource: ['payout'], operation: ['create'], channelType: field.channelTypes } },
	});
}

export function channelFieldMapping(field: ChannelField): FieldMapping {
	const { property } = field;
	return {
		param: property.name,
		label: field.label ?? property.displayName,
		path: field.path,
		required: property.required === true,
		kind: field.kind,
		fallback: field.fallback,
	};
}


/** Text from a form field or a spreadsheet cell: numbers count as text, empty means absent. */
function asText(value: unknown): string {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return String(value);
	return '';
}

export function readChannelFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	mappings: FieldMapping[],
	problems: ItemProblems,
	read: ItemValue = (param, fallback) => ctx.getNodeParameter(param, itemIndex, fallback),
): IDataObject {
	const fields: IDataObject = {};
	for (const mapping of mappings) {
		const raw = read(mapping.param, '');
		const given = asText(raw);
		if (given === '' && raw !== undefined && raw !== null && typeof raw !== 'string') {
			problems.add(`${mapping.label} must be text, not ${Array.isArray(raw) ? 'a list' : typeof raw}`);
			continue;
		}
		let value = given || mapping.fallback || '';
		if (value === '') {
			if (mapping.required) problems.add(`${mapping.label} is required`);
			continue;
		}
		if (mapping.kind === 'mobile') {
			const mobile = problems.check(() =>
				parsePhilippineMobile(ctx.getNode(), itemIndex, mapping.label, value),
			);
			if (mobile === undefined) continue;
			value = mobile;
		} else if (mapping.kind === 'email' && !EMAIL_PATTERN.test(value)) {
			problems.add(`${mapping.label} "${value.slice(0, 40)}" is not an email address`);
			continue;
		} else if (mapping.kind === 'code') {
			value = value.toUpperCase();
		}
		setPath(fields, mapping.path, value);
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
