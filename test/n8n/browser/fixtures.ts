// What the browser checks run on: the demo set-up (scripts/n8n/demoSetup.ts) in its own temporary
// user folder, since n8n saves edits made in the editor automatically and the checks below must
// never touch a real or demo workflow, and one signed-in editor page the checks of a file share.
// Chromium is Debian's (playwright.config.ts names it), Playwright's `browser` fixture launches it.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { test as base, expect } from '../fixtures';
import { startDemoSetup, DEMO_OWNER, type Demo } from '../../../scripts/n8n/demoSetup';
import { freePort } from '../../../scripts/n8n/proc';
import { Editor, TALL, signIn } from './editor';

interface BrowserWorkerFixtures {
	chromiumInstalled: void;
	demo: Demo & { failed: boolean };
	editor: Editor;
}

export const test = base.extend<{ logsOnFailure: void }, BrowserWorkerFixtures>({
	chromiumInstalled: [
		async ({ launchOptions }, use) => {
			const chromium = launchOptions.executablePath;
			if (chromium && !fs.existsSync(chromium))
				throw new Error(
					`${chromium} not found: install it (Debian/Ubuntu: apt-get install -y chromium)`,
				);
			await use();
		},
		{ scope: 'worker', auto: true },
	],

	demo: [
		async ({}, use) => {
			const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-browser-'));
			// Payouts stay pending for the whole check, so the reconciled statuses are known.
			const demo = await startDemoSetup({
				userFolder,
				n8nPort: await freePort(5800),
				sandboxPort: 0,
				payoutAutoSettleMs: 10 * 60 * 1000,
			});
			const state = Object.assign(demo, { failed: false });
			try {
				await use(state);
			} finally {
				await demo.stop();
				if (state.failed || process.env.KEEP_E2E_FOLDER)
					console.log(`n8n user folder kept for inspection: ${userFolder}`);
				else fs.rmSync(userFolder, { recursive: true, force: true });
			}
		},
		{ scope: 'worker', timeout: 10 * 60_000 },
	],

	editor: [
		async ({ browser, demo }, use) => {
			const page = await browser.newPage({ viewport: TALL });
			page.setDefaultTimeout(30_000);
			page.on('dialog', (dialog) => dialog.accept()); // "leave with unsaved changes?"
			await signIn(page, demo.server.url, DEMO_OWNER);
			await use(new Editor(page, demo.server.url));
			await page.context().close();
		},
		{ scope: 'worker' },
	],

	// A failed check points at n8n's log and user folder, with a picture of the editor.
	logsOnFailure: [
		async ({ demo, editor }, use, testInfo) => {
			await use();
			if (testInfo.status === testInfo.expectedStatus) return;
			demo.failed = true;
			testInfo.annotations.push({ type: 'n8n user folder', description: demo.instance.userFolder });
			await testInfo.attach('n8n log', { path: demo.server.logFile, contentType: 'text/plain' });
			await testInfo.attach('editor', {
				body: await editor.page.screenshot(),
				contentType: 'image/png',
			});
		},
		{ auto: true },
	],
});

export { expect };
