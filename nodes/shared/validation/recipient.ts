/**
 * Who a payout pays, read once from the request body that is sent: for a bank transfer the channel,
 * `fields.bank_code` and `fields.receiver.account_number`; for an e-wallet the channel and
 * `fields.mobile_number`. Allowed Recipients, Prepare's summary, the approval token, Dry Run's
 * payee, the same-intent check on records and Reconcile all use this one reading.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ChannelType } from './channels';
import { foldCode, unsendableCode } from './codes';
import { shownText } from './shownText';
import { readPhilippineMobile } from './validation';

export type Recipient =
	| { kind: 'bankAccount'; channel: string; bankCode: string; accountNumber: string }
	| { kind: 'mobile'; channel: string; mobileNumber: string };

/** A mobile number in one form, 09XXXXXXXXX, from 09…, +639… or 639… with spaces, dashes or brackets. */
export function comparableMobile(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const compact = String(value).replace(/[\s\-()]/g, '');
	const withPlus = /^639\d{9}$/.test(compact) ? `+${compact}` : compact;
	return readPhilippineMobile(withPlus)?.replace(/^\+63/, '0');
}

/** An account number as written, spaces and dashes left out; only letters and digits are an account number. */
export function comparableAccount(value: unknown): string | undefined {
	const text =
		typeof value === 'string'
			? value
			: typeof value === 'number' && Number.isSafeInteger(value)
				? String(value)
				: '';
	const compact = text.replace(/[\s-]/g, '');
	return /^[A-Za-z0-9]+$/.test(compact) ? compact : undefined;
}

/** A bank or channel code in the form codes are compared in: trimmed, ASCII letters in upper case (codes.ts). */
export function comparableCode(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? foldCode(value.trim()) : undefined;
}

/**
 * A code of the body as it is sent, never rewritten: what the summary shows is what the service
 * gets. `missing` is the problem when it is not a text or blank; one naming it when it cannot be
 * sent (codes.ts).
 */
function codeAsSent(
	label: string,
	value: unknown,
	missing: string,
	problems: string[],
): string | undefined {
	const problem =
		typeof value !== 'string' || value.trim() === '' ? missing : unsendableCode(label, value);
	if (problem) problems.push(problem);
	return problem ? undefined : (value as string);
}

/** Where each channel type names its recipient inside `fields`. */
const RECIPIENT_PATHS: Record<ChannelType, string[]> = {
	bankTransfer: ['bank_code', 'receiver.account_number'],
	eWallet: ['mobile_number'],
};

/** Fields named like a recipient that are contact details, not who is paid. */
const CONTACT_PATHS: Record<ChannelType, string[]> = {
	bankTransfer: ['receiver.mobile_number'],
	eWallet: [],
};

/** Names that say "who is paid", whatever their case or separators: mobile_number, accountNumber, BANK-CODE... */
const RECIPIENT_NAME =
	/^(mobile(number|no)?|msisdn|account(number|no)|bank(code)?|wallet(number|id)?)$/;

const nameOf = (key: string) => key.toLowerCase().replace(/[^a-z]/g, '');

/** Every path inside `fields` whose key names a recipient, as `a.b.c`. */
function recipientNamedPaths(value: unknown, path: string[] = []): string[] {
	if (!value || typeof value !== 'object') return [];
	// A list is searched too: its entries are named by their index (fields.extra.0.account_number).
	return Object.entries(value as IDataObject).flatMap(([key, entry]) => {
		const at = [...path, key];
		const own = RECIPIENT_NAME.test(nameOf(key)) ? [at.join('.')] : [];
		return [...own, ...recipientNamedPaths(entry, at)];
	});
}

function valueAt(holder: unknown, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>(
			(at, key) => (at && typeof at === 'object' ? (at as IDataObject)[key] : undefined),
			holder,
		);
}

const TYPE_LABEL: Record<ChannelType, string> = {
	bankTransfer: 'bank transfers',
	eWallet: 'e-wallet payouts',
};

/**
 * The recipient fields in `fields` that the channel type does not use, anywhere and however they
 * are spelled, each as a problem naming it: no extra field may change who is paid behind the
 * fields that are checked and shown.
 */
