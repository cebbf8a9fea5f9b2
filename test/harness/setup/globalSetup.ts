/**
 * One temporary root for the n8n user folders of all test files, so the teardown can remove them
 * all. Workers inherit this process's environment, so `env.ts` finds the root there.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

export default function globalSetup(): void {
	process.env.N8N_PG_TEST_ROOT = mkdtempSync(join(tmpdir(), 'n8n-pg-tests-'));
}
