/**
 * Input checks run before any request, so a bad spreadsheet row becomes a clear error for that
 * item and never reaches the service. Each check names the field and the item.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const MIN_AMOUNT = 0.01;
export const MAX_AMOUNT = 50_000;
export const MAX_REFERENCE_LENGTH = 64;

/** The error for one bad input value: names the field, the problem and the item. */
export function invalidInput(
	node: INode,
	itemIndex: number,
	field: string,
	problem: string,
	hint?: string,
): NodeOperationError {
	return new NodeOperationError(node, `${field} ${problem} (item ${itemIndex})`, {
		itemIndex,
		description: hint,
	});
}

function shown(value: unknown): string {
	// JSON would show NaN and Infinity as "null".
	const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
	return `"${(text ?? String(value)).slice(0, 40)}"`;
}

/**
 * Accepts numbers and numeric text as spreadsheets export it ("1250.5", "1,250.50", " 100 ",
 * "₱1,000"). A comma used as the decimal mark ("1.000,50") is refused rather than guessed.
 */
export function parseAmount(
	node: INode,
	itemIndex: number,
	value: unknown,
	limits: { max?: number; field?: string } = {},
): number {
	const field = limits.field ?? 'Amount';
	const max = limits.max ?? MAX_AMOUNT;
	let amount: number;
	// An empty cell or a column missing from the row.
	if (value === null || value === undefined) {
		throw invalidInput(node, itemIndex, field, 'is empty', 'Give an amount such as 1250.50');
	}
	if (typeof value === 'number') {
		amount = value;
	} else if (typeof value === 'string') {
		const text = value.trim().replace(/^(PHP|₱)\s*/i, '');
		if (text === '') throw invalidInput(node, itemIndex, field, 'is empty', 'Give an amount such as 1250.50');
		if (!/^\d{1,3}(,\d{3})+(\.\d+)?$|^\d+(\.\d+)?$/.test(text)) {
			throw invalidInput(
				node,
				itemIndex,
				field,
				`${shown(value)} is not a number`,
				'Use digits with a dot for decimals, e.g. 1250.50 or 1,250.50',
			);
		}
		amount = Number(text.replace(/,/g, ''));
	} else {
		throw invalidInput(node, itemIndex, field, `${shown(value)} is not a number`, 'Give an amount such as 1250.50');
	}
	if (!Number.isFinite(amount)) {
		throw invalidInput(node, itemIndex, field, `${shown(value)} is not a finite number`);
	}
	if (amount < MIN_AMOUNT || amount > max) {
		throw invalidInput(node, itemIndex, field, `${amount} is outside the allowed range ${MIN_AMOUNT} to ${max.toLocaleString('en-US')}`);
	}
	if (Math.round(amount * 100) / 100 !== amount) {
		throw invalidInput(node, itemIndex, field, `${amount} has more than 2 decimal places`);
	}
	return amount;
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
			'Map a stable, unique value from your data, such as an invoice number',
		);
	}
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') {
		throw invalidInput(node, itemIndex, 'Reference No', 'is empty', 'Map a stable, unique value from your data, such as an invoice number');
	}
	if (text.length > MAX_REFERENCE_LENGTH) {
		throw invalidInput(node, itemIndex, 'Reference No', `is longer than ${MAX_REFERENCE_LENGTH} characters`);
	}
	if (!/^[A-Za-z0-9_-]+$/.test(text)) {
		throw invalidInput(
			node,
			itemIndex,
			'Reference No',
			`${shown(text)} contains characters other than letters, digits, "-" and "_"`,
			'Characters such as "#", ":" and spaces break the hosted payment page',
		);
	}
	return text;
}

/** An optional http(s) URL; empty means "not given". */
export function parseOptionalUrl(node: INode, itemIndex: number, field: string, value: unknown): string | undefined {
	const text = typeof value === 'string' ? value.trim() : value == null ? '' : String(value);
	if (text === '') return undefined;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw invalidInput(node, itemIndex, field, `${shown(text)} is not a valid URL`, 'Use a full address such as https://example.com/path');
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw invalidInput(node, itemIndex, field, `must start with https:// or http://`);
	}
	return text;
}

/** Philippine mobile numbers: 09XXXXXXXXX or +639XXXXXXXXX; spaces and dashes are ignored. */
export function parsePhilippineMobile(node: INode, itemIndex: number, field: string, value: unknown): string {
	const text = (typeof value === 'string' ? value : value == null ? '' : String(value)).replace(/[\s-]/g, '');
	if (text === '') throw invalidInput(node, itemIndex, field, 'is empty');
	if (!/^(09\d{9}|\+639\d{9})$/.test(text)) {
		throw invalidInput(node, itemIndex, field, `${shown(value)} is not a Philippine mobile number`, 'Use 09XXXXXXXXX or +639XXXXXXXXX');
	}
	return text;
}

/** A required piece of text; numbers from a spreadsheet are accepted as text. */
export function requireText(node: INode, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (text === '') throw invalidInput(node, itemIndex, field, 'is required');
	return text;
}

/** A JSON object typed into a field (as text or already an object); empty means none. */
export function parseJsonObject(node: INode, itemIndex: number, field: string, value: unknown): Record<string, unknown> {
	if (value == null || value === '') return {};
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			throw invalidInput(node, itemIndex, field, 'is not valid JSON');
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw invalidInput(node, itemIndex, field, 'must be a JSON object, e.g. {"email": "a@b.ph"}');
	}
	return parsed as Record<string, unknown>;
}
