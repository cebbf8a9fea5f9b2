/** The "Get by reference_no" operation both action nodes offer, with its "On Not Found" choice. */
import type { INode, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executionOptionsProperty, referenceNoProperty } from '../descriptions/properties';
import { readExecutionOptions, type Operation } from '../runner/operation';
import { readOption } from '../runner/options';
import type { RecordKind } from '../validation/records';

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
						description:
							'Stop with an error (or output an error item when the node continues on error)',
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
		prepare(run, itemIndex) {
			const { ctx } = run;
			const referenceNo = spec.parseReference(
				ctx.getNode(),
				itemIndex,
				ctx.getNodeParameter('referenceNo', itemIndex, ''),
			);
			const { timeoutMs } = readExecutionOptions(run, itemIndex);
			const outputNothing = readOption(run, 'onNotFound', itemIndex, 'fail') === 'outputNothing';
			return {
				lookUp: { kind: spec.kind, referenceNo, timeoutMs },
				onNotFound: outputNothing ? 'outputNothing' : 'fail',
			};
		},
	};
}
