import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { credentialProperties } from '../nodes/shared/descriptions/credentialProperties';
import { ENDPOINTS } from '../nodes/shared/transport/endpoints';
import { addBearerToken, obtainToken } from '../nodes/shared/transport/token';

export class PaymentCollectionApi implements ICredentialType {
	name = 'paymentCollectionApi';

	displayName = 'Payment Gateway Collection API';

	icon: Icon = { light: 'file:paymentGateway.svg', dark: 'file:paymentGateway.dark.svg' };

	// README_URL's Credentials heading: n8n's lint wants the text here (nodes/shared/descriptions/documentation.ts).
	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway#credentials';

	properties: INodeProperties[] = credentialProperties('Payments API');

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await obtainToken(this, 'collection', credentials);
	}

	authenticate = addBearerToken;

	// n8n runs preAuthentication before a credential test, so this proves both the token and its use.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: ENDPOINTS.getCollectionTransactions.path,
			// A documented read-only look-up: answers 200 with an empty list for an unknown reference.
			qs: { reference_no: 'n8n-credential-test' },
		},
	};
}
