/**
 * The fake's 422 rules shared by both interfaces, Laravel style: every invalid field is listed at once, keys are field names
 * (dotted paths for nested fields), messages read like Laravel's defaults, and the summary message
 * is the first error plus "(and N more errors)".
 */
export type FieldErrors = Record<string, string[]>;

export const AMOUNT_MIN = 0.01;
export const AMOUNT_MAX = 50000;
/** Not shown by the interface document: assumed. */
export const REFERENCE_MAX_LENGTH = 64;

export class ErrorBag {
	readonly errors: FieldErrors = {};

	add(field: string, message: string): void {
		(this.errors[field] ??= []).push(message);
	}

	has(field: string): boolean {
		return field in this.errors;
	}

	get empty(): boolean {
		return Object.keys(this.errors).length === 0;
	}
}

/** Laravel's attribute name: underscores become spaces, dots stay. */
export function attribute(field: string): string {
	return field.replace(/_/g, ' ');
}

export function summaryMessage(errors: FieldErrors): string {
	const all = Object.values(errors).flat();
	if (all.length === 0) return 'The given data was invalid.';
	const more = all.length - 1;
	if (more === 0) return all[0];
	return `${all[0]} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
}

/** Laravel's `required`: null, undefined, '' (after trimming) and empty arrays fail. */
export function isPresent(value: unknown): boolean {
	if (value === undefined || value === null) return false;
	if (typeof value === 'string') return value.trim() !== '';
	if (Array.isArray(value)) return value.length > 0;
	return true;
}

/** Laravel's `numeric` accepts numbers and numeric strings. */
export function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) {
		const n = Number(value);
		return Number.isFinite(n) ? n : undefined;
	}
	return undefined;
}

export function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Philippine mobile number: 09XXXXXXXXX or +639XXXXXXXXX. */
const PH_MOBILE = /^(09\d{9}|\+639\d{9})$/;

/** A rule on the text of a value: checked only when it is present and no other rule refused it yet. */
function checkText(
	bag: ErrorBag,
	field: string,
	value: unknown,
	accepts: (text: string) => boolean,
	message: string,
): void {
	if (isPresent(value) && !bag.has(field) && (typeof value !== 'string' || !accepts(value)))
		bag.add(field, message);
}

export function checkEmail(bag: ErrorBag, field: string, value: unknown): void {
	checkText(
		bag,
		field,
		value,
		(text) => EMAIL.test(text),
		`The ${attribute(field)} must be a valid email address.`,
	);
}

export function checkMobileNumber(bag: ErrorBag, field: string, value: unknown): void {
	checkText(
		bag,
		field,
		value,
		(text) => PH_MOBILE.test(text),
		`The ${attribute(field)} format is invalid.`,
	);
}

/** Laravel's `in`: one of the listed values. */
export function checkOneOf(
	bag: ErrorBag,
	field: string,
	value: unknown,
	allowed: readonly string[],
): void {
	checkText(
		bag,
		field,
		value,
		(text) => allowed.includes(text),
		`The selected ${attribute(field)} is invalid.`,
	);
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireString(bag: ErrorBag, field: string, value: unknown): value is string {
	if (!isPresent(value)) {
		bag.add(field, `The ${attribute(field)} field is required.`);
		return false;
	}
	if (typeof value !== 'string') {
		bag.add(field, `The ${attribute(field)} must be a string.`);
		return false;
	}
	return true;
}

export function optionalString(bag: ErrorBag, field: string, value: unknown): value is string {
	if (!isPresent(value)) return false;
	if (typeof value !== 'string') {
		bag.add(field, `The ${attribute(field)} must be a string.`);
		return false;
	}
	return true;
}

export function checkAmount(bag: ErrorBag, value: unknown): number | undefined {
	if (!isPresent(value)) {
		bag.add('amount', 'The amount field is required.');
		return undefined;
	}
	const n = toNumber(value);
	if (n === undefined) {
		bag.add('amount', 'The amount must be a number.');
		return undefined;
	}
	if (n < AMOUNT_MIN || n > AMOUNT_MAX) {
		bag.add('amount', `The amount must be between ${AMOUNT_MIN} and ${AMOUNT_MAX}.`);
		return undefined;
	}
	return n;
}

export function checkReference(
	bag: ErrorBag,
	value: unknown,
	isTaken: (ref: string) => boolean,
): string | undefined {
	if (!requireString(bag, 'reference_no', value)) return undefined;
	if (value.length > REFERENCE_MAX_LENGTH) {
		bag.add(
			'reference_no',
			`The reference no must not be greater than ${REFERENCE_MAX_LENGTH} characters.`,
		);
		return undefined;
	}
	if (isTaken(value)) {
		bag.add('reference_no', 'The reference no has already been taken.');
		return undefined;
	}
	return value;
}

export function checkUrl(bag: ErrorBag, field: string, value: unknown): string | undefined {
	if (!isPresent(value)) return undefined;
	if (!isHttpUrl(value)) {
		bag.add(field, `The ${attribute(field)} must be a valid URL.`);
		return undefined;
	}
	return value as string;
}
