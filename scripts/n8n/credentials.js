'use strict';
// The two credentials the examples use, pointed at a sandbox gateway. Their ids and names are the
// ones the example workflows reference, so importing both makes the examples run as they are.
const DEMO_CREDENTIALS = {
	collection: { id: 'pgwSandboxCollect', name: 'Payment Gateway Collection (sandbox)', type: 'paymentCollectionApi' },
	disbursement: { id: 'pgwSandboxPayouts', name: 'Payment Gateway Disbursement (sandbox)', type: 'disbursementApi' },
};

/** [{ id, name, type, data }] for `n8n import:credentials`. */
function sandboxCredentials(sandboxUrl, SANDBOX_CREDENTIALS) {
	const data = (login) => ({
		environment: 'sandbox',
		baseUrl: sandboxUrl,
		username: login.username,
		password: login.password,
		signingSecret: SANDBOX_CREDENTIALS.signingSecret,
	});
	return [
		{ ...DEMO_CREDENTIALS.collection, data: data(SANDBOX_CREDENTIALS.collection) },
		{ ...DEMO_CREDENTIALS.disbursement, data: data(SANDBOX_CREDENTIALS.disbursement) },
	];
}

module.exports = { DEMO_CREDENTIALS, sandboxCredentials };
