import type { INodeProperties } from 'n8n-workflow';

import { confirmProperties } from './confirmProperties';

export const properties: INodeProperties[] = [
	{
		displayName:
			"Paste this node's Production URL (under Webhook URLs above) into the Callback Webhook URL field of the Payment Collection or Disbursement node, or send it as callback_webhook_url: the service has no API to register it, so nothing else is needed. The Test URL answers only while the editor waits for a test event.",
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
			{
				name: 'Cancelled',
				value: 'cancelled',
				description: 'Cancelled, failed or expired: no money moved',
			},
			{ name: 'Completed', value: 'completed', description: 'Paid, or payout transferred' },
			{ name: 'Pending', value: 'pending', description: 'Not final yet' },
		],
		default: ['completed', 'cancelled'],
		description:
			'Callbacks with other statuses are answered 200 and start no execution. Completed and Cancelled are final.',
	},
	...confirmProperties,
	{
		displayName: 'Accept Unsigned Callbacks (Unsafe)',
		name: 'acceptUnsignedCallbacks',
		type: 'boolean',
		default: false,
		description:
			'Whether to start the workflow for callbacks that cannot be verified because the chosen credential has no Signing Secret. Off, such callbacks are refused with HTTP 401. On, anyone who knows this URL can start the workflow with a made-up payment or status; if you must, also make sure Confirm With Service is on.',
	},
	{
		displayName:
			'Unsafe: callbacks to a credential without a Signing Secret are accepted WITHOUT verification. Anyone who knows this URL can start this workflow. Add the Signing Secret to the credential and switch this off, or at least make sure Confirm With Service is on.',
		name: 'unsignedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { acceptUnsignedCallbacks: [true] } },
	},
	{
		displayName: 'Allowed IP Addresses',
		name: 'allowedIpAddresses',
		type: 'string',
		default: '',
		placeholder: 'e.g. 18.166.179.109, 18.166.252.124',
		description:
			'Comma-separated addresses or CIDR ranges (e.g. 43.198.4.0/24, ::ffff:43.198.4.7, 2001:db8::/32) callbacks may come from; others get HTTP 403. An entry that is not an address or range stops the workflow from activating. Leave empty to accept any address. Addresses reported for the service: sandbox 43.198.4.7; production 18.166.179.109 and 18.166.252.124 (check them with the service). Behind a reverse proxy, set N8N_PROXY_HOPS.',
	},
];
