import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['channel'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the payment channels available to your merchant account',
				action: 'Get many channels',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
