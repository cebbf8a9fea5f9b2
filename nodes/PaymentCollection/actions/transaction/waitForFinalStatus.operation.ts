/** Transaction > Wait for Final Status: look the transaction up until it is completed or cancelled. */
import { requireText } from '../../../shared/validation/validation';
import { waitForFinalStatusOperation } from '../../../shared/operations/waitForFinalStatus';

export const { description, prepare } = waitForFinalStatusOperation({
	show: { resource: ['transaction'], operation: ['waitForFinalStatus'] },
	kind: 'transaction',
	placeholder: 'e.g. INV-2024-0001',
	// Any reference the service accepted can be looked up, so only emptiness is checked here.
	parseReference: (node, itemIndex, value) => requireText(node, itemIndex, 'Reference No', value),
});
