/** Transaction > Reconcile: what the service holds for each row of a payment-link sheet (docs/endpoints.md). */
import { reconcileOperation } from '../../../shared/operations/reconcile';
import { requireText } from '../../../shared/validation/validation';

export const { description, prepare, summarize } = reconcileOperation({
	show: { resource: ['transaction'], operation: ['reconcile'] },
	kind: 'transaction',
	placeholder: 'e.g. INV-2024-0001',
	// Any reference the service accepted can be looked up, so only emptiness is checked here.
	parseReference: (node, itemIndex, value) => requireText(node, itemIndex, 'Reference No', value),
	channelParam: 'channelCode',
});
