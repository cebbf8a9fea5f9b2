/**
 * The channel-type entries of a payout's `fields` object (interface document 4.6): a bank
 * transfer's `fields.bank_code`, `fields.sender`, `fields.receiver`, an e-wallet's
 * `fields.mobile_number`. Each is declared once, with the channel types that use it.
 */
import type { INodeProperties } from 'n8n-workflow';

import { channelFieldMapping, channelFieldProperty, type ChannelField } from './mapping';

type TextOptions = Partial<Omit<ChannelField, 'property' | 'path'>> & { property?: Partial<INodeProperties> };

/** A text field of a bank transfer; `path` is where it lands inside `fields`. */
function text(displayName: string, name: string, path: string[], description: string, extra: TextOptions = {}): ChannelField {
	const { property, ...rest } = extra;
	return {
		channelTypes: ['bankTransfer'],
		property: { displayName, name, type: 'string', default: '', description, ...property },
		path,
		...rest,
	};
}

/**
 * Required ones are assumed: the interface document marks none, and these five are what a bank
 * transfer cannot do without (who pays, which bank, which account).
 */
const required = { property: { required: true } };

const BANK_TRANSFER: ChannelField[] = [
	{
		channelTypes: ['bankTransfer'],
		property: {
			displayName: 'Bank Name or ID',
			name: 'bankCode',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getBanks' },
			required: true,
			default: '',
			description:
				'The receiving bank, sent as bank_code. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		label: 'Bank',
		path: ['bank_code'],
	},
	text('Sender First Name', 'senderFirstName', ['sender', 'first_name'], 'First name of the sender', required),
	text('Sender Middle Name', 'senderMiddleName', ['sender', 'middle_name'], 'Middle name of the sender; left out when empty'),
	text('Sender Last Name', 'senderLastName', ['sender', 'last_name'], 'Last name of the sender', required),
	text('Sender Suffix', 'senderSuffix', ['sender', 'suffix'], 'Suffix of the sender such as Jr. or III; left out when empty'),
	text('Receiver Account Name', 'receiverAccountName', ['receiver', 'account_name'], 'Name on the receiving bank account', required),
	text(
		'Receiver Account Number',
		'receiverAccountNumber',
		['receiver', 'account_number'],
		'Number of the receiving bank account',
		required,
	),
	text(
		'Receiver Type',
		'receiverType',
		['receiver', 'type'],
		'Kind of receiver. INDIVIDUAL is the documented value (used when left empty); enter another value only if the service gave you one.',
		{ property: { default: 'INDIVIDUAL', placeholder: 'INDIVIDUAL' }, kind: 'code', fallback: 'INDIVIDUAL' },
	),
	text(
		'Receiver Mobile Number',
		'receiverMobileNumber',
		['receiver', 'mobile_number'],
		'Philippine mobile number of the receiver, 09XXXXXXXXX or +639XXXXXXXXX; left out when empty',
		{ property: { placeholder: '09171234567' }, kind: 'mobile' },
	),
	text('Receiver Email', 'receiverEmail', ['receiver', 'email'], 'Email address of the receiver; left out when empty', {
		property: { placeholder: 'name@email.com' },
		kind: 'email',
	}),
	text('Receiver Address', 'receiverAddress', ['receiver', 'address'], 'Street address of the receiver; left out when empty'),
	text('Receiver Barangay', 'receiverBarangay', ['receiver', 'barangay'], 'Barangay of the receiver; left out when empty'),
	text('Receiver City', 'receiverCity', ['receiver', 'city'], 'City or municipality of the receiver; left out when empty'),
	text('Receiver Zip Code', 'receiverZipCode', ['receiver', 'zip_code'], 'Zip code of the receiver; left out when empty'),
	text(
		'Receiver Gender',
		'receiverGender',
		['receiver', 'gender'],
		'Gender of the receiver, e.g. MALE (the documented value) or FEMALE; left out when empty',
		{ property: { placeholder: 'MALE' }, kind: 'code' },
	),
];

export const bankTransferProperties = BANK_TRANSFER.map(channelFieldProperty);
export const bankTransferMapping = BANK_TRANSFER.map(channelFieldMapping);

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
