import type { SandboxCredentials } from './types';

/**
 * The sandbox's fixed test credentials. Deliberately obvious test values: they are printed by the
 * CLI and used by the demo, and they open nothing but this local fake.
 */
export const SANDBOX_CREDENTIALS: SandboxCredentials = Object.freeze({
	collection: Object.freeze({
		username: 'sandbox-collector',
		password: 'sbx-collect-Pa55w0rd-7f3a',
	}),
	disbursement: Object.freeze({
		username: 'sandbox-disburser',
		password: 'sbx-disburse-Pa55w0rd-2c9e',
	}),
	signingSecret: 'sbx-signing-secret-5d1b8e0a4c7f',
}) as SandboxCredentials;

export function resolveCredentials(
	overrides: Partial<SandboxCredentials> = {},
): SandboxCredentials {
	return {
		collection: { ...SANDBOX_CREDENTIALS.collection, ...overrides.collection },
		disbursement: { ...SANDBOX_CREDENTIALS.disbursement, ...overrides.disbursement },
		signingSecret: overrides.signingSecret ?? SANDBOX_CREDENTIALS.signingSecret,
	};
}
