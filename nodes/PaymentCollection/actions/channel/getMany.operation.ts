import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executionOptionsProperty } from '../../../shared/descriptions/properties';
import { limitProperties, readResultLimit } from '../../../shared/operations/listing';
import { readExecutionOptions, type ItemPlan } from '../../../shared/runner/operation';
import { fetchChannels, inCategory, isDisabled } from '../../helpers/channels';

const properties: INodeProperties[] = [
	...limitProperties(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Category Name or ID',
				name: 'category',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getChannelCategories' },
				default: '',
				description:
					'Only channels of this category (e.g. e-wallet, otc). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Enabled Only',
				name: 'enabledOnly',
				type: 'boolean',
				default: true,
				description: 'Whether to leave out channels the service marks as disabled',
			},
		],
	},
	executionOptionsProperty(),
];

export const description = updateDisplayOptions({ show: { resource: ['channel'], operation: ['getMany'] } }, properties);

export function prepare(ctx: IExecuteFunctions, itemIndex: number): ItemPlan {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const { timeoutMs } = readExecutionOptions(ctx, itemIndex);
	const limit = readResultLimit(ctx, itemIndex);
	const category = typeof filters.category === 'string' ? filters.category : '';
	return {
		read: async () => {
			const channels = (await fetchChannels(ctx, timeoutMs)).filter(
				(channel) => inCategory(channel, category) && !(filters.enabledOnly === true && isDisabled(channel)),
			);
			return limit(channels);
		},
	};
}
