import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

/**
 * Where Maximum Total per Day keeps the day's payouts, and the Payment Gateway Trigger its claims of
 * deliveries: an n8n Data Table, reached through n8n's public API with an API key, so every
 * execution, queue-mode worker or webhook process and restart reads one ledger (docs/agent.md, "A
 * total per day"; docs/trigger.md, "Several webhook processes: claims in the ledger").
 */
export class PaymentGatewayLedgerApi implements ICredentialType {
	name = 'paymentGatewayLedgerApi';

	displayName = 'Payment Gateway Payout Ledger API';

	icon: Icon = { light: 'file:paymentGateway.svg', dark: 'file:paymentGateway.dark.svg' };

	// README_URL's Credentials heading: n8n's lint wants the text here (nodes/shared/descriptions/documentation.ts).
	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'n8n API URL',
			name: 'apiUrl',
			type: 'string',
			default: 'http://localhost:5678/api/v1',
			required: true,
			placeholder: 'https://n8n.example.com/api/v1',
			description:
				"Your n8n instance's public API, ending in /api/v1 (n8n 2.7 or later: older versions have no Data Table API)",
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'An n8n API key (Settings > n8n API) with the scopes dataTableRow:read, dataTableRow:create, dataTableRow:update and dataTableRow:delete',
		},
		{
			displayName: 'Data Table ID',
			name: 'dataTableId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'ozrHEVZ510Houlnh',
			description:
				"The ID of the Data Table that keeps the ledger (the last part of the table's URL). Its columns: day, scope and reference (text), centavos (number), state (text). Payouts and the trigger's claims can share one table.",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'X-N8N-API-KEY': '={{$credentials.apiKey}}' } },
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.apiUrl}}',
			url: '=/data-tables/{{$credentials.dataTableId}}/rows',
			qs: { limit: 1 },
		},
	};
}
