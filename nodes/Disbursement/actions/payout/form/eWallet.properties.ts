/**
 * Payout > Create fields of an e-wallet payout (interface document 4.6: `fields.mobile_number`),
 * each declared once, with the channel types that use it.
 */
import { channelFieldMapping, channelFieldProperty, type ChannelField } from './mapping';

const E_WALLET: ChannelField[] = [
	{
		channelTypes: ['eWallet'],
		property: {
			displayName: 'Mobile Number',
			name: 'mobileNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: '09171234567',
			description:
				'Mobile number of the e-wallet that receives the money: 09XXXXXXXXX or +639XXXXXXXXX (spaces and dashes are ignored)',
		},
		path: ['mobile_number'],
		kind: 'mobile',
	},
];

export const eWalletProperties = E_WALLET.map(channelFieldProperty);
export const eWalletMapping = E_WALLET.map(channelFieldMapping);
