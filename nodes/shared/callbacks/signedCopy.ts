/**
 * A callback carries a copy of its transaction or payout, which the signature does not cover.
 * A workflow may read the copy's reference_no or amount rather than the signed ones, so a copy
 * that contradicts them (a genuine callback with a doctored copy) is refused, not passed on.
 */
import { recordAmount, sameAmount } from '../validation/records';
import { loggable } from './loggable';
import { recordKindOf, type Callback } from './payload';

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
	// Read and compared as every record's amount is (records.ts): an amount it cannot read contradicts.
	const copied = recordAmount(recordKindOf(callback.shapeHint), copy);
	if (copied !== undefined && !sameAmount(copied, callback.amount)) {
		return said('amount', copied, callback.amount);
	}
	return undefined;
}
