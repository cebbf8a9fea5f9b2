import type { INodeProperties } from 'n8n-workflow';

import { simplifyProperties } from '../../../shared/descriptions/simplify';

import * as confirm from './confirm.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as prepare from './prepare.operation';
import * as reconcile from './reconcile.operation';
import * as repost from './repost.operation';
import * as waitForFinalStatus from './waitForFinalStatus.operation';

export { confirm, create, get, prepare, reconcile, repost, waitForFinalStatus };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payout'] } },
		options: [
			{
				name: 'Confirm',
				value: 'confirm',
				description:
					'Send exactly the payout an approval token of Prepare covers, once; a changed, expired or foreign token is refused. As an AI tool it refuses unless Maximum per Payout is set, and pays only Allowed Recipients when set. Put it behind human review.',
				action: 'Confirm a prepared payout',
			},
			{
				name: 'Create',
				value: 'create',
				description:
					'Send money to a bank account or an e-wallet. Mode "Check Only" checks every row and pays nothing; safety options: Maximum per Payout, Maximum Total per Run, Maximum Total per Day, Allowed Recipients. As an AI tool it refuses unless Maximum per Payout is set: prefer Prepare and Confirm.',
				action: 'Create a payout',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a payout by its reference number',
				action: 'Get a payout',
			},
			{
				name: 'Prepare',
				value: 'prepare',
				description:
					'Check a payout as Create does and send nothing: returns a summary for a person and an approval token (valid 15 minutes by default) that Confirm needs',
				action: 'Prepare a payout for approval',
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
	...prepare.description,
	...confirm.description,
	...get.description,
	...simplifyProperties({ resource: ['payout'], operation: ['create', 'get', 'confirm'] }),
	...reconcile.description,
	...repost.description,
	...waitForFinalStatus.description,
];
