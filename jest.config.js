/**
 * Two tiers. `unit`: the shared modules' own tests in test/shared/, each at the path mirroring its
 * module under nodes/shared/ (validation, records, recipients, approval tokens, Allowed Recipients,
 * pacing, run stops): no network and no n8n engine, a few seconds (`npm run test:unit`). `engine`:
 * the nodes in n8n's engine against the sandbox gateway over HTTP on 127.0.0.1. `npm test` runs both.
 * @type {import('jest').Config}
 */
const typescript = { '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true } }] };

module.exports = {
	testTimeout: 30000,
	globalSetup: '<rootDir>/test/harness/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/test/harness/setup/globalTeardown.ts',
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			roots: ['<rootDir>/test/shared'],
			transform: typescript,
		},
		{
			displayName: 'engine',
			testEnvironment: 'node',
			roots: ['<rootDir>/test'],
			// test/n8n holds the checks in real n8n, run by Playwright (test/n8n/playwright.config.ts).
			testPathIgnorePatterns: ['<rootDir>/test/shared/', '<rootDir>/test/n8n/'],
			transform: typescript,
			setupFiles: ['<rootDir>/test/harness/setup/env.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/harness/setup/afterEnv.ts'],
		},
	],
};
