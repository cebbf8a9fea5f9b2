// The credentials the examples use, pointed at a sandbox gateway and the demo model. Their ids and
// names are the ones the example workflows reference, so importing them makes the examples run.
import type { SandboxCredentials } from '../../sandbox';
import { DEMO_MODEL_NAME } from './demoModel';

export interface CredentialRef {
	id: string;
	name: string;
	type: string;
}

/** A credential as `n8n import:credentials` takes it: plain `data`, encrypted by n8n on import. */
export interface ImportedCredential extends CredentialRef {
	data: Record<string, string>;
}

export const DEMO_CREDENTIALS = {
	collection: {
		id: 'pgwSandboxCollect',
		name: 'Payment Gateway Collection (sandbox)',
		type: 'paymentCollectionApi',
	},
	disbursement: {
		id: 'pgwSandboxPayouts',
		name: 'Payment Gateway Disbursement (sandbox)',
		type: 'disbursementApi',
	},
	model: { id: 'pgwDemoModel', name: DEMO_MODEL_NAME, type: 'openAiApi' },
	batchWebhook: {
		id: 'pgwBatchWebhook',
		name: 'Batch webhook secret (demo)',
		type: 'httpHeaderAuth',
	},
} satisfies Record<string, CredentialRef>;

/**
 * The header example 09's batch webhook requires and its batch requests send (n8n's Header Auth
 * credential). A public value, like the sandbox's logins: the demo's n8n listens on 127.0.0.1 only;
 * a real workflow gets a long random value of its own.
 */
export const BATCH_WEBHOOK_HEADER = {
	name: 'X-Batch-Secret',
	value: 'demo-batch-secret-not-for-production',
};

/** The demo model's credential: n8n's OpenAI credential pointed at the script (no key needed). */
export function demoModelCredential(baseUrl: string): ImportedCredential {
	return { ...DEMO_CREDENTIALS.model, data: { apiKey: 'no-key-needed', url: baseUrl } };
}

/** [{ id, name, type, data }] for `n8n import:credentials`: the sandbox's two. */
export function sandboxCredentials(
	sandboxUrl: string,
	SANDBOX_CREDENTIALS: SandboxCredentials,
): ImportedCredential[] {
	const data = (login: { username: string; password: string }) => ({
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

/** Every credential the example workflows use: the sandbox's two and example 09's webhook secret. */
export function exampleCredentials(
	sandboxUrl: string,
	SANDBOX_CREDENTIALS: SandboxCredentials,
): ImportedCredential[] {
	return [
		...sandboxCredentials(sandboxUrl, SANDBOX_CREDENTIALS),
		{ ...DEMO_CREDENTIALS.batchWebhook, data: BATCH_WEBHOOK_HEADER },
	];
}
