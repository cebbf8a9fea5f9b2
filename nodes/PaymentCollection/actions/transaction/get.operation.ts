/** Transaction > Get: one transaction by its reference_no (docs/endpoints.md). */
import { getByReferenceOperation } from '../../../shared/operations/getByReference';
import { requireText } from '../../../shared/validation/validation';

export const { description, prepare } = getByReferenceOperation({
	show: { resource: ['transaction'], operation: ['get'] },
	kind: 'transaction',
	placeholder: 'e.g. INV-2024-0001',
	// Any reference the service accepted can be looked up, so only emptiness is checked here.
	parseReference: (node, itemIndex, value) => requireText(node, itemIndex, 'Reference No', value),
});
