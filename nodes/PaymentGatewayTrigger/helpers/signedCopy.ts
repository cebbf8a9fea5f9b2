/**
 * A callback carries a copy of its transaction or payout, which the signature does not cover.
 * A workflow may read the copy's reference_no or amount rather than the signed ones, so a copy
 * that contradicts them (a genuine callback with a doctored copy) is refused, not passed on.
 */
import { loggable } from './loggable';
import { toNumber, type Callback } from './payload';

/** Why the copy contradicts the signed reference_no or amount; undefined when it does not. */
export function copyContradiction(callback: Callback): string | undefined {
	const copy = callback.transaction;
	if (!copy) return undefined;
	const said = (field: string, copied: unknown, signed: unknown) =>
		`the transaction copy says ${field} "${loggable(copied)}" but the signed ${field} is "${loggable(signed)}"`;
	const reference = copy.reference_no;
	if (reference !== undefined && reference !== null && reference !== callback.referenceNo) {
		return said('reference_no', reference, callback.referenceNo);
	}
	// A collection transaction states the amount as subtotal_amount (docs/endpoints.md, Answers), a payout as amount.
	const copied = copy.subtotal_amount ?? copy.amount;
	if (copied !== undefined && copied !== null && toNumber(copied) !== callback.amount) {
		return said('amount', copied, callback.amount);
	}
	return undefined;
}
