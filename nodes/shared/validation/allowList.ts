/**
 * Allowed Recipients: each entry says what kind of recipient it admits.
 *
 * - A mobile number (`09171234567`, `+63 917 123 4567`, `639171234567`) or a pattern of one
 *   (`0917*`, `+63 917*`) admits e-wallet payouts to that number only.
 * - An account number (`001234567890`) or a pattern (`0012*`) admits bank transfers to that account
 *   at any bank; `BDO:001234567890` only at bank code BDO; `account:09171234567` is an account
 *   number written like a mobile number.
 *
 * Account numbers are compared as written apart from spaces and dashes; `*` stands for any run of
 * letters and digits (of digits in a mobile number); an account number holds at least one digit.
 * An entry that is none of these is an error,
 * never skipped: a guard that cannot be read must not let money through.
 */
import { comparableMobile, type Recipient } from './recipient';

export interface AllowedRecipient {
	kind: 'mobile' | 'bankAccount';
	/** The bank code an account entry is tied to; undefined for any bank. */
	bankCode?: string;
	pattern: RegExp;
	/** The entry as written, for messages. */
	entry: string;
}

const ANY_BANK = 'ACCOUNT';

const regexOf = (text: string, anyRun: string) =>
	new RegExp(`^${text.split('*').map(escaped).join(anyRun)}$`);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A mobile pattern in the 09… form, from 09…, +639… or 639… (spaces, dashes and brackets left out). */
function mobilePattern(compact: string): string | undefined {
	const local = compact.replace(/^\+?63(?=9)/, '0');
	if (!/^09[\d*]*$/.test(local)) return undefined;
	if (local.includes('*')) return local;
	return comparableMobile(local);
}

function readEntry(entry: string): AllowedRecipient | undefined {
	const tied = /^([A-Za-z0-9_]+)\s*:\s*(.+)$/.exec(entry);
	const number = tied ? tied[2] : entry;
	// Brackets belong to a written mobile number ("(0917) 123-4567"), never to an account number.
	const compact = number.replace(/[\s-]/g, '');
	if (compact.replace(/\*/g, '') === '') return undefined;
	if (!tied) {
		const mobile = mobilePattern(compact.replace(/[()]/g, ''));
		if (mobile) return { kind: 'mobile', pattern: regexOf(mobile, '\\d*'), entry };
	}
	// An account number holds digits: "ask the boss" is a note, not an account.
	if (!/^[A-Za-z0-9*]+$/.test(compact) || !/\d/.test(compact)) return undefined;
	const bank = tied?.[1].toUpperCase();
	return {
		kind: 'bankAccount',
		bankCode: bank === ANY_BANK ? undefined : bank,
		pattern: regexOf(compact, '[A-Za-z0-9]*'),
		entry,
	};
}

/**
 * The entries of the option (separated by commas, semicolons or new lines; empty ones dropped),
 * or the entries that cannot be read.
 */
export function parseAllowList(
	value: unknown,
): { allowed: AllowedRecipient[] } | { unreadable: string[] } {
	const text = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
	if (text === undefined) return { unreadable: [typeof value] };
	const entries = text
		.split(/[,;\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
	const read = entries.map((entry) => [entry, readEntry(entry)] as const);
	const unreadable = read.filter(([, allowed]) => !allowed).map(([entry]) => entry);
	if (unreadable.length > 0) return { unreadable };
	return { allowed: read.map(([, allowed]) => allowed!) };
}

/** Whether an entry admits the recipient: a mobile entry only an e-wallet's number, an account entry only a bank account. */
export function isAllowedRecipient(recipient: Recipient, allowList: AllowedRecipient[]): boolean {
	return allowList.some((allowed) => {
		if (recipient.kind === 'mobile')
			return allowed.kind === 'mobile' && allowed.pattern.test(recipient.mobileNumber);
		if (allowed.kind !== 'bankAccount') return false;
		if (allowed.bankCode !== undefined && allowed.bankCode !== recipient.bankCode) return false;
		return allowed.pattern.test(recipient.accountNumber);
	});
}
