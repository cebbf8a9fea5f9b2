/** Wallet > Get Transactions (interface document 4.9, status filter). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { callService } from '../../../shared/transport';
import { limitProperties, listToItems, readStatusFilter, statusFilterProperty } from '../../helpers/listing';

const show = { resource: ['wallet'], operation: ['getTransactions'] };

export const description: INodeProperties[] = [
	statusFilterProperty(show, 'wallet transaction'),
	...limitProperties(show),
	executionOptionsProperty(show, 'getWalletTransactions'),
];

export async function execute(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const status = readStatusFilter(ctx, itemIndex);
	const { timeoutMs, endpointPath } = readExecutionOptions(ctx, itemIndex);
	const { data } = await callService(ctx, {
		endpoint: 'getWalletTransactions',
		pathOverride: endpointPath,
		query: status ? { status } : undefined,
		timeoutMs,
	});
	return listToItems(ctx, itemIndex, data, 'transactions');
}
