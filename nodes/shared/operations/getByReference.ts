/** The "Get by reference_no" operation both action nodes offer, with its "On Not Found" choice. */
import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { executionOptionsProperty, referenceNoProperty } from '../descriptions/properties';
import { readExecutionOptions, readOption, type Operation } from '../runner/operation';
import type { RecordKind } from '../validation/records';
import { findByReference } from '../transport/lookups';

export interface GetByReferenceSpec {
	show: Record<string, string[]>;
	kind: RecordKind;
	placeholder: string;
	parseReference(node: INode, itemIndex: number, value: unknown): string;
}

export function getByReferenceOperation(spec: GetByReferenceSpec): Operation {
	const description: INodeProperties[] = [
		referenceNoProperty(spec.placeholder, `The reference_no the ${spec.kind} was created with`),
		executionOptionsProperty(undefined, [
			{
				displayName: 'On Not Found',
				name: 'onNotFound',
				type: 'options',
				options: [
					{
						name: 'Fail',
						value: 'fail',
						description: 'Stop with an error (or output an error item when the node continues on error)',
					},
					{
						name: 'Output Nothing',
						value: 'outputNothing',
						description: 'Output no item for this reference and carry on',
					},
				],
				default: 'fail',
				description: `What to do when no ${spec.kind} has this reference_no`,
			},
		]),
	];

	return {
		description: updateDisplayOptions({ show: spec.show }, description),
		prepare(ctx, itemIndex) {
			const node = ctx.getNode();
			const referenceNo = spec.parseReference(node, itemIndex, ctx.getNodeParameter('referenceNo', itemIndex, ''));
			const { timeoutMs } = readExecutionOptions(ctx, itemIndex);
			const outputNothing = readOption(ctx, 'onNotFound', itemIndex, 'fail') === 'outputNothing';
			return {
				read: async () => {
					const found = await findByReference(ctx, spec.kind, referenceNo, timeoutMs);
					if (found) return [found];
					if (outputNothing) return [];
					throw new NodeOperationError(node, `No ${spec.kind} has reference_no "${referenceNo}"`, {
						itemIndex,
						description: `Check the reference (it is case-sensitive) and that the credential belongs to the account that created the ${spec.kind}, or set Options > On Not Found to "Output Nothing" to carry on without an item`,
					});
				},
			};
		},
	};
}
