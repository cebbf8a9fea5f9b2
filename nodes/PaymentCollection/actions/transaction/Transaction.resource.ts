import type { INodeProperties } from 'n8n-workflow';

import { simplifyProperties } from '../../../shared/descriptions/simplify';

import * as generate from './generate.operation';
import * as get from './get.operation';
import * as reconcile from './reconcile.operation';
import * as waitForFinalStatus from './waitForFinalStatus.operation';

export { generate, get, reconcile, waitForFinalStatus };

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
				description:
					'Create a payment link for a channel (safe to retry with the same reference). Safety options: Maximum Total per Run, Dry Run.',
				action: 'Generate a payment link',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Look a transaction up by its reference_no',
				action: 'Get a transaction',
			},
			{
				name: 'Reconcile',
				value: 'reconcile',
				description:
					'Check rows against the transactions the service holds: status, and any amount or channel that does not match. Sends nothing that creates money.',
				action: 'Reconcile transactions',
			},
			{
				name: 'Wait for Final Status',
				value: 'waitForFinalStatus',
				description:
					'Look a transaction up until it is completed or cancelled, for n8n instances the callback cannot reach',
				action: 'Wait for a transaction final status',
			},
		],
		default: 'generate',
	},
	...generate.description,
	...get.description,
	...reconcile.description,
	...waitForFinalStatus.description,
	...simplifyProperties({ resource: ['transaction'], operation: ['generate', 'get'] }),
];
