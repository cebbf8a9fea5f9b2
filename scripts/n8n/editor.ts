// n8n's editor in headless Chromium (playwright-core): sign in, open workflows and nodes, read
// which parameters are shown, take screenshots. Selectors are n8n 2.8's data-test-id attributes.
import fs from 'fs';
import path from 'path';
import type { BrowserType, Locator, Page } from 'playwright-core';
import { assert, waitFor } from './check';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];
// Tall enough that a node's whole parameter list fits without scrolling.
const TALL = { width: 1440, height: 2200 };
// A laptop screen, for pictures of the canvas (it fits the nodes into the window).
const SCREEN = { width: 1440, height: 860 };

export function chromiumMissing(): string | undefined {
	return fs.existsSync(CHROMIUM)
		? undefined
		: `${CHROMIUM} not found: install it (Debian/Ubuntu: apt-get install -y chromium)`;
}

/** A bounding box that must be there: the element is on screen when a picture is taken of it. */
async function boxOf(
	locator: Locator,
	what: string,
): Promise<{ x: number; y: number; width: number; height: number }> {
	const box = await locator.boundingBox();
	assert(box, `${what} is not on screen`);
	return box;
}

export type Editor = Awaited<ReturnType<typeof launchEditor>>;

export async function launchEditor({ baseUrl, imagesDir }: { baseUrl: string; imagesDir: string }) {
	let chromium: BrowserType;
	try {
		({ chromium } = await import('playwright-core'));
	} catch {
		throw new Error('playwright-core is missing: run `npm install` (it is a devDependency)');
	}
	fs.mkdirSync(imagesDir, { recursive: true });
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: CHROMIUM_ARGS,
		headless: true,
	});
	const page: Page = await browser.newPage({ viewport: TALL });
	page.setDefaultTimeout(30000);
	page.on('dialog', (dialog) => dialog.accept()); // "leave with unsaved changes?"
	const ndv = '[data-test-id=ndv]';
	const field = (name: string) => page.locator(`${ndv} [data-test-id="parameter-input-${name}"]`);

	async function shown(names: string[]): Promise<boolean[]> {
		return Promise.all(
			names.map(async (name) => (await field(name).count()) > 0 && field(name).first().isVisible()),
		);
	}
	const describe = async (names: string[]) =>
		(await shown(names)).map((on, i) => `${names[i]}=${on}`).join(' ');

	const editor = {
		page,
		field,

		async signIn({ email, password }: { email: string; password: string }) {
			await page.goto(`${baseUrl}/signin`);
			await page.fill('input[name=emailOrLdapLoginId]', email);
			await page.fill('input[name=password]', password);
			await page.click('[data-test-id=form-submit-button]');
			await page.waitForURL((url) => !url.pathname.includes('signin'));
		},

		/** Opens a workflow; with `screenshot`, in a screen-sized window, and saves a picture of it. */
		async openWorkflow(id: string, screenshot?: string) {
			if (screenshot) await page.setViewportSize(SCREEN);
			await page.goto(`${baseUrl}/workflow/${id}`);
			await page.waitForSelector('[data-test-id=canvas-node]');
			await page.waitForTimeout(500); // the canvas fits the view after the nodes appear
			if (screenshot) {
				await page.screenshot({ path: path.join(imagesDir, screenshot) });
				await page.setViewportSize(TALL);
			}
		},

		/** Types into the node panel's search and returns the node names it lists. */
		async searchNodePanel(
			text: string,
			{ expect, screenshot }: { expect: string; screenshot?: string },
		) {
			await page.setViewportSize(SCREEN);
			await page.click('[data-test-id=node-creator-plus-button]');
			await page.keyboard.type(text);
			const names = page.locator('[data-test-id=node-creator-item-name]');
			await names.filter({ hasText: expect }).first().waitFor();
			const found = (await names.allTextContents()).map((name) => name.trim());
			if (screenshot) {
				await page.screenshot({
					path: path.join(imagesDir, screenshot),
					clip: { x: 1040, y: 60, width: 400, height: 320 },
				});
			}
			await page.keyboard.press('Escape');
			await page.setViewportSize(TALL);
			return found;
		},

		async openNode(name: string) {
			await page.dblclick(`[data-test-id=canvas-node][data-node-name="${name}"]`);
			await page.waitForSelector(`${ndv} [data-test-id=node-parameters]`);
		},

		async closeNode() {
			await page.click('[data-test-id=ndv-close-button]');
			await page.waitForSelector(`${ndv} [data-test-id=node-parameters]`, { state: 'detached' });
		},

		async chooseOption(parameter: string, optionName: string | RegExp) {
			await field(parameter).click();
			await page.getByRole('option', { name: optionName }).click();
			await page.waitForTimeout(400);
		},

		async fill(parameter: string, value: string) {
			await field(parameter).locator('input, textarea').first().fill(value);
		},

		/** What a parameter shows: an input's value, or the text of an expression or a dropdown. */
		async valueOf(parameter: string) {
			const target = field(parameter).first();
			const input = target.locator('input:not([type=hidden]), textarea');
			if ((await input.count()) > 0) return (await input.first().inputValue()).trim();
			return (await target.innerText()).trim();
		},

		/**
		 * Opens a dropdown and returns the option names it lists, then closes it. Options loaded
		 * from the service reload after a parameter they depend on changes: with `until`, the
		 * dropdown is reopened until the names satisfy it (or 15 s pass).
		 */
		async listOptions(
			parameter: string,
			{
				screenshot,
				until = () => true,
			}: { screenshot?: string; until?: (names: string[]) => boolean } = {},
		) {
			const options = page.locator(
				'.el-select-dropdown:visible [role=option], .el-select-dropdown:visible li',
			);
			let names: string[] = [];
			await waitFor(
				async () => {
					await field(parameter).click();
					await waitFor(async () => (await options.count()) > 0, {
						timeoutMs: 5000,
						message: `no options listed for ${parameter}`,
					});
					names = [
						...new Set(
							(await options.allInnerTexts())
								.map((text) => text.split('\n')[0].trim())
								.filter(Boolean),
						),
					];
					if (until(names)) return true;
					await page.keyboard.press('Escape');
					await page.waitForTimeout(500);
					return false;
				},
				{ timeoutMs: 15000, message: `${parameter} lists ${names.join(', ')}` },
			).catch((error: Error) => {
				throw new Error(`${error.message} (${parameter} lists: ${names.join(', ')})`);
			});
			if (screenshot) {
				const box = await boxOf(field(parameter), `the ${parameter} field`);
				const list = await page.locator('.el-select-dropdown:visible').first().boundingBox();
				const bottom = Math.max(box.y + box.height, list ? list.y + list.height : 0);
				const y = box.y - 60;
				await page.screenshot({
					path: path.join(imagesDir, screenshot),
					clip: { x: box.x - 16, y, width: box.width + 32, height: bottom - y + 16 },
				});
			}
			await page.keyboard.press('Escape');
			await page.waitForTimeout(200);
			return names;
		},

		/** The "Add ..." list of a collection parameter, found by its placeholder ("Add Field", "Add Option"). */
		collectionAdder(placeholder: string) {
			const adders = page.locator(`${ndv} [data-test-id=collection-parameter-add]`);
			return adders
				.filter({ hasText: placeholder })
				.or(adders.filter({ has: page.locator(`input[placeholder="${placeholder}"]`) }))
				.first();
		},

		/** Adds an option of a collection parameter by its display name. */
		async addCollectionOption(placeholder: string, optionName: string) {
			await editor.collectionAdder(placeholder).click();
			await page.getByRole('option', { name: optionName, exact: true }).first().click();
			await page.waitForTimeout(400);
		},

		/** The text of a node on the canvas, its name and subtitle. */
		async canvasNodeText(name: string) {
			return page.locator(`[data-test-id=canvas-node][data-node-name="${name}"]`).innerText();
		},

		/** Whether a notice whose text matches is shown in the open node. */
		async noticeShown(pattern: RegExp) {
			const notices = page.locator(
				`${ndv} [data-test-id=node-parameters] .notice, ${ndv} [data-test-id=node-parameters] [role=alert]`,
			);
			const texts = await notices.allInnerTexts();
			return texts.some((text) => pattern.test(text));
		},

		/** Waits (the panel renders progressively) until `visible` are all shown, then checks `hidden` are not. */
		async expectFields(visible: string[], hidden: string[] = []) {
			await waitFor(async () => (await shown(visible)).every(Boolean), { timeoutMs: 10000 }).catch(
				async () => {
					throw new Error(`expected to be shown: ${await describe(visible)}`);
				},
			);
			assert(
				!(await shown(hidden)).some(Boolean),
				`expected to be hidden: ${await describe(hidden)}`,
			);
		},

		/** The trigger's production webhook URL, as the node shows it under "Webhook URLs". */
		async productionWebhookText() {
			await page.click(`${ndv} .webhooks .headline`);
			await page.click(`${ndv} [data-test-id=radio-button-production]`);
			await page.waitForTimeout(400);
			return page.locator(`${ndv} .webhooks`).innerText();
		},

		/**
		 * Runs the open workflow with the canvas's Execute Workflow button and waits until
		 * `lastNode` shows its success mark.
		 */
		async executeWorkflow(lastNode: string) {
			await page.click('[data-test-id=execute-workflow-button]');
			await page
				.locator(
					`[data-test-id=canvas-node][data-node-name="${lastNode}"] [data-test-id=canvas-node-status-success]`,
				)
				.waitFor({ timeout: 60000 });
		},

		/** The open node's output panel, as the user reads it (its table view). */
		outputPanel: () => page.locator(`${ndv} [data-test-id=output-panel]`),

		/** Saves a picture of the open node's output panel, from its header down to its table's end. */
		async screenshotOutput(file: string) {
			await page.setViewportSize(SCREEN);
			// The "Workflow executed successfully" toast would cover the table.
			for (const close of await page.locator('.el-notification__closeBtn').all())
				await close.click();
			await page.waitForTimeout(500);
			const panel = await boxOf(editor.outputPanel(), 'the output panel');
			const table = await boxOf(
				editor.outputPanel().locator('[data-test-id=ndv-data-container] table').first(),
				'the output table',
			);
			const bottom = Math.min(table.y + table.height + 16, panel.y + panel.height);
			await page.screenshot({
				path: path.join(imagesDir, file),
				clip: { ...panel, height: bottom - panel.y },
			});
			await page.setViewportSize(TALL);
		},

		/** Saves the open node's parameter column, from its tabs down to its last parameter. */
		async screenshotNode(file: string) {
			await page.click(`${ndv} [data-test-id=tab-params]`); // closes input hints and drop-downs
			await page.waitForTimeout(300);
			const tabs = await boxOf(
				page.locator(`${ndv} [data-test-id=tab-params]`),
				'the Parameters tab',
			);
			const params = await boxOf(
				page.locator(`${ndv} [data-test-id=node-parameters]`),
				'the node parameters',
			);
			const bottom = await page.$$eval(
				`${ndv} [data-test-id=node-parameters] [data-test-id]`,
				(els) =>
					Math.max(
						...els.filter((el) => el.offsetParent).map((el) => el.getBoundingClientRect().bottom),
					),
			);
			const y = tabs.y - 12;
			const height = Math.min(bottom + 20, params.y + params.height) - y;
			await page.screenshot({
				path: path.join(imagesDir, file),
				clip: { x: params.x - 16, y, width: params.width + 32, height },
			});
		},

		close: () => browser.close(),
	};
	return editor;
}
