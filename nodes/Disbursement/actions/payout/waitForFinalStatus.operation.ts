/** Payout > Wait for Final Status: look the payout up until it is completed or cancelled. */
import { parseReferenceNo } from '../../../shared/validation/validation';
import { waitForFinalStatusOperation } from '../../../shared/operations/waitForFinalStatus';

export const { description, prepare } = waitForFinalStatusOperation({
	show: { resource: ['payout'], operation: ['waitForFinalStatus'] },
	kind: 'payout',
	placeholder: 'e.g. PAYOUT-2026-0001',
	parseReference: parseReferenceNo,
});
