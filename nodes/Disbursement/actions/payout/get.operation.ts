/** Payout > Get: one payout by its reference_no (interface document 4.5). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { findPayout } from '../../../shared/lookups';
import { parseReferenceNo } from '../../../shared/validation';

const show = { resource: ['payout'], operation: ['get'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Reference No',
		name: 'referenceNo',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. PAYOUT-2026-0001',
		description: 'The reference_no the payout was created with',
		displayOptions: { show },
	},
	executionOptionsProperty(show, undefined, [
		{
			displayName: 'If Not Found',
			name: 'ifNotFound',
			type: 'options',
			options: [
				{ name: 'Fail With an Error', value: 'error' },
				{ name: 'Output Nothing', value: 'outputNothing' },
			],
			default: 'error',
			description: 'What to do when no payout has this reference_no',
		},
	]),
];

export async function execute(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const referenceNo = parseReferenceNo(ctx.getNode(), itemIndex, ctx.getNodeParameter('referenceNo', itemIndex, ''));
	const { timeoutMs } = readExecutionOptions(ctx, itemIndex);
	const payout = await findPayout(ctx, referenceNo, timeoutMs);
	if (payout) return [payout];
	if (ctx.getNodeParameter('options.ifNotFound', itemIndex, 'error') === 'outputNothing') return [];
	throw new NodeOperationError(ctx.getNode(), `No payout has reference_no "${referenceNo}" (item ${itemIndex})`, {
		itemIndex,
		description:
			'Check the reference, and that the credential belongs to the account that created the payout. Set Options > If Not Found to "Output Nothing" to skip missing payouts instead.',
	});
}
