/** Payout > Get: one payout by its reference_no (docs/endpoints.md). */
import { getByReferenceOperation } from '../../../shared/operations/getByReference';
import { parseReferenceNo } from '../../../shared/validation/validation';

export const { description, prepare } = getByReferenceOperation({
	show: { resource: ['payout'], operation: ['get'] },
	kind: 'payout',
	placeholder: 'e.g. PAYOUT-2026-0001',
	parseReference: parseReferenceNo,
});
