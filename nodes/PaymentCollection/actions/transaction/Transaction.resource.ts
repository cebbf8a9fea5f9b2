import type { INodeProperties } from 'n8n-workflow';

import { simplifyProperties } from '../../../shared/simplify';

import * as generate from './generate.operation';
import * as get from './get.operation';

export { generate, get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Generate',
				value: 'generate',
				description: 'Create a payment link for a channel (safe to retry with the same reference)',
				action: 'Generate a payment link',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Look a transaction up by its reference_no',
				action: 'Get a transaction',
			},
		],
		default: 'generate',
	},
	...generate.description,
	...get.description,
	...simplifyProperties({ resource: ['transaction'], operation: ['generate', 'get'] }),
];
