/**
 * Input checks run before any request, so a bad spreadsheet row becomes a clear error for that
 * item and never reaches the service. Each check names the field; the item runner adds the row.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { shownText } from './shownText';

/** The amounts the service takes, in pesos (docs/endpoints.md): the one place 50,000 is written. */
export const MIN_AMOUNT = 0.01;
export const MAX_AMOUNT = 50_000;
export const MAX_REFERENCE_LENGTH = 64;
/** An e-mail address as the service accepts one: something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The error for one bad input value: names the field and the problem (the runner adds the row). */
export function invalidInput(
	node: INode,
	itemIndex: number,
	label: string,
	problem: string,
	hint?: string,
): NodeOperationError {
	return new NodeOperationError(node, `${label} ${problem}`, { itemIndex, description: hint });
}

/** A value given, quoted in a problem (Check Only lists them): as shownText shows text. */
function shown(value: unknown): string {
	// JSON would show NaN and Infinity as "null".
	const text =
		typeof value === 'string'
			? value
			: typeof value === 'number'
				? String(value)
				: JSON.stringify(value);
	return `"${shownText(text ?? String(value), 40)}"`;
}

const AMOUNT_TEXT = /^\d{1,3}(,\d{3})+(\.\d+)?$|^\d+(\.\d+)?$/;

/**
 * The one reading of an amount, for items and for the service's records alike: a number, or numeric
 * text as spreadsheets and services write it ("1250.5", "1,250.50", " 100 ", "₱1,000", "PHP 20").
 * A comma used as the decimal mark ("1.000,50") is not read rather than guessed. Undefined when
 * the value is not a finite amount.
 */
export function readAmount(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim().replace(/^(PHP|₱)\s*/i, '');
	if (!AMOUNT_TEXT.test(text)) return undefined;
	const amount = Number(text.replace(/,/g, ''));
	return Number.isFinite(amount) ? amount : undefined;
}

