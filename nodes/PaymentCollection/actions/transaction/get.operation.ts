import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { findCollectionTransaction } from '../../../shared/lookups';
import { requireText } from '../../../shared/validation';

const show = { resource: ['transaction'], operation: ['get'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Reference No',
		name: 'referenceNo',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. INV-2024-0001',
		description: 'The reference_no the transaction was generated with',
		displayOptions: { show },
	},
	executionOptionsProperty(show, undefined, [
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
			description: 'What to do when no transaction has this reference_no',
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const node = this.getNode();
	// Any reference the service accepted can be looked up, so only emptiness is checked here.
	const referenceNo = requireText(node, itemIndex, 'Reference No', this.getNodeParameter('referenceNo', itemIndex));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { timeoutMs } = readExecutionOptions(this, itemIndex);

	const transaction = await findCollectionTransaction(this, referenceNo, timeoutMs);
	if (transaction) return [transaction];
	if (options.onNotFound === 'outputNothing') return [];
	throw new NodeOperationError(node, `No transaction found with reference_no "${referenceNo}"`, {
		itemIndex,
		description:
			'Check the reference (it is case-sensitive), or set Options > On Not Found to "Output Nothing" to carry on without an item',
	});
}
