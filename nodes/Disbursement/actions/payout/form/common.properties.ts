/** Payout > Create fields every channel type uses. */
import type { INodeProperties } from 'n8n-workflow';

import {
	amountProperty,
	callbackMissingNotice,
	callbackWebhookUrlProperty,
	newReferenceNoProperty,
} from '../../../../shared/descriptions/properties';
import { manualOnly } from '../../../../shared/descriptions/columnMapping';
import { payoutMappingProperties } from './columns';

const show = { resource: ['payout'], operation: ['create'] };

export const commonPayoutProperties: INodeProperties[] = [
	{
		displayName:
			'Money moves when this node runs. An AI agent using it as a tool should run with "Maximum Amount per Payout" and "Maximum Total per Run" set in Options, so a payout or a run above them is refused before anything is sent. "Dry Run" checks a sheet without paying.',
		name: 'agentNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Channel Type',
		name: 'channelType',
		type: 'options',
		options: [
			{
				name: 'Bank Transfer',
				value: 'bankTransfer',
				description: 'Send to a bank account (for example over InstaPay or PESONet)',
			},
			{
				name: 'E-Wallet',
				value: 'eWallet',
				description: 'Send to an e-wallet identified by a mobile number (for example GCash or Maya)',
			},
		],
		default: 'bankTransfer',
		description: 'Decides which recipient fields the payout needs',
		displayOptions: { show },
	},
	{
		displayName: 'Channel Name or ID',
		name: 'channel',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getPayoutChannels', loadOptionsDependsOn: ['channelType'] },
		required: true,
		default: '',
		description:
			'The payout channel, from the service\'s list; those of the Channel Type above come first (e.g. InstaPay for a bank transfer, GCash for an e-wallet). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show },
	},
	...payoutMappingProperties,
	manualOnly(amountProperty(show)),
	manualOnly(newReferenceNoProperty(show, 'payout', 'e.g. PAYOUT-2026-0001')),
	callbackWebhookUrlProperty(show, 'payout'),
	callbackMissingNotice(show, 'payout'),
];
