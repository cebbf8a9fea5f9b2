/** 422 rules of Generate Transaction and the fee preview. */
import {
	ErrorBag,
	checkAmount,
	checkEmail,
	checkMobileNumber,
	checkReference,
	checkUrl,
	isPresent,
	requireString,
	type FieldErrors,
} from '../server/validation';
import { findCollectionChannel, type CollectionChannel } from './channels';

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

const CUSTOMER_FIELDS = [
	'email',
	'mobile_number',
	'first_name',
	'last_name',
	'address',
	'city',
	'state',
	'zip_code',
	'country_code',
];

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
	checkEmail(bag, 'email', body.email);
	checkMobileNumber(bag, 'mobile_number', body.mobile_number);

	if (!bag.empty || !channel || amount === undefined || referenceNo === undefined)
		return { errors: bag.errors };
	const customer: Record<string, unknown> = {};
	for (const field of CUSTOMER_FIELDS) if (isPresent(body[field])) customer[field] = body[field];
	return { value: { channel, amount, referenceNo, successUrl, failureUrl, callbackUrl, customer } };
}

export function validateCalculate(
	query: URLSearchParams,
): { errors: FieldErrors } | { value: { channel: CollectionChannel; amount: number } } {
	const bag = new ErrorBag();
	const channel = checkCollectionChannel(bag, query.get('channel_code') ?? undefined);
	const amount = checkAmount(bag, query.get('amount') ?? undefined);
	if (!channel || amount === undefined) return { errors: bag.errors };
	return { value: { channel, amount } };
}
