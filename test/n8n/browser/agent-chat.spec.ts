// Example 08 as a person meets it in the demo: its public chat in Chromium, the demo's scripted
// model, and n8n's human review in the chat. The review names the payout in full, as a sentence
// and the day's figures, no part of the token; Pay pays it once.
// The picture of the review goes to docs/images/.
import path from 'path';
import { chatUrl, hasChatTrigger } from '../../../scripts/n8n/examples';
import { IMAGES_DIR } from '../../../scripts/n8n/paths';
import { BROWSER_USER_AGENT, serveChatWidget } from './chatWidget';
import { test, expect } from './fixtures';

test("AI agent example (08) in its chat: the demo model prepares, the person's review names the payout in full, Pay pays it once", async ({
	browser,
	demo,
}, testInfo) => {
	const example = demo.examples.find(({ workflow }) => hasChatTrigger(workflow));
	expect(example, 'an example with a chat').toBeDefined();
	// n8n ignores a review button pressed by a browser that calls itself headless (its bot check).
	const page = await browser.newPage({
		viewport: { width: 820, height: 900 },
		userAgent: BROWSER_USER_AGENT,
	});
	page.setDefaultTimeout(30_000);
	try {
		await serveChatWidget(page);
		await page.goto(chatUrl(example!.workflow, demo.server.url));
		await expect(
			page.getByText(/I pay out to GCash e-wallets, and a person approves every payout/).first(),
			'the chat opens saying what it does and that a person approves each payout',
		).toBeVisible({ timeout: 60_000 });
		await expect(
			page.getByText('Payouts, approved by a person').first(),
			"the chat's own title, not n8n's stock greeting",
		).toBeVisible();
		await expect(
			page.getByText('Try: pay 500 to GCash 09171234567').first(),
			'the chat opens with a request to try',
		).toBeVisible();
		const input = page.locator('textarea');
		// The widget takes a message once its last answer is in: it empties the box when it sends.
		const send = async (text: string) => {
			await input.fill(text);
			await expect(async () => {
				if ((await input.inputValue()) !== '') await input.press('Enter');
				expect(await input.inputValue(), `"${text}" sent`).toBe('');
			}).toPass({ timeout: 30_000, intervals: [1000] });
		};
		await send('pay 500 to GCash 09171234567');
		const summary = page.getByText(
			/Pay PHP 500\.00 to e-wallet mobile number 09171234567 on GCASH, reference DEMO-\w+ \(Sandbox\)/,
		);
		await expect(summary.first(), 'the summary the model repeats').toBeVisible({ timeout: 60_000 });
		const reference = /reference (DEMO-\w+)/.exec(await summary.first().innerText())![1];
		await send('yes');
		const pay = page.getByText('Pay', { exact: true });
		await expect(pay, "the review's Pay button").toBeVisible({ timeout: 60_000 });
		await expect(
			page
				.getByText(
					new RegExp(
						`reference ${reference} \\(Sandbox\\)\\. Today \\([^)]*\\) so far PHP [\\d,.]+ of PHP 1,500\\.00; after this payout PHP [\\d,.]+, (PHP [\\d,.]+|nothing) left`,
					),
				)
				.first(),
			'the review shows the summary of the token Confirm receives and the day, and nothing of the token',
		).toBeVisible();
		await expect(page.getByText(/\[pa4\./), 'the review shows no signed part').toHaveCount(0);
		expect(demo.sandbox.stats().creationsByReference, 'paid before the review').not.toHaveProperty(
			reference,
		);
		await page.screenshot({
			path: path.join(IMAGES_DIR, 'example-08-chat-review.png'),
			animations: 'disabled',
		});
		const popup = page
			.context()
			.waitForEvent('page', { timeout: 5_000 })
			.catch(() => undefined);
		await pay.click();
		console.log('popup', (await popup)?.url());
		await expect
			.poll(() => demo.sandbox.stats().creationsByReference[reference], {
				message: 'the approved payout at the sandbox',
				timeout: 60_000,
			})
			.toBe(1);
		await expect(
			page.getByText(new RegExp(`Sent: payout ${reference} is`)),
			'the model says it was sent',
		).toBeVisible({ timeout: 60_000 });
		expect(demo.sandbox.stats().creationsByReference).toHaveProperty(reference, 1);
	} finally {
		if (testInfo.status !== testInfo.expectedStatus || testInfo.errors.length > 0)
			await testInfo.attach('the chat', {
				body: await page.screenshot(),
				contentType: 'image/png',
			});
		await page.context().close();
	}
});
