/**
 * Where an operation's values come from: the node's fields (manual mapping, expressions evaluated
 * by n8n) or, with "Map Input Columns Automatically", the item's own columns. Either way the
 * operation gets one reader and checks the values with the same code. A parameter stored without
 * an expression has the same value for every item, so it is read once per run and kept in the run's
 * context (runContext.ts); one with
 * an expression is still read per item, as n8n would, so a workflow behaves the same. A plain
 * column read (`{{ $json.amount }}`, `{{ $json["Reference No"] }}`) is taken from the item itself
 * where that gives exactly what n8n's evaluation would (see `columnRead`); anything else is n8n's.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AUTO_MAP, columnName, MAPPING_MODE, type ColumnField } from '../descriptions/columns';
import type { RunContext } from './runContext';

/** Whether a stored value, or anything inside it, is an n8n expression ("={{ ... }}"). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

/** The stored value at a parameter path such as `options.timeoutSeconds`, or at its first expression. */
function storedAt(parameters: unknown, path: string): unknown {
	let value = parameters;
	for (const key of path.split('.')) {
		if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

/** Whether the parameter at `path` is stored as (or holds) an expression, so it may differ per item. */
export function isPerItem(ctx: IExecuteFunctions, path: string): boolean {
	return holdsExpression(storedAt(ctx.getNode().parameters, path));
}

/**
 * `={{ $json.name }}`, `={{ $json["name"] }}` or `={{ $json['name'] }}`, spaces allowed only next to
 * the braces: a plain identifier after the dot; in brackets a name without quotes, backslashes, braces
 * (n8n's template ends at "}}") or line breaks.
 */
const COLUMN_READ =
	/^=\{\{\s*\$json(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[(?:"([^"'\\{}\n\r\u2028\u2029]+)"|'([^"'\\{}\n\r\u2028\u2029]+)')\])\s*\}\}$/;

/**
 * Names n8n's expression sandbox refuses or treats specially in one of its versions (1.123 to
 * 2.41: "Cannot access ... due to security concerns"), and everything an object inherits.
 */
const REFUSED_NAMES = new Set([
	'__proto__',
	'prototype',
	'constructor',
	'getPrototypeOf',
	'setPrototypeOf',
	'getOwnPropertyDescriptor',
	'getOwnPropertyDescriptors',
	'defineProperty',
	'defineProperties',
	'mainModule',
	'binding',
	'_linkedBinding',
	'_load',
	'prepareStackTrace',
	'__lookupGetter__',
	'__lookupSetter__',
	'__defineGetter__',
	'__defineSetter__',
	...Object.getOwnPropertyNames(Object.prototype),
]);

/**
 * The column a stored expression does nothing but read, or null. n8n refuses any expression
 * containing ".constructor", and names starting with "_" are left to n8n with the refused ones.
 */
export function columnRead(stored: unknown): string | null {
	if (typeof stored !== 'string' || /\.\s*constructor/.test(stored)) return null;
	const match = COLUMN_READ.exec(stored);
	const name = match ? (match[1] ?? match[2] ?? match[3]) : undefined;
	if (name === undefined || name.startsWith('_') || REFUSED_NAMES.has(name)) return null;
	return name;
}

/** Marks a value the item cannot give exactly as n8n would. */
export const ASK_N8N = Symbol('askN8n');

/**
 * `item[name]` where n8n's `{{ $json.name }}` is proven to give the very same value (see
 * test/shared/runner/itemValues.engine.test.ts): a string, boolean, null or finite number held by
 * the item itself, or undefined for a column it lacks. Objects (n8n hands over the item's own
 * object and rewrites dates inside it), NaN, Infinity, -0, other types and inherited names go to
 * n8n.
 */
export function itemColumn(json: IDataObject | undefined, name: string): unknown {
	if (!json || typeof json !== 'object') return ASK_N8N;
	if (!Object.prototype.hasOwnProperty.call(json, name)) return name in json ? ASK_N8N : undefined;
	const value = json[name];
	if (value === undefined || value === null) return value;
	if (typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) return value;
	return ASK_N8N;
}

/** `ctx.getNodeParameter(name, itemIndex, fallback)`, evaluated once per run when it cannot differ per item. */
export function runParameter(
	context: RunContext,
	name: string,
	itemIndex: number,
	fallback: unknown,
): unknown {
	const { ctx, parameters: run } = context;
	let perItem = run.perItem.get(name);
	if (perItem === undefined) {
		perItem = holdsExpression(storedAt(run.stored, name));
		run.perItem.set(name, perItem);
	}
	if (perItem) {
		let column = run.columns.get(name);
		if (column === undefined) {
			// Only a top-level parameter: n8n checks nested ones against their collection's schema.
			column = name.includes('.') ? null : columnRead(storedAt(run.stored, name));
			run.columns.set(name, column);
		}
		if (column !== null) {
			run.items ??= ctx.getInputData();
			const value = itemColumn(run.items[itemIndex]?.json, column);
			if (value !== ASK_N8N) return value;
		}
		return ctx.getNodeParameter(name, itemIndex, fallback);
	}
	const key = `${name}\u0000${JSON.stringify(fallback) ?? ''}`;
	if (run.values.has(key)) return run.values.get(key);
	const value = ctx.getNodeParameter(name, itemIndex, fallback);
	run.values.set(key, value);
	return value;
}

/** Reads one value for the item: `(parameter name, fallback)`. */
export type ItemValue = (param: string, fallback?: unknown) => unknown;

/** `referenceNo`, `reference_no`, `Reference No` and `REFERENCE-NO` are one column. */
export function columnKey(name: string): string {
	return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isAutoMapped(run: RunContext): boolean {
	return runParameter(run, MAPPING_MODE, 0, 'defineBelow') === AUTO_MAP;
}

const shownName = (name: string) => `"${name.slice(0, 40)}"`;

/** The row's columns by key; two columns meaning the same field must agree. */
function columnsOf(row: IDataObject): {
	values: Map<string, unknown>;
	clashes: Map<string, string[]>;
} {
	const values = new Map<string, unknown>();
	const names = new Map<string, string>();
	const clashes = new Map<string, string[]>();
	for (const [name, value] of Object.entries(row)) {
		const key = columnKey(name);
		if (!values.has(key)) {
			values.set(key, value);
			names.set(key, name);
		} else if (values.get(key) !== value) {
			clashes.set(key, [...(clashes.get(key) ?? [names.get(key)!]), name]);
		}
	}
	return { values, clashes };
}

function rowError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/** The item's columns for `fields`; a missing required column or two clashing ones fail the item. */
function rowReader(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: ColumnField[],
): Map<string, unknown> {
	const row = ctx.getInputData()[itemIndex]?.json ?? {};
	const { values, clashes } = columnsOf(row);
	const clashing = fields.filter((field) => clashes.has(columnKey(field.param)));
	if (clashing.length > 0) {
		const which = clashing.map(
			(field) =>
				`${clashes.get(columnKey(field.param))!.map(shownName).join(' and ')} (${field.label})`,
		);
		throw rowError(
			ctx,
			itemIndex,
			`Columns ${which.join('; ')} hold different values for the same field`,
			'Keep one column per field: names are matched ignoring case, spaces, "-" and "_".',
		);
	}
	const missing = fields.filter((field) => field.required && !values.has(columnKey(field.param)));
	if (missing.length > 0) {
		const found = Object.keys(row);
		const shownFound =
			found.length === 0
				? 'no columns'
				: `columns ${found.slice(0, 20).map(shownName).join(', ')}${found.length > 20 ? ', ...' : ''}`;
		const names = missing.map((field) => `${shownName(columnName(field.param))} (${field.label})`);
		throw rowError(
			ctx,
			itemIndex,
			`${missing.length === 1 ? 'Column' : 'Columns'} ${names.join(', ')} missing: the item has ${shownFound}`,
			'Rename the column, or switch Input Mapping to "Map Each Field Manually" to map it with an expression.',
		);
	}
	return values;
}

/**
 * The reader of one item. In automatic mode the fields listed come from the item's columns (a
 * column present but empty is checked as an empty field would be); everything else, and every
 * field in manual mode, is the node's parameter.
 */
export function itemValues(run: RunContext, itemIndex: number, fields: ColumnField[]): ItemValue {
	const nodeField: ItemValue = (param, fallback = '') =>
		runParameter(run, param, itemIndex, fallback);
	if (!isAutoMapped(run)) return nodeField;
	const columns = rowReader(run.ctx, itemIndex, fields);
	const byParam = new Map(fields.map((field) => [field.param, field]));
	return (param, fallback = '') => {
		const field = byParam.get(param);
		if (!field) return nodeField(param, fallback);
		const cell = columns.get(columnKey(param));
		if (!field.orNodeField) return cell;
		const empty =
			cell === undefined || cell === null || (typeof cell === 'string' && cell.trim() === '');
		return empty ? nodeField(param, fallback) : cell;
	};
}
