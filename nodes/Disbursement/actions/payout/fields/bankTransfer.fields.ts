/**
 * Payout > Create fields of a bank transfer (interface document 4.6: `fields.bank_code`,
 * `fields.sender`, `fields.receiver`), shown only when Channel Type is Bank Transfer.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { FieldMapping } from './mapping';

const show = { resource: ['payout'], operation: ['create'], channelType: ['bankTransfer'] };

function text(
	displayName: string,
	name: string,
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return { displayName, name, type: 'string', default: '', description, displayOptions: { show }, ...extra };
}

export const bankTransferFields: INodeProperties[] = [
	{
		displayName: 'Bank Name or ID',
		name: 'bankCode',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getBanks' },
		required: true,
		default: '',
		description:
			'The receiving bank, sent as bank_code. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show },
	},
	text('Sender First Name', 'senderFirstName', 'First name of the sender', { required: true }),
	text('Sender Middle Name', 'senderMiddleName', 'Middle name of the sender; left out when empty'),
	text('Sender Last Name', 'senderLastName', 'Last name of the sender', { required: true }),
	text('Sender Suffix', 'senderSuffix', 'Suffix of the sender such as Jr. or III; left out when empty'),
	text('Receiver Account Name', 'receiverAccountName', 'Name on the receiving bank account', {
		required: true,
	}),
	text('Receiver Account Number', 'receiverAccountNumber', 'Number of the receiving bank account', {
		required: true,
	}),
	text(
		'Receiver Type',
		'receiverType',
		'Kind of receiver. INDIVIDUAL is the documented value (used when left empty); enter another value only if the service gave you one.',
		{ default: 'INDIVIDUAL', placeholder: 'INDIVIDUAL' },
	),
	text(
		'Receiver Mobile Number',
		'receiverMobileNumber',
		'Philippine mobile number of the receiver, 09XXXXXXXXX or +639XXXXXXXXX; left out when empty',
		{ placeholder: '09171234567' },
	),
	text('Receiver Email', 'receiverEmail', 'Email address of the receiver; left out when empty', {
		placeholder: 'name@email.com',
	}),
	text('Receiver Address', 'receiverAddress', 'Street address of the receiver; left out when empty'),
	text('Receiver Barangay', 'receiverBarangay', 'Barangay of the receiver; left out when empty'),
	text('Receiver City', 'receiverCity', 'City or municipality of the receiver; left out when empty'),
	text('Receiver Zip Code', 'receiverZipCode', 'Zip code of the receiver; left out when empty'),
	text(
		'Receiver Gender',
		'receiverGender',
		'Gender of the receiver, e.g. MALE (the documented value) or FEMALE; left out when empty',
		{ placeholder: 'MALE' },
	),
];

/**
 * How each field lands in the body. Required ones are assumed: the interface document marks none,
 * and these five are what a bank transfer cannot do without (who pays, which bank, which account).
 */
export const bankTransferMapping: FieldMapping[] = [
	{ param: 'bankCode', label: 'Bank', path: ['bank_code'], required: true },
	{ param: 'senderFirstName', label: 'Sender First Name', path: ['sender', 'first_name'], required: true },
	{ param: 'senderMiddleName', label: 'Sender Middle Name', path: ['sender', 'middle_name'] },
	{ param: 'senderLastName', label: 'Sender Last Name', path: ['sender', 'last_name'], required: true },
	{ param: 'senderSuffix', label: 'Sender Suffix', path: ['sender', 'suffix'] },
	{ param: 'receiverAccountName', label: 'Receiver Account Name', path: ['receiver', 'account_name'], required: true },
	{
		param: 'receiverAccountNumber',
		label: 'Receiver Account Number',
		path: ['receiver', 'account_number'],
		required: true,
	},
	{ param: 'receiverType', label: 'Receiver Type', path: ['receiver', 'type'], kind: 'code', fallback: 'INDIVIDUAL' },
	{ param: 'receiverMobileNumber', label: 'Receiver Mobile Number', path: ['receiver', 'mobile_number'], kind: 'mobile' },
	{ param: 'receiverEmail', label: 'Receiver Email', path: ['receiver', 'email'], kind: 'email' },
	{ param: 'receiverAddress', label: 'Receiver Address', path: ['receiver', 'address'] },
	{ param: 'receiverBarangay', label: 'Receiver Barangay', path: ['receiver', 'barangay'] },
	{ param: 'receiverCity', label: 'Receiver City', path: ['receiver', 'city'] },
	{ param: 'receiverZipCode', label: 'Receiver Zip Code', path: ['receiver', 'zip_code'] },
	{ param: 'receiverGender', label: 'Receiver Gender', path: ['receiver', 'gender'], kind: 'code' },
];