/** An amount as a person reads it: `PHP 1,500.00`. */
export function formatPesos(amount: number): string {
	return `PHP ${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Whole centavos of an amount in pesos: how amounts are compared and added up, exactly. */
export function toCentavos(amount: number): number {
	return Math.round(amount * 100);
}

/** An item's amount: readable, in range, at most 2 decimals. */
export function parseAmount(
	node: INode,
	itemIndex: number,
	value: unknown,
	limits: { max?: number; label?: string } = {},
): number {
	const label = limits.label ?? 'Amount';
	const max = limits.max ?? MAX_AMOUNT;
	// An empty cell or a column missing from the row.
	if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
		throw invalidInput(node, itemIndex, label, 'is empty', 'Give an amount such as 1250.50');
	}
	const amount = readAmount(value);
	if (amount === undefined && typeof value === 'number') {
		throw invalidInput(node, itemIndex, label, `${shown(value)} is not a finite number`);
	}
	if (amount === undefined) {
		const hint =
			typeof value === 'string'
				? 'Use digits with a dot for decimals, e.g. 1250.50 or 1,250.50'
				: 'Give an amount such as 1250.50';
		throw invalidInput(node, itemIndex, label, `${shown(value)} is not a number`, hint);
	}
	// Where a dot groups thousands "1.000" is one thousand: text with more decimals is never shortened.
	if (typeof value === 'string' && /\.\d{3,}$/.test(value.trim())) {
		const hint =
			'Amounts have at most 2 decimals: if the dot separates thousands, write 1000 or 1,000';
		throw invalidInput(
			node,
			itemIndex,
			label,
			`${shown(value)} has more than 2 decimal places`,
			hint,
		);
	}
	if (amount < MIN_AMOUNT || amount > max) {
		throw invalidInput(
			node,
			itemIndex,
			label,
			`${amount} is outside the allowed range ${MIN_AMOUNT} to ${max.toLocaleString('en-US')}`,
		);
	}
	if (toCentavos(amount) / 100 !== amount) {
		throw invalidInput(
			node,
			itemIndex,
			label,
			`${amount} has more than 2 decimal places`,
			'Round it to 2 decimals in the sheet, or in the expression with .toFixed(2)',
		);
	}
	return amount;
}

/** Missing values and broken formulas as JavaScript or a spreadsheet write them; so are "-" and "__" (no letter or digit). */
const NOT_A_REFERENCE = new Set([
	'nan',
	'undefined',
	'null',
	'[object object]',
	'infinity',
	'-infinity',
	'n/a',
	'#n/a',
	'#ref!',
	'#value!',
	'#div/0!',
	'#name?',
	'#num!',
	'#null!',
]);
const REFERENCE_HINT = 'Map a stable, unique value from your data, such as an invoice number';

/**
 * The text of a cell that names something exactly (a reference, an account). Spreadsheets turn
 * long digit strings into numbers; past 2^53 they are already rounded, and sending the rounded
 * value would name another payment or account.
 */
function exactText(node: INode, itemIndex: number, label: string, value: unknown): string {
	if (typeof value === 'number' && Number.isFinite(value) && !Number.isSafeInteger(value)) {
		const hint =
			'Format the column as text in your spreadsheet, or map it as text, so every digit is kept';
		throw invalidInput(
			node,
			itemIndex,
			label,
			`${shown(value)} is a number that cannot be kept exactly (more than 15 digits, or decimals)`,
			hint,
		);
	}
	return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
}

/** A bank account number: letters and digits; spaces and dashes between them are left out. */
export function parseAccountNumber(
	node: INode,
	itemIndex: number,
	label: string,
	value: unknown,
): string {
	const text = exactText(node, itemIndex, label, value).replace(/[\s-]/g, '');
	if (!/^[A-Za-z0-9]+$/.test(text)) {
		throw invalidInput(
			node,
			itemIndex,
			label,
			`${shown(value)} may hold only letters and digits`,
			'Spaces and dashes between the digits are left out; remove any other character',
		);
	}
	return text;
}

/** Letters, digits, `-` and `_` only: `#`, `:` and spaces break the hosted payment page. */
export function parseReferenceNo(node: INode, itemIndex: number, value: unknown): string {
	// A broken formula must not become the reference "NaN" that every such row would share.
	if (typeof value === 'number' && !Number.isFinite(value)) {
		throw invalidInput(
			node,
			itemIndex,
			'Reference No',
			`${shown(value)} is not a usable reference`,
			REFERENCE_HINT,
		);
	}
	if (
		value !== null &&
		value !== undefined &&
		typeof value !== 'string' &&
		typeof value !== 'number'
	) {
		throw invalidInput(
			node,
			itemIndex,
			'Reference No',
			`is ${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`}, not text`,
			REFERENCE_HINT,
		);
	}
	const text = exactText(node, itemIndex, 'Reference No', value);
	if (text === '') {
		throw invalidInput(node, itemIndex, 'Reference No', 'is empty', REFERENCE_HINT);
	}
	if (NOT_A_REFERENCE.has(text.toLowerCase()) || !/[A-Za-z0-9]/.test(text)) {
		throw invalidInput(
			node,
			itemIndex,
			'Reference No',
			`${shown(text)} is a missing value or a broken formula, not a reference`,
			REFERENCE_HINT,
		);
	}
	if (text.length > MAX_REFERENCE_LENGTH) {
		throw invalidInput(
			node,
			itemIndex,
			'Reference No',
			`is longer than ${MAX_REFERENCE_LENGTH} characters`,
		);
	}
	if (!/^[A-Za-z0-9_-]+$/.test(text)) {
		const hint = 'Characters such as "#", ":" and spaces break the hosted payment page';
		throw invalidInput(
			node,
			itemIndex,
			'Reference No',
			`${shown(text)} contains characters other than letters, digits, "-" and "_"`,
			hint,
		);
	}
	return text;
}

/** Why a URL cannot be sent as it is: what is wrong (after the field's name), and what to do. */
export type UrlProblem = {
	kind: 'lineBreak' | 'control' | 'backslash' | 'invalid' | 'scheme' | 'userinfo' | 'space';
	problem: string;
	fix?: string;
};

/** A URL as it is sent (WHATWG `href`), or what stops it: surrounding spaces are trimmed, anything a parser drops or reads differently is refused. */
export function readUrl(value: string): URL | UrlProblem {
	if (/[\r\n]/.test(value))
		return {
			kind: 'lineBreak',
			problem: 'contains a line break',
			fix: 'Remove the line break (a spreadsheet cell or an expression may end with one)',
		};
	if (/\p{Cc}/u.test(value))
		return {
			kind: 'control',
			problem: 'contains a tab or another control character',
			fix: 'Remove the tab or control character (most editors do not show it)',
		};
	const text = value.trim();
	if (text.includes('\\'))
		return {
			kind: 'backslash',
			problem: 'contains a backslash ("\\")',
			fix: 'Use "/" between the parts of a URL',
		};
	if (!URL.canParse(text))
		return {
			kind: 'invalid',
			problem: `${shown(text)} is not a valid URL`,
			fix: 'Use a full address such as https://example.com/path',
		};
	const url = new URL(text);
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return { kind: 'scheme', problem: 'must start with https:// or http://' };
	if (url.username || url.password)
		return {
			kind: 'userinfo',
			problem: 'must not contain a user name or password ("user:pass@")',
			fix: 'Remove the user name and password from the URL',
		};
	return /\s/.test(text)
		? { kind: 'space', problem: 'contains a space', fix: 'Remove the space, or write it as %20' }
		: url;
}

/** An optional http(s) URL, in the form it is sent; empty means "not given". */
export function parseOptionalUrl(
	node: INode,
	itemIndex: number,
	label: string,
	value: unknown,
): string | undefined {
	const text = typeof value === 'string' ? value : value == null ? '' : String(value);
	if (text.trim() === '') return undefined;
	const url = readUrl(text);
	if (url instanceof URL) return url.href;
	throw invalidInput(node, itemIndex, label, url.problem, url.fix);
}

/** A Philippine mobile number without spaces and dashes (09XXXXXXXXX or +639XXXXXXXXX); undefined when it is not one. */
export function readPhilippineMobile(value: unknown): string | undefined {
	const text =
		typeof value === 'string' || typeof value === 'number'
			? String(value).replace(/[\s-]/g, '')
			: '';
	return /^(09\d{9}|\+639\d{9})$/.test(text) ? text : undefined;
}

/** Philippine mobile numbers: 09XXXXXXXXX or +639XXXXXXXXX; spaces and dashes are ignored. */
export function parsePhilippineMobile(
	node: INode,
	itemIndex: number,
	label: string,
	value: unknown,
): string {
	const text = (typeof value === 'string' ? value : value == null ? '' : String(value)).replace(
		/[\s-]/g,
		'',
	);
	if (text === '') throw invalidInput(node, itemIndex, label, 'is empty');
	if (readPhilippineMobile(text) === undefined) {
		throw invalidInput(
			node,
			itemIndex,
			label,
			`${shown(value)} is not a Philippine mobile number`,
			'Use 09XXXXXXXXX or +639XXXXXXXXX',
		);
	}
	return text;
}

/** A required piece of text; numbers from a spreadsheet are accepted as text. */
export function requireText(node: INode, itemIndex: number, label: string, value: unknown): string {
	const text =
		typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	const notText =
		value && typeof value === 'object'
			? `is ${Array.isArray(value) ? 'a list' : 'an object'}, not text`
			: undefined;
	if (text === '') throw invalidInput(node, itemIndex, label, notText ?? 'is required');
	return text;
}

/** A JSON object typed into a field (as text or already an object); empty means none. */
export function parseJsonObject(
	node: INode,
	itemIndex: number,
	label: string,
	value: unknown,
): Record<string, unknown> {
	if (value == null || value === '') return {};
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			throw invalidInput(node, itemIndex, label, 'is not valid JSON');
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw invalidInput(node, itemIndex, label, 'must be a JSON object, e.g. {"email": "a@b.ph"}');
	}
	return parsed as Record<string, unknown>;
}
