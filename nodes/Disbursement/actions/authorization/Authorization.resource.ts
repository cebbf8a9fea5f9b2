import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['authorization'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an authorization by its code',
				action: 'Get an authorization',
			},
		],
		default: 'get',
	},
	...get.description,
];
