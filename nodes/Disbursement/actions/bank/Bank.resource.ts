import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bank'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get the banks a bank transfer can be sent to, with their codes',
				action: 'Get many banks',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
