// The checks in real n8n, run by Playwright's test runner: the packed package installed into each
// tested n8n version (its own Node.js, scripts/n8n/targets.ts), queue mode, an AI agent paying out,
// and the editor in Chromium. One worker: each project starts its own n8n, and the machine running
// CI has two cores. `npm run e2e`, `e2e:queue`, `e2e:agent` and `browser-check` each pick projects;
// N8N_VERSIONS=2.8.4 (comma-separated) runs the e2e matrix on other tested versions.
import { defineConfig } from '@playwright/test';
import { TARGETS, targetFor } from '../../scripts/n8n/targets';
import type { N8nTargetOption } from './fixtures';

const versions = (process.env.N8N_VERSIONS ?? '').split(',').filter(Boolean);
// The e2e matrix: the versions named, else the ones CI proves.
const e2eTargets = versions.length ? versions.map(targetFor) : TARGETS.filter((t) => t.ci);

export default defineConfig<N8nTargetOption>({
	testMatch: '**/*.spec.ts',
	globalSetup: './globalSetup.ts',
	workers: 1,
	fullyParallel: false,
	retries: 0,
	// A check may wait for n8n to start, a workflow to finish or callbacks to arrive.
	timeout: 5 * 60_000,
	expect: { timeout: 20_000 },
	reporter: [['list']],
	outputDir: '../../.n8n-test-results',
	projects: [
		...e2eTargets.map((target) => ({
			name: `n8n-${target.n8n}`,
			testDir: './e2e',
			use: { n8nTarget: target },
		})),
		{ name: 'queue', testDir: './queue' },
		{ name: 'agent', testDir: './agent' },
		{
			name: 'browser',
			testDir: './browser',
			// Debian's Chromium (apt-get install -y chromium), not a browser Playwright downloads.
			use: {
				headless: true,
				launchOptions: { executablePath: '/usr/bin/chromium', args: ['--disable-gpu'] },
			},
		},
	],
});
