// n8n's editor as the browser checks drive it: open workflows and nodes, find parameters, read
// dropdowns, take screenshots into docs/images/. Selectors are n8n 2.x's data-test-id attributes.
import path from 'path';
import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';
import { IMAGES_DIR } from '../../../scripts/n8n/paths';
import type { Owner } from '../../../scripts/n8n/rest';

// Tall enough that a node's whole parameter list fits without scrolling.
export const TALL = { width: 1440, height: 2200 };
// A laptop screen, for pictures of the canvas (it fits the nodes into the window).
const SCREEN = { width: 1440, height: 860 };
const NDV = '[data-test-id=ndv]';

export async function signIn(page: Page, baseUrl: string, { email, password }: Owner) {
	await page.goto(`${baseUrl}/signin`);
	await page.fill('input[name=emailOrLdapLoginId]', email);
	await page.fill('input[name=password]', password);
	await page.click('[data-test-id=form-submit-button]');
	await expect(page, 'still on the sign-in page').not.toHaveURL(/signin/);
}

/** Where an element is: it must be on screen when a picture is taken of it. */
async function boxOf(locator: Locator, what: string) {
	const box = await locator.boundingBox();
	expect(box, `${what} is not on screen`).not.toBeNull();
	return box!;
}

export class Editor {
	constructor(
		readonly page: Page,
		private readonly baseUrl: string,
	) {}

	field(name: string): Locator {
		return this.page.locator(`${NDV} [data-test-id="parameter-input-${name}"]`).first();
	}

	/** The options of the open dropdown (the one closing before may still be on screen). */
	get options(): Locator {
		return this.page.locator('.el-select-dropdown').getByRole('option');
	}

	canvasNode(name: string): Locator {
		return this.page.locator(`[data-test-id=canvas-node][data-node-name="${name}"]`);
	}

	/** The open node's output panel, as the user reads it (its table view). */
	get outputPanel(): Locator {
		return this.page.locator(`${NDV} [data-test-id=output-panel]`);
	}

	/** A notice in the open node whose text matches. */
	notice(pattern: RegExp): Locator {
		return this.page
			.locator(`${NDV} [data-test-id=node-parameters]`)
			.locator('.notice, [role=alert]')
			.filter({ hasText: pattern })
			.first();
	}

	/** The "Add ..." list of a collection parameter, found by its placeholder ("Add Field"). */
	collectionAdder(placeholder: string): Locator {
		const adders = this.page.locator(`${NDV} [data-test-id=collection-parameter-add]`);
		return adders
			.filter({ hasText: placeholder })
			.or(adders.filter({ has: this.page.locator(`input[placeholder="${placeholder}"]`) }))
			.first();
	}

	private async picture(
		file: string,
		clip?: { x: number; y: number; width: number; height: number },
	) {
		await this.page.screenshot({ path: path.join(IMAGES_DIR, file), clip, animations: 'disabled' });
	}

	/** Opens a workflow; with `screenshot`, in a screen-sized window, and saves a picture of it. */
	async openWorkflow(id: string, screenshot?: string) {
		if (screenshot) await this.page.setViewportSize(SCREEN);
		await this.page.goto(`${this.baseUrl}/workflow/${id}`);
		await expect(this.page.locator('[data-test-id=canvas-node]').first()).toBeVisible();
		await this.page.waitForTimeout(500); // the canvas fits the view after the nodes appear
		if (screenshot) {
			await this.picture(screenshot);
			await this.page.setViewportSize(TALL);
		}
	}

	/** Saves a picture of the canvas as it is now, in a screen-sized window. */
	async screenshotCanvas(file: string) {
		await this.page.setViewportSize(SCREEN);
		await this.page.waitForTimeout(500); // the canvas fits the view after a resize
		await this.picture(file);
		await this.page.setViewportSize(TALL);
	}