export function strayRecipientFields(fields: unknown, channelType: ChannelType): string[] {
	const used = RECIPIENT_PATHS[channelType] ?? [];
	const allowed = [...used, ...(CONTACT_PATHS[channelType] ?? [])];
	return recipientNamedPaths(fields)
		.filter((path) => !allowed.includes(path))
		.map(
			(path) =>
				`fields.${path} is not a recipient field of ${TYPE_LABEL[channelType] ?? channelType}: remove it from Channel Fields (JSON); who is paid is ${used.map((p) => `fields.${p}`).join(' and ')}`,
		);
}

/** The recipient of a payout body, or every reason it cannot be read. */
export function readRecipient(
	body: IDataObject,
	channelType: ChannelType,
): { recipient: Recipient } | { problems: string[] } {
	if (channelType !== 'bankTransfer' && channelType !== 'eWallet')
		return {
			problems: [`Channel Type "${String(channelType)}" is not one of bankTransfer, eWallet`],
		};
	const fields = body.fields;
	const problems = strayRecipientFields(fields, channelType);
	const channel = codeAsSent('Channel', body.channel, 'the payout has no channel', problems);
	if (channelType === 'eWallet') {
		const mobileNumber = comparableMobile(valueAt(fields, 'mobile_number'));
		if (!mobileNumber) problems.push('fields.mobile_number is not a Philippine mobile number');
		if (problems.length > 0 || !mobileNumber || !channel) return { problems };
		return { recipient: { kind: 'mobile', channel, mobileNumber } };
	}
	const bankCode = codeAsSent(
		'Bank Code',
		valueAt(fields, 'bank_code'),
		'fields.bank_code is missing',
		problems,
	);
	const accountNumber = comparableAccount(valueAt(fields, 'receiver.account_number'));
	if (!accountNumber) problems.push('fields.receiver.account_number is not an account number');
	if (problems.length > 0 || !bankCode || !accountNumber || !channel) return { problems };
	return { recipient: { kind: 'bankAccount', channel, bankCode, accountNumber } };
}

/** The facts of a recipient, keyed as records and rows name them (for comparing and showing). */
export function recipientFacts(recipient: Recipient): Partial<Record<RecipientFact, string>> {
	return recipient.kind === 'mobile'
		? { 'mobile number': recipient.mobileNumber }
		: { 'bank code': recipient.bankCode, 'account number': recipient.accountNumber };
}

export type RecipientFact = 'mobile number' | 'bank code' | 'account number';

/** Where a payout record (or a callback's copy of one) states each recipient fact, and its comparable form. */
export const RECORD_RECIPIENT_FIELDS: Array<
	[RecipientFact, string, (value: unknown) => string | undefined]
> = [
	['mobile number', 'mobile_number', comparableMobile],
	['bank code', 'bank_code', comparableCode],
	['account number', 'receiver.account_number', comparableAccount],
];

/** A recipient fact as a record or a callback's copy states it under `fields`, raw. */
export function recordRecipientValue(record: IDataObject | undefined, path: string): unknown {
	return valueAt(record?.fields, path);
}

/**
 * Who is paid, masked but told apart as far as masking allows: a bank account keeps its bank and
 * last 4 digits (`BDO ••••••••7890`), a mobile number its network prefix and last 4 (`0917•••4567`).
 * For a dry run's preview only: a person who approves a payout sees `recipientInFull`.
 */
export function maskedRecipient(recipient: Recipient): string {
	const masked = (number: string, shownAtStart: number) =>
		`${number.slice(0, shownAtStart)}${'•'.repeat(Math.max(0, number.length - shownAtStart - 4))}${number.slice(-4)}`;
	return recipient.kind === 'bankAccount'
		? `${shownText(recipient.bankCode, 40)} ${masked(recipient.accountNumber, 0)}`
		: masked(recipient.mobileNumber, 4);
}

/**
 * Exactly whom a payout pays, for the person who approves it: the full account number, its bank
 * code and channel; or the full mobile number and its channel. Names (the account's, the bank's)
 * are not part of it: the approval summary shows them last, each after its own label.
 */
export function recipientInFull(recipient: Recipient): string {
	const channel = shownText(recipient.channel, 40);
	if (recipient.kind === 'mobile')
		return `e-wallet mobile number ${shownText(recipient.mobileNumber)} on ${channel}`;
	const code = shownText(recipient.bankCode, 40);
	// An account number is letters and digits only (comparableAccount), shown in full however long.
	const account = shownText(recipient.accountNumber, Infinity);
	return `account number ${account} at bank code ${code}, over ${channel}`;
}
