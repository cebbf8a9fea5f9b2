import type { INodeProperties } from 'n8n-workflow';

import { simplifyProperties } from '../../../shared/descriptions/simplify';

import * as create from './create.operation';
import * as get from './get.operation';
import * as reconcile from './reconcile.operation';
import * as repost from './repost.operation';
import * as waitForFinalStatus from './waitForFinalStatus.operation';

export { create, get, reconcile, repost, waitForFinalStatus };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payout'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Send money to a bank account or an e-wallet. Safety options: Maximum Amount per Payout, Maximum Total per Run, Dry Run.',
				action: 'Create a payout',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a payout by its reference number',
				action: 'Get a payout',
			},
			{
				name: 'Reconcile',
				value: 'reconcile',
				description:
					'Check rows against the payouts the service holds: status, and any amount, channel or recipient that does not match. Sends nothing that moves money.',
				action: 'Reconcile payouts',
			},
			{
				name: 'Repost Callback',
				value: 'repost',
				description: 'Ask the service to send the callback of a payout again (sandbox only)',
				action: 'Repost a payout callback',
			},
			{
				name: 'Wait for Final Status',
				value: 'waitForFinalStatus',
				description:
					'Look a payout up until it is completed or cancelled, for n8n instances the callback cannot reach',
				action: 'Wait for a payout final status',
			},
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...simplifyProperties({ resource: ['payout'], operation: ['create', 'get'] }),
	...reconcile.description,
	...repost.description,
	...waitForFinalStatus.description,
];
