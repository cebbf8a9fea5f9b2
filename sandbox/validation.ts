/**
 * The fake's 422 rules, Laravel style: every invalid field is listed at once, keys are field names
 * (dotted paths for nested fields), messages read like Laravel's defaults, and the summary message
 * is the first error plus "(and N more errors)".
 */
import {
	findCollectionChannel,
	findPayoutChannel,
	BANKS,
	GENDERS,
	RECEIVER_TYPES,
	type CollectionChannel,
	type PayoutChannel,
} from './fixtures';

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
export const PH_MOBILE = /^(09\d{9}|\+639\d{9})$/;

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(bag: ErrorBag, field: string, value: unknown): value is string {
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

function optionalString(bag: ErrorBag, field: string, value: unknown): value is string {
	if (!isPresent(value)) return false;
	if (typeof value !== 'string') {
		bag.add(field, `The ${attribute(field)} must be a string.`);
		return false;
	}
	return true;
}

function checkAmount(bag: ErrorBag, value: unknown): number | undefined {
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

function checkReference(bag: ErrorBag, value: unknown, isTaken: (ref: string) => boolean): string | undefined {
	if (!requireString(bag, 'reference_no', value)) return undefined;
	if (value.length > REFERENCE_MAX_LENGTH) {
		bag.add('reference_no', `The reference no must not be greater than ${REFERENCE_MAX_LENGTH} characters.`);
		return undefined;
	}
	if (isTaken(value)) {
		bag.add('reference_no', 'The reference no has already been taken.');
		return undefined;
	}
	return value;
}

function checkUrl(bag: ErrorBag, field: string, value: unknown): string | undefined {
	if (!isPresent(value)) return undefined;
	if (!isHttpUrl(value)) {
		bag.add(field, `The ${attribute(field)} must be a valid URL.`);
		return undefined;
	}
	return value as string;
}

function checkCollectionChannel(bag: ErrorBag, value: unknown): CollectionChannel | undefined {
	if (!requireString(bag, 'channel_code', value)) return undefined;
	const channel = findCollectionChannel(value);
	if (!channel) {
		bag.add('channel_code', 'The selected channel code is invalid.');
		return undefined;
	}
	if (channel.isDisabled) {
		bag.add('channel_code', 'The selected channel code is currently unavailable.');
		return undefined;
	}
	return channel;
}

export interface GenerateInput {
	channel: CollectionChannel;
	amount: number;
	referenceNo: string;
	successUrl?: string;
	failureUrl?: string;
	callbackUrl?: string;
	/** Customer fields sent along (required by some channels, kept for the callback copy). */
	customer: Record<string, unknown>;
}

const CUSTOMER_FIELDS = ['email', 'mobile_number', 'first_name', 'last_name', 'address', 'city', 'state', 'zip_code', 'country_code'];

export function validateGenerate(
	body: Record<string, unknown>,
	isTaken: (ref: string) => boolean,
): { errors: FieldErrors } | { value: GenerateInput } {
	const bag = new ErrorBag();
	const channel = checkCollectionChannel(bag, body.channel_code);
	const amount = checkAmount(bag, body.amount);
	const referenceNo = checkReference(bag, body.reference_no, isTaken);
	const successUrl = checkUrl(bag, 'success_redirect_url', body.success_redirect_url);
	const failureUrl = checkUrl(bag, 'failure_redirect_url', body.failure_redirect_url);
	const callbackUrl = checkUrl(bag, 'callback_webhook_url', body.callback_webhook_url);

	for (const field of channel?.requiredCustomerFields ?? []) requireString(bag, field, body[field]);
	if (isPresent(body.email) && !bag.has('email') && (typeof body.email !== 'string' || !EMAIL.test(body.email))) {
		bag.add('email', 'The email must be a valid email address.');
	}
	if (
		isPresent(body.mobile_number) &&
		!bag.has('mobile_number') &&
		(typeof body.mobile_number !== 'string' || !PH_MOBILE.test(body.mobile_number))
	) {
		bag.add('mobile_number', 'The mobile number format is invalid.');
	}

	if (!bag.empty || !channel || amount === undefined || referenceNo === undefined) return { errors: bag.errors };
	const customer: Record<string, unknown> = {};
	for (const field of CUSTOMER_FIELDS) if (isPresent(body[field])) customer[field] = body[field];
	return { value: { channel, amount, referenceNo, successUrl, failureUrl, callbackUrl, customer } };
}

export function validateCalculate(query: URLSearchParams): { errors: FieldErrors } | { value: { channel: CollectionChannel; amount: number } } {
	const bag = new ErrorBag();
	const channel = checkCollectionChannel(bag, query.get('channel_code') ?? undefined);
	const amount = checkAmount(bag, query.get('amount') ?? undefined);
	if (!channel || amount === undefined) return { errors: bag.errors };
	return { value: { channel, amount } };
}

export interface PayoutInput {
	channel: PayoutChannel;
	amount: number;
	referenceNo: string;
	callbackUrl?: string;
	fields: Record<string, unknown>;
}

function checkBankFields(bag: ErrorBag, fields: Record<string, unknown>): void {
	if (requireString(bag, 'fields.bank_code', fields.bank_code) && !BANKS.some((b) => b.code === fields.bank_code)) {
		bag.add('fields.bank_code', 'The selected fields.bank code is invalid.');
	}

	const sender = isObject(fields.sender) ? fields.sender : {};
	if (fields.sender !== undefined && !isObject(fields.sender)) bag.add('fields.sender', 'The fields.sender must be an object.');
	requireString(bag, 'fields.sender.first_name', sender.first_name);
	optionalString(bag, 'fields.sender.middle_name', sender.middle_name);
	requireString(bag, 'fields.sender.last_name', sender.last_name);
	optionalString(bag, 'fields.sender.suffix', sender.suffix);

	const receiver = isObject(fields.receiver) ? fields.receiver : {};
	if (fields.receiver !== undefined && !isObject(fields.receiver)) bag.add('fields.receiver', 'The fields.receiver must be an object.');
	requireString(bag, 'fields.receiver.account_name', receiver.account_name);
	requireString(bag, 'fields.receiver.account_number', receiver.account_number);
	if (
		requireString(bag, 'fields.receiver.type', receiver.type) &&
		!(RECEIVER_TYPES as readonly string[]).includes(receiver.type as string)
	) {
		bag.add('fields.receiver.type', 'The selected fields.receiver.type is invalid.');
	}
	if (
		optionalString(bag, 'fields.receiver.gender', receiver.gender) &&
		!(GENDERS as readonly string[]).includes(receiver.gender as string)
	) {
		bag.add('fields.receiver.gender', 'The selected fields.receiver.gender is invalid.');
	}
	if (optionalString(bag, 'fields.receiver.email', receiver.email) && !EMAIL.test(receiver.email as string)) {
		bag.add('fields.receiver.email', 'The fields.receiver.email must be a valid email address.');
	}
	for (const key of ['mobile_number', 'address', 'barangay', 'city', 'zip_code']) {
		optionalString(bag, `fields.receiver.${key}`, receiver[key]);
	}
}

function checkEWalletFields(bag: ErrorBag, fields: Record<string, unknown>): void {
	if (requireString(bag, 'fields.mobile_number', fields.mobile_number) && !PH_MOBILE.test(fields.mobile_number as string)) {
		bag.add('fields.mobile_number', 'The fields.mobile number format is invalid.');
	}
}

export function validatePayout(
	body: Record<string, unknown>,
	isTaken: (ref: string) => boolean,
): { errors: FieldErrors } | { value: PayoutInput } {
	const bag = new ErrorBag();
	let channel: PayoutChannel | undefined;
	if (requireString(bag, 'channel', body.channel)) {
		channel = findPayoutChannel(body.channel);
		if (!channel) bag.add('channel', 'The selected channel is invalid.');
	}
	const amount = checkAmount(bag, body.amount);
	const referenceNo = checkReference(bag, body.reference_no, isTaken);
	const callbackUrl = checkUrl(bag, 'callback_webhook_url', body.callback_webhook_url);

	// As in Laravel, the nested rules still run when `fields` is missing, so every missing
	// field is listed at once.
	let fields: Record<string, unknown> = {};
	if (body.fields === undefined || body.fields === null) {
		bag.add('fields', 'The fields field is required.');
	} else if (!isObject(body.fields)) {
		bag.add('fields', 'The fields must be an object.');
	} else {
		fields = body.fields;
	}
	if (channel?.type === 'bankTransfer') checkBankFields(bag, fields);
	if (channel?.type === 'eWallet') checkEWalletFields(bag, fields);

	if (!bag.empty || !channel || amount === undefined || referenceNo === undefined) return { errors: bag.errors };
	return { value: { channel, amount, referenceNo, callbackUrl, fields } };
}

export function validateStatusFilter(value: string | null): { errors: FieldErrors } | { value: string | undefined } {
	if (value === null || value.trim() === '') return { value: undefined };
	if (['pending', 'completed', 'cancelled'].includes(value)) return { value };
	return { errors: { status: ['The selected status is invalid.'] } };
}
