// What every project's tests share: the n8n version a project runs on (playwright.config.ts sets it
// per e2e project). Each folder extends `test` with the fixtures its checks need.
import { test as base } from '@playwright/test';
import { newestTarget, type Target } from '../../scripts/n8n/targets';

export interface N8nTargetOption {
	n8nTarget: Target;
}

export const test = base.extend<object, N8nTargetOption>({
	n8nTarget: [newestTarget(), { option: true, scope: 'worker' }],
});

export { expect } from '@playwright/test';
