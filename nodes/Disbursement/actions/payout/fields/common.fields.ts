/** Payout > Create fields every channel type uses. */
import type { INodeProperties } from 'n8n-workflow';

const show = { resource: ['payout'], operation: ['create'] };

export const commonPayoutFields: INodeProperties[] = [
	{
		displayName:
			'Money moves when this node runs. An AI agent using it as a tool should run with "Maximum Amount per Payout" set in Options, so a payout above that amount is refused before it is sent.',
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
		displayName: 'Channel',
		name: 'channel',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. INSTAPAY',
		description:
			'The payout channel code given by the service, e.g. INSTAPAY or PESONET for a bank transfer, GCASH or PAYMAYA for an e-wallet. Pick the matching Channel Type above.',
		displayOptions: { show },
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		typeOptions: { minValue: 0.01, maxValue: 50000, numberPrecision: 2 },
		required: true,
		default: 0,
		description:
			'Amount in Philippine pesos, from 0.01 to 50,000. Spreadsheet text such as "1,250.50" is accepted.',
		displayOptions: { show },
	},
	{
		displayName: 'Reference No',
		name: 'referenceNo',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. PAYOUT-2026-0001',
		description:
			'Your unique reference for this payout, sent as reference_no. It is the idempotency key: map a stable value such as an invoice or payout ID (never a random or time-based value), so running the workflow again never pays twice. Letters, digits, "-" and "_", at most 64 characters.',
		displayOptions: { show },
	},
	{
		displayName: 'Callback Webhook URL',
		name: 'callbackWebhookUrl',
		type: 'string',
		default: '',
		placeholder: 'https://your-n8n.example.com/webhook/...',
		description:
			'Where the service sends the final status of the payout. Paste the production URL of a Payment Gateway Trigger node here.',
		displayOptions: { show },
	},
];
