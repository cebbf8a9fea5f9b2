/**
 * "Get by reference_no" (nodes/shared/operations/getByReference.ts): one look-up of the record a
 * reference names, failing or giving nothing when there is none, as On Not Found says.
 */
import { NodeOperationError } from 'n8n-workflow';

import { getByReferenceOperation } from '../../../nodes/shared/operations/getByReference';
import { startRun } from '../../../nodes/shared/runner/runContext';
import { parseReferenceNo } from '../../../nodes/shared/validation/validation';
import { handMadeContext, type HandMadeContextSpec } from '../../harness/handMadeContext';

const operation = getByReferenceOperation({
	show: { resource: ['payout'], operation: ['get'] },
	kind: 'payout',
	placeholder: 'PAYOUT-0001',
	parseReference: parseReferenceNo,
});
const prepare = (spec: HandMadeContextSpec, itemIndex = 0) =>
	operation.prepare(startRun(handMadeContext(spec).ctx), itemIndex);

describe('getByReferenceOperation', () => {
	test.each([
		[{}, 30000, 'fail'],
		[{ onNotFound: 'fail', timeoutSeconds: 4 }, 4000, 'fail'],
		[{ onNotFound: 'outputNothing' }, 30000, 'outputNothing'],
		[{ onNotFound: 'something else' }, 30000, 'fail'],
	])(
		'Options %j: a look-up with a %pms timeout, on not found: %s',
		(options, timeoutMs, onNotFound) => {
			expect(prepare({ parameters: { referenceNo: 'PAYOUT-0001', options } })).toEqual({
				lookUp: { kind: 'payout', referenceNo: 'PAYOUT-0001', timeoutMs },
				onNotFound,
			});
		},
	);

	test("each item's reference is read for that item", () => {
		const spec = {
			parameters: { referenceNo: '={{ $json.ref }}' },
			perRow: { referenceNo: ['A-1', 'B-2'] },
		};
		expect(prepare(spec, 1)).toMatchObject({ lookUp: { referenceNo: 'B-2' } });
	});

	test('a reference the parser refuses fails the item, nothing looked up', () => {
		expect(() => prepare({ parameters: { referenceNo: '' } })).toThrow(NodeOperationError);
	});

	test('its form is shown only for the operation it belongs to', () => {
		const names = operation.description.map((property) => property.name);
		expect(names).toEqual(['referenceNo', 'options']);
		for (const property of operation.description)
			expect(property.displayOptions?.show).toMatchObject({
				resource: ['payout'],
				operation: ['get'],
			});
	});
});
