import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as getTransactions from './getTransactions.operation';

export { getMany, getTransactions };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['wallet'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many wallets and their balances',
				action: 'Get many wallets',
			},
			{
				name: 'Get Transactions',
				value: 'getTransactions',
				description: 'Get the transactions of the wallets',
				action: 'Get wallet transactions',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...getTransactions.description,
];
