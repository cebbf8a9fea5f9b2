import type { INodeProperties } from 'n8n-workflow';

export const properties: INodeProperties[] = [
	{
		displayName:
			'Paste this node\'s Production URL (under Webhook URLs above) into the Callback Webhook URL field of the Payment Collection or Disbursement node, or send it as callback_webhook_url. The service has no API to register it, so nothing else is needed. Use the Test URL only while you click "Listen for test event".',
		name: 'callbackUrlNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Interface',
		name: 'interface',
		type: 'options',
		options: [
			{
				name: 'Both',
				value: 'both',
				description:
					'Payments and payouts; each callback is told apart by the credential whose Signing Secret verifies it, then by its shape',
			},
			{
				name: 'Collection (Payments)',
				value: 'collection',
				description: 'Callbacks of payment links created with the Payment Collection node',
			},
			{
				name: 'Disbursement (Payouts)',
				value: 'disbursement',
				description: 'Callbacks of payouts created with the Disbursement node',
			},
		],
		default: 'collection',
		description:
			'Which callbacks start this workflow; decides which credential is used to verify them',
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: [
			{ name: 'Cancelled', value: 'cancelled', description: 'Cancelled, failed or expired: no money moved' },
			{ name: 'Completed', value: 'completed', description: 'Paid, or payout transferred' },
			{ name: 'Pending', value: 'pending', description: 'Not final yet' },
		],
		default: ['completed', 'cancelled'],
		description:
			'Callbacks with other statuses are answered 200 and start no execution. Completed and Cancelled are final.',
	},
	{
		displayName:
			'Callbacks are verified with the Signing Secret of the chosen credential. If that credential has NO Signing Secret, callbacks are NOT verified: anyone who knows this URL could start this workflow with a fake payment. Add the Signing Secret to the credential, and consider Confirm With Service.',
		name: 'verificationNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Confirm With Service',
		name: 'confirmWithService',
		type: 'boolean',
		default: false,
		description:
			'Whether to look each callback up with the service before starting the workflow. The signature does not cover the status, so this is the only proof that a "completed" is real. A callback whose status the service does not confirm is refused (HTTP 401).',
	},
	{
		displayName: 'Allowed IP Addresses',
		name: 'allowedIpAddresses',
		type: 'string',
		default: '',
		placeholder: 'e.g. 18.166.179.109, 18.166.252.124',
		description:
			'Comma-separated addresses (or IPv4 ranges like 43.198.4.0/24) callbacks may come from; others get HTTP 403. Leave empty to accept any address. Addresses reported for the service: sandbox 43.198.4.7; production 18.166.179.109 and 18.166.252.124 (check them with the service). Behind a reverse proxy, set N8N_PROXY_HOPS.',
	},
];
