/**
 * Bank and channel codes: the one way two codes are compared, and which codes can be sent.
 *
 * A code is sent exactly as a person is shown it, so it is never rewritten on its way: it is the
 * code as typed, or the service's own spelling of it from a list the node holds. Codes are compared
 * with their ASCII letters folded to upper case and nothing else changed. JavaScript's
 * `toUpperCase` would make `ſ` (long s) an S, `ı` (dotless i) an I and `ß` SS, so a code shown as
 * GCASH could be sent as `GCAſH`, and an Allowed Recipients entry for BPI admit `bpı`.
 */
import { shownText } from './shownText';

/** `code` with its ASCII letters in upper case; every other character stays as it is. */
export function foldCode(code: string): string {
	return code.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** Whether two codes are the same code: equal once their ASCII letters are folded. */
export function sameCode(a: string, b: string): boolean {
	return foldCode(a) === foldCode(b);
}

/**
 * Printable ASCII from `!` to `~`: what a code the service issues is written in. Not a blank
 * either, since a summary shows a run of blanks as one space and none at either end.
 */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** Whether `code` can be sent: printable ASCII only, without blanks. */
export function isSendableCode(code: string): boolean {
	return PRINTABLE_ASCII.test(code);
}

/** Why the code given as `label` cannot be sent, naming it; undefined when it can. */
export function unsendableCode(label: string, code: string): string | undefined {
	if (isSendableCode(code)) return undefined;
	// shownText shows no blank at either end: say there is one, or the code named looks sendable.
	const blankEnd = code.trim() !== code ? ' (with a blank at its start or end)' : '';
	return `${label} "${shownText(code, 40)}"${blankEnd} is not a code the service issues (printable ASCII letters, digits and signs only, no blanks): choose it from the list, or type the code as the service spells it`;
}

/**
 * The service's own spelling of `code` from `listed`, its list of codes: the one entry that is the
 * same code; undefined when none or more than one is.
 */
export function listedSpelling(code: string, listed: readonly string[]): string | undefined {
	const same = listed.filter((entry) => sameCode(entry, code));
	return same.length === 1 ? same[0] : undefined;
}
