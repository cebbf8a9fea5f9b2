import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { executionOptionsProperty } from '../../../shared/descriptions/properties';
import { limitProperties, readResultLimit } from '../../../shared/operations/listing';
import { readExecutionOptions, type ItemPlan } from '../../../shared/runner/operation';
import { inCategory, isDisabled, paymentChannelsIn } from '../../../shared/validation/channels';
import type { RunContext } from '../../../shared/runner/runContext';

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

/** Shared with the Channel dropdown (methods/loadOptions.ts). */
export const NO_CHANNEL_LIST = 'The service answered the channel list without a list of channels';

export const description = updateDisplayOptions(
	{ show: { resource: ['channel'], operation: ['getMany'] } },
	properties,
);

export function prepare(run: RunContext, itemIndex: number): ItemPlan {
	const { ctx } = run;
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const { timeoutMs } = readExecutionOptions(run, itemIndex);
	const limit = readResultLimit(ctx, itemIndex);
	const category = typeof filters.category === 'string' ? filters.category : '';
	return {
		send: { endpoint: 'getChannels', timeoutMs },
		output: ({ data }) => {
			const channels = paymentChannelsIn(data);
			if (!channels) throw new NodeOperationError(ctx.getNode(), NO_CHANNEL_LIST, { itemIndex });
			return limit(
				channels.filter(
					(channel) =>
						inCategory(channel, category) && !(filters.enabledOnly === true && isDisabled(channel)),
				),
			);
		},
	};
}
