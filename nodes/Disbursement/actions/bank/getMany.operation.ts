/** Bank > Get Many (interface document 4.9, `data.banks`): the banks a bank transfer can go to. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { callService } from '../../../shared/transport';
import { limitProperties, listToItems } from '../../helpers/listing';

const show = { resource: ['bank'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	...limitProperties(show),
	executionOptionsProperty(show, 'getBanks'),
];

export async function execute(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const { timeoutMs, endpointPath } = readExecutionOptions(ctx, itemIndex);
	const { data } = await callService(ctx, { endpoint: 'getBanks', pathOverride: endpointPath, timeoutMs });
	return listToItems(ctx, itemIndex, data, 'banks');
}
