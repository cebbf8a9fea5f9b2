/** Payout > Reconcile: what the service holds for each row of a payout sheet (docs/endpoints.md). */
import { reconcileOperation } from '../../../shared/operations/reconcile';
import { parseReferenceNo } from '../../../shared/validation/validation';

export const { description, prepare, summarize } = reconcileOperation({
	show: { resource: ['payout'], operation: ['reconcile'] },
	kind: 'payout',
	placeholder: 'e.g. PAYOUT-2026-0001',
	parseReference: parseReferenceNo,
	channelParam: 'channel',
});