	/** Types into the node panel's search; resolves with the names it lists, once `expected` are. */
	async searchNodePanel(text: string, expected: string[], screenshot?: string) {
		await this.page.setViewportSize(SCREEN);
		await this.page.click('[data-test-id=node-creator-plus-button]');
		await this.page.keyboard.type(text);
		const names = this.page.locator('[data-test-id=node-creator-item-name]');
		await expect
			.poll(async () => (await names.allTextContents()).map((name) => name.trim()), {
				message: `the node panel lists ${expected.join(', ')}`,
			})
			.toEqual(expect.arrayContaining(expected));
		if (screenshot) await this.picture(screenshot, { x: 1040, y: 60, width: 400, height: 320 });
		await this.page.keyboard.press('Escape');
		await this.page.setViewportSize(TALL);
	}

	async openNode(name: string) {
		await this.canvasNode(name).dblclick();
		await expect(this.page.locator(`${NDV} [data-test-id=node-parameters]`)).toBeVisible();
	}

	async closeNode() {
		await this.page.click('[data-test-id=ndv-close-button]');
		await expect(this.page.locator(`${NDV} [data-test-id=node-parameters]`)).toBeHidden();
	}

	async chooseOption(parameter: string, optionName: string | RegExp) {
		await this.field(parameter).click();
		await this.page.getByRole('option', { name: optionName }).first().click();
		await expect(this.options, `the ${parameter} list closes`).toHaveCount(0);
	}

	async fill(parameter: string, value: string) {
		await this.field(parameter).locator('input, textarea').first().fill(value);
	}

	/** What a parameter shows: an input's value, or the text of an expression or a dropdown. */
	async valueOf(parameter: string) {
		const input = this.field(parameter).locator('input:not([type=hidden]), textarea');
		if ((await input.count()) > 0) return (await input.first().inputValue()).trim();
		return (await this.field(parameter).innerText()).trim();
	}

	/** The option names the open dropdown lists (the first line of each). */
	async optionNames() {
		const texts = await this.options.allInnerTexts();
		return [...new Set(texts.map((text) => text.split('\n')[0].trim()).filter(Boolean))];
	}

	/** Closes the open dropdown, if one is (Escape would otherwise close the node). */
	async closeDropdown(what: string) {
		if ((await this.options.count()) === 0) return;
		await this.page.keyboard.press('Escape');
		await expect(this.options, `the ${what} list closes`).toHaveCount(0);
	}

	/**
	 * Opens a dropdown and checks the names it lists with `check`; until that passes, the dropdown
	 * is closed and opened again: options loaded from the service reload after a parameter they
	 * depend on changes. Resolves with the names; the dropdown is closed again.
	 */
	async listOptions(
		parameter: string,
		check: (names: string[]) => void = () => {},
		screenshot?: string,
	) {
		let names: string[] = [];
		await expect(async () => {
			await this.closeDropdown(parameter);
			await this.field(parameter).click();
			await expect(this.options.first(), `${parameter} lists options`).toBeVisible({
				timeout: 5000,
			});
			names = await this.optionNames();
			check(names);
		}).toPass({ timeout: 30_000 });
		if (screenshot) {
			const dropdown = this.page.locator('.el-select-dropdown:visible').first();
			// A trial hover waits until the list stands still: it opens with an animation.
			await dropdown.hover({ trial: true });
			const box = await boxOf(this.field(parameter), `the ${parameter} field`);
			const list = await boxOf(dropdown, `the ${parameter} list`);
			const y = box.y - 60;
			const bottom = Math.max(box.y + box.height, list.y + list.height);
			await this.picture(screenshot, {
				x: box.x - 16,
				y,
				width: box.width + 32,
				height: bottom - y + 16,
			});
		}
		await this.closeDropdown(parameter);
		return names;
	}

	/** Adds an option of a collection parameter by its display name. */
	async addCollectionOption(placeholder: string, optionName: string) {
		await this.collectionAdder(placeholder).click();
		await this.page.getByRole('option', { name: optionName, exact: true }).first().click();
		await expect(this.options, `the ${placeholder} list closes`).toHaveCount(0);
	}

