/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testTimeout: 30000,
	transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true }] },
	setupFiles: ['<rootDir>/test/setup/env.ts'],
	globalSetup: '<rootDir>/test/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
	// n8n-core 2.8 leaves an SSH client manager interval running after the last workflow.
	forceExit: true,
};
