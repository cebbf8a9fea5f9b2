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
import { readmeSection } from '../nodes/shared/descriptions/documentation';

export class PaymentCollectionApi implements ICredentialType {
	name = 'paymentCollectionApi';

	displayName = 'Payment Gateway Collection API';

	icon: Icon = { light: 'file:paymentGateway.svg', dark: 'file:paymentGateway.dark.svg' };

	documentationUrl = readmeSection('credentials');

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
