/**
 * Payout > Create fields of an e-wallet payout (interface document 4.6: `fields.mobile_number`),
 * shown only when Channel Type is E-Wallet.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { FieldMapping } from './mapping';

const show = { resource: ['payout'], operation: ['create'], channelType: ['eWallet'] };

export const eWalletFields: INodeProperties[] = [
	{
		displayName: 'Mobile Number',
		name: 'mobileNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: '09171234567',
		description:
			'Mobile number of the e-wallet that receives the money: 09XXXXXXXXX or +639XXXXXXXXX (spaces and dashes are ignored)',
		displayOptions: { show },
	},
];

export const eWalletMapping: FieldMapping[] = [
	{ param: 'mobileNumber', label: 'Mobile Number', path: ['mobile_number'], required: true, kind: 'mobile' },
];
