import type { INodeProperties } from 'n8n-workflow';

/** The fields both credentials share; only the wording of the service's name differs. */
export function credentialProperties(serviceLabel: string): INodeProperties[] {
	return [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Sandbox', value: 'sandbox', description: 'Test credentials; no real money moves' },
				{
					name: 'Production',
					value: 'production',
					description: 'Live credentials; real money moves',
				},
			],
			default: 'sandbox',
			description:
				'Which environment these credentials belong to. Some operations (Repost Callback) are allowed in sandbox only.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: `The ${serviceLabel} host given to you with your credentials, without a trailing path`,
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The signature key issued with your merchant credentials. The Payment Gateway Trigger needs it to verify that callbacks really come from the service, and cannot be activated (published) without it unless its Accept Unsigned Callbacks (Unsafe) is on. Payout > Prepare and Payout > Confirm sign approvals with it and refuse without it; other operations do not use it.',
		},
		{
			// Filled by preAuthentication and stored encrypted by n8n; refetched when empty or after a 401.
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];
}

/**
 * The Payout Ledger credential's picker on a node, named alike on every node: the credential is
 * optional, and the label says what this node uses it for.
 */
export function ledgerPicker(purpose: string): string {
	return `Payout Ledger (Optional: ${purpose})`;
}
