import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { applyLimit, limitProperties } from '../../../shared/listing';
import { fetchChannels, inCategory, isDisabled } from '../../helpers/channels';

const show = { resource: ['channel'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	...limitProperties(show),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
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
	executionOptionsProperty(show),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const { timeoutMs } = readExecutionOptions(this, itemIndex);

	const category = typeof filters.category === 'string' ? filters.category : '';
	const channels = (await fetchChannels(this, timeoutMs)).filter(
		(channel) => inCategory(channel, category) && !(filters.enabledOnly === true && isDisabled(channel)),
	);
	return applyLimit(this, itemIndex, channels);
}
