/** 422 rules of Process Disbursement and the wallet status filters. */
import {
	ErrorBag,
	checkAmount,
	checkEmail,
	checkMobileNumber,
	checkOneOf,
	checkReference,
	checkUrl,
	isObject,
	optionalString,
	requireString,
	type FieldErrors,
} from '../server/validation';
import { BANKS, GENDERS, RECEIVER_TYPES, findPayoutChannel, type PayoutChannel } from './fixtures';

export interface PayoutInput {
	channel: PayoutChannel;
	amount: number;
	referenceNo: string;
	callbackUrl?: string;
	fields: Record<string, unknown>;
}

function checkBankFields(bag: ErrorBag, fields: Record<string, unknown>): void {
	requireString(bag, 'fields.bank_code', fields.bank_code);
	checkOneOf(
		bag,
		'fields.bank_code',
		fields.bank_code,
		BANKS.map((b) => b.code),
	);

	const sender = isObject(fields.sender) ? fields.sender : {};
	if (fields.sender !== undefined && !isObject(fields.sender))
		bag.add('fields.sender', 'The fields.sender must be an object.');
	requireString(bag, 'fields.sender.first_name', sender.first_name);
	optionalString(bag, 'fields.sender.middle_name', sender.middle_name);
	requireString(bag, 'fields.sender.last_name', sender.last_name);
	optionalString(bag, 'fields.sender.suffix', sender.suffix);

	const receiver = isObject(fields.receiver) ? fields.receiver : {};
	if (fields.receiver !== undefined && !isObject(fields.receiver))
		bag.add('fields.receiver', 'The fields.receiver must be an object.');
	requireString(bag, 'fields.receiver.account_name', receiver.account_name);
	requireString(bag, 'fields.receiver.account_number', receiver.account_number);
	requireString(bag, 'fields.receiver.type', receiver.type);
	checkOneOf(bag, 'fields.receiver.type', receiver.type, RECEIVER_TYPES);
	optionalString(bag, 'fields.receiver.gender', receiver.gender);
	checkOneOf(bag, 'fields.receiver.gender', receiver.gender, GENDERS);
	optionalString(bag, 'fields.receiver.email', receiver.email);
	checkEmail(bag, 'fields.receiver.email', receiver.email);
	for (const key of ['mobile_number', 'address', 'barangay', 'city', 'zip_code']) {
		optionalString(bag, `fields.receiver.${key}`, receiver[key]);
	}
}

function checkEWalletFields(bag: ErrorBag, fields: Record<string, unknown>): void {
	requireString(bag, 'fields.mobile_number', fields.mobile_number);
	checkMobileNumber(bag, 'fields.mobile_number', fields.mobile_number);
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

	if (!bag.empty || !channel || amount === undefined || referenceNo === undefined)
		return { errors: bag.errors };
	return { value: { channel, amount, referenceNo, callbackUrl, fields } };
}

export function validateStatusFilter(
	value: string | null,
): { errors: FieldErrors } | { value: string | undefined } {
	if (value === null || value.trim() === '') return { value: undefined };
	if (['pending', 'completed', 'cancelled'].includes(value)) return { value };
	return { errors: { status: ['The selected status is invalid.'] } };
}
