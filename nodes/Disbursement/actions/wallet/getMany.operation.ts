/** Wallet > Get Many (interface document 4.9, `data.wallets`, status filter). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { callService } from '../../../shared/transport';
import { limitProperties, listToItems, readStatusFilter, statusFilterProperty } from '../../helpers/listing';

const show = { resource: ['wallet'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	statusFilterProperty(show, 'wallet'),
	...limitProperties(show),
	executionOptionsProperty(show, 'getWallets'),
];

export async function execute(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const status = readStatusFilter(ctx, itemIndex);
	const { timeoutMs, endpointPath } = readExecutionOptions(ctx, itemIndex);
	const { data } = await callService(ctx, {
		endpoint: 'getWallets',
		pathOverride: endpointPath,
		query: status ? { status } : undefined,
		timeoutMs,
	});
	return listToItems(ctx, itemIndex, data, 'wallets');
}
