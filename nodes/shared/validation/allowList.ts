/**
 * Allowed Recipients: each entry says what kind of recipient it admits.
 *
 * - A mobile number (`09171234567`, `+63 917 123 4567`, `639171234567`) or a pattern of one
 *   (`0917*`, `+63 917*`) admits e-wallet payouts to that number only.
 * - An account number is written with its bank code: `BDO:001234567890` (or a pattern,
 *   `BDO:0012*`) admits bank transfers to that account at bank code BDO only, since an account
 *   number names an account only together with its bank. `ANY:001234567890` says "at any bank".
 *
 * Account numbers are compared as written apart from spaces and dashes; `*` stands for any run of
 * letters and digits (of digits in a mobile number); an account number holds at least one digit.
 * An entry that is none of these, or an account number without its bank (`001234567890`, or
 * the former any-bank form `account:001234567890`), is an error, never skipped: a guard that
 * cannot be read must not let money through.
 */
import { foldCode, sameCode } from './codes';
import { comparableMobile, type Recipient } from './recipient';

export interface AllowedRecipient {
	kind: 'mobile' | 'bankAccount';
	/** The bank code an account entry is tied to; undefined for any bank. */
	bankCode?: string;
	pattern: RegExp;
	/** The entry as written, for messages. */
	entry: string;
}

/** The bank code that stands for every bank. */
export const ANY_BANK = 'ANY';
/** The former mark of an account number at any bank: it names no bank, so it is refused. */
const BANKLESS = 'ACCOUNT';

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

type ReadEntry = AllowedRecipient | 'withoutBank' | 'unreadable';

function readEntry(entry: string): ReadEntry {
	const tied = /^([A-Za-z0-9_]+)\s*:\s*(.+)$/.exec(entry);
	const number = tied ? tied[2] : entry;
	// Brackets belong to a written mobile number ("(0917) 123-4567"), never to an account number.
	const compact = number.replace(/[\s-]/g, '');
	if (compact.replace(/\*/g, '') === '') return 'unreadable';
	if (!tied) {
		const mobile = mobilePattern(compact.replace(/[()]/g, ''));
		if (mobile) return { kind: 'mobile', pattern: regexOf(mobile, '\\d*'), entry };
	}
	// An account number holds digits: "ask the boss" is a note, not an account.
	if (!/^[A-Za-z0-9*]+$/.test(compact) || !/\d/.test(compact)) return 'unreadable';
	const bank = tied ? foldCode(tied[1]) : undefined;
	if (bank === undefined || bank === BANKLESS) return 'withoutBank';
	return {
		kind: 'bankAccount',
		bankCode: bank === ANY_BANK ? undefined : bank,
		pattern: regexOf(compact, '[A-Za-z0-9]*'),
		entry,
	};
}

/** The list's entries that cannot be used, by why: not a recipient at all, or an account number without its bank. */
export interface RefusedAllowList {
	unreadable: string[];
	withoutBank: string[];
}

/**
 * The entries of the option (separated by commas, semicolons or new lines; empty ones dropped),
 * or the entries that cannot be used.
 */
export function parseAllowList(value: unknown): { allowed: AllowedRecipient[] } | RefusedAllowList {
	const text = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
	if (text === undefined) return { unreadable: [typeof value], withoutBank: [] };
	const entries = text
		.split(/[,;\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
	const read = entries.map((entry) => [entry, readEntry(entry)] as const);
	const refused = (why: ReadEntry) =>
		read.filter(([, allowed]) => allowed === why).map(([entry]) => entry);
	const unreadable = refused('unreadable');
	const withoutBank = refused('withoutBank');
	if (unreadable.length > 0 || withoutBank.length > 0) return { unreadable, withoutBank };
	return { allowed: read.map(([, allowed]) => allowed as AllowedRecipient) };
}

/** Whether an entry admits the recipient: a mobile entry only an e-wallet's number, an account entry only a bank account. */
export function isAllowedRecipient(recipient: Recipient, allowList: AllowedRecipient[]): boolean {
	return allowList.some((allowed) => {
		if (recipient.kind === 'mobile')
			return allowed.kind === 'mobile' && allowed.pattern.test(recipient.mobileNumber);
		if (allowed.kind !== 'bankAccount') return false;
		if (allowed.bankCode !== undefined && !sameCode(allowed.bankCode, recipient.bankCode))
			return false;
		return allowed.pattern.test(recipient.accountNumber);
	});
}