	/**
	 * The parameter labels the open node shows, and those the panel cuts with an ellipsis (an
	 * element styled to ellipsize whose text is wider than its box).
	 */
	async parameterLabels(): Promise<{ shown: string[]; cut: string[] }> {
		return this.page
			.locator(`${NDV} [data-test-id=node-parameters] [data-test-id=input-label]`)
			.evaluateAll((labels) => {
				const shown: string[] = [];
				const cut: string[] = [];
				for (const label of labels) {
					if (!label.offsetParent) continue;
					// The label's title, without the hover actions drawn beside it ("Fixed", "Expression").
					const title = label.querySelector('[class*="_title_"]') ?? label;
					const text = (title.textContent ?? '').trim();
					shown.push(text);
					const boxes = [label, ...Array.from(label.querySelectorAll('*'))];
					const ellipsized = boxes.some(
						(box) =>
							label.ownerDocument.defaultView?.getComputedStyle(box).textOverflow === 'ellipsis' &&
							box.scrollWidth > box.clientWidth + 1,
					);
					if (ellipsized) cut.push(text);
				}
				return { shown, cut };
			});
	}

	/** Shows the trigger's production webhook URL: resolves with the "Webhook URLs" section. */
	async productionWebhooks() {
		await this.page.click(`${NDV} .webhooks .headline`);
		await this.page.click(`${NDV} [data-test-id=radio-button-production]`);
		return this.page.locator(`${NDV} .webhooks`);
	}

	/** Waits (the panel renders progressively) until `visible` are all shown and `hidden` not. */
	async expectFields(visible: string[], hidden: string[] = []) {
		for (const name of visible) await expect(this.field(name), `${name} shown`).toBeVisible();
		for (const name of hidden) await expect(this.field(name), `${name} hidden`).toBeHidden();
	}

	/** Runs the open workflow and waits until `lastNode` shows its success mark. */
	async executeWorkflow(lastNode: string) {
		await this.page.click('[data-test-id=execute-workflow-button]');
		await expect(
			this.canvasNode(lastNode).locator('[data-test-id=canvas-node-status-success]'),
			`${lastNode} succeeded`,
		).toBeVisible({ timeout: 60_000 });
	}

	/** Runs the open node and the nodes before it ("Execute step"), and waits for its output. */
	async executeStep() {
		await this.page.click(`${NDV} [data-test-id=node-execute-button]`);
		await expect(
			this.outputPanel.locator('[data-test-id=ndv-data-container]'),
			'the step ran and shows its output',
		).toBeVisible({ timeout: 60_000 });
	}

	/** The values the open node's output table draws as empty (n8n's red italics): "[null]", "[empty array]". */
	async emptyOutputValues(): Promise<string[]> {
		return this.outputPanel
			.locator('[data-test-id=ndv-data-container] [class*="_empty_"]')
			.allInnerTexts();
	}

	/** Saves a picture of the open node's output panel, from its header down to its table's end. */
	async screenshotOutput(file: string) {
		await this.page.setViewportSize(SCREEN);
		// The "Workflow executed successfully" toast would cover the table.
		for (const close of await this.page.locator('.el-notification__closeBtn').all())
			await close.click();
		await expect(this.page.locator('.el-notification')).toHaveCount(0);
		const panel = await boxOf(this.outputPanel, 'the output panel');
		const table = await boxOf(
			this.outputPanel.locator('[data-test-id=ndv-data-container] table').first(),
			'the output table',
		);
		const bottom = Math.min(table.y + table.height + 16, panel.y + panel.height);
		await this.picture(file, { ...panel, height: bottom - panel.y });
		await this.page.setViewportSize(TALL);
	}

	/** Saves the open node's parameter column, from its tabs down to its last parameter. */
	async screenshotNode(file: string) {
		const tab = this.page.locator(`${NDV} [data-test-id=tab-params]`);
		await tab.click(); // closes input hints and dropdowns
		await expect(this.options).toHaveCount(0);
		const tabs = await boxOf(tab, 'the Parameters tab');
		const parameters = this.page.locator(`${NDV} [data-test-id=node-parameters]`);
		const params = await boxOf(parameters, 'the node parameters');
		const bottom = await parameters
			.locator('[data-test-id]')
			.evaluateAll((elements) =>
				Math.max(
					...elements
						.filter((element) => element.offsetParent)
						.map((element) => element.getBoundingClientRect().bottom),
				),
			);
		const y = tabs.y - 12;
		const height = Math.min(bottom + 20, params.y + params.height) - y;
		await this.picture(file, { x: params.x - 16, y, width: params.width + 32, height });
	}
}
