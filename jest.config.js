/**
 * Two tiers, told apart by the file name. A module's own tests sit at the path mirroring it:
 * nodes/shared/X/Y.ts is tested by test/shared/X/Y.test.ts and, where that needs n8n's engine or
 * the sandbox gateway, by test/shared/X/Y.engine.test.ts (docs/DEVELOPMENT.md, "Where a new test
 * goes"). `unit`: the `.test.ts` files of test/shared/ that are not `.engine.test.ts`: no network
 * and no n8n engine, a few seconds (`npm run test:unit`). `engine`: every other test under test/,
 * the `.engine.test.ts` files of test/shared/ and the scenario folders: the nodes in n8n's engine
 * against the sandbox gateway over HTTP on 127.0.0.1. `npm test` runs both.
 * @type {import('jest').Config}
 */
/** The engine tier's files among a module's own tests. */
const ENGINE_TIER = '\\.engine\\.test\\.ts$';
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
			testPathIgnorePatterns: [ENGINE_TIER],
			transform: typescript,
		},
		{
			displayName: 'engine',
			testEnvironment: 'node',
			roots: ['<rootDir>/test'],
			// Not the unit tier's files of test/shared/; not test/n8n, the checks in real n8n run by
			// Playwright (test/n8n/playwright.config.ts).
			testPathIgnorePatterns: [
				'<rootDir>/test/shared/.*(?<!\\.engine)\\.test\\.ts$',
				'<rootDir>/test/n8n/',
			],
			transform: typescript,
			setupFiles: ['<rootDir>/test/harness/setup/env.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/harness/setup/afterEnv.ts'],
		},
	],
};
