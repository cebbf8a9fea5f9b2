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

export class DisbursementApi implements ICredentialType {
	name = 'disbursementApi';

	displayName = 'Payment Gateway Disbursement API';

	icon: Icon = { light: 'file:paymentGateway.svg', dark: 'file:paymentGateway.dark.svg' };

	// README_URL's Credentials heading: n8n's lint wants the text here (nodes/shared/descriptions/documentation.ts).
	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway#credentials';

	properties: INodeProperties[] = credentialProperties('Disbursement API');

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await obtainToken(this, 'disbursement', credentials);
	}

	authenticate = addBearerToken;

	// n8n runs preAuthentication before a credential test, so this proves both the token and its use.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: ENDPOINTS.getPayouts.path,
			// A documented read-only look-up: answers 200 with an empty list for an unknown reference.
			qs: { reference_no: 'n8n-credential-test' },
		},
	};
}
