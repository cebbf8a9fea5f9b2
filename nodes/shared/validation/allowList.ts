/** Allowed Recipients: mobile and account numbers, and patterns with * for any digits. */
import type { PayoutRecipient } from './records';

/** Digits only; a Philippine mobile number written +639… or 639… becomes 09…. */
function normalised(text: string): string {
	const digits = text.replace(/[^\d*]/g, '');
	return /^639\d{9}$/.test(digits) ? `0${digits.slice(2)}` : digits;
}

/** The entries of the option: separated by commas, semicolons or new lines; empty ones dropped. */
export function parseAllowList(value: unknown): RegExp[] {
	const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
	return text
		.split(/[,;\n]/)
		.map((entry) => normalised(entry.trim()))
		.filter((entry) => entry.replace(/\*/g, '') !== '')
		.map((entry) => new RegExp(`^${entry.replace(/\*/g, '\\d*')}$`));
}

/** Whether the payout's recipient (its account number, else its mobile number) is on the list. */
export function isAllowedRecipient(recipient: PayoutRecipient, allowList: RegExp[]): boolean {
	const number = recipient.accountNumber ?? recipient.mobileNumber;
	if (!number) return false;
	const wanted = normalised(number);
	return allowList.some((pattern) => pattern.test(wanted));
}
