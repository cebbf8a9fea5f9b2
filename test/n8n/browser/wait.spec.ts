// Example 10 in the editor (docs/waiting.md): Execute workflow generates the link and the execution
// waits at "Payment link, wait until paid" (pictured for docs/images/), whose output pane shows the
// link while it waits; pressing Pay on the page it opens resumes the same execution, which marks
// the order paid.
import { test, expect } from './fixtures';

const GENERATE = '/v1/biller/transactions/generate';
const WAITING_NODE = 'Payment link, wait until paid';

/** The reference_no of the last payment link the sandbox was asked for. */
function lastLinkReference(demo: { sandbox: { lastRequestBody(path: string): unknown } }) {
	const body = demo.sandbox.lastRequestBody(GENERATE) as { reference_no?: string } | undefined;
	return body?.reference_no;
}

test('example 10 waits in the editor until the payment resumes it, then marks the order paid', async ({
	editor,
	demo,
	browser,
}) => {
	await editor.openWorkflow('pgwOrderWaitPaid');
	const before = lastLinkReference(demo);
	await editor.page.click('[data-test-id=execute-workflow-button]');
	// Example 10 makes a new order each run: its id is the reference of the link generated.
	let order = '';
	await expect
		.poll(
			() => {
				order = lastLinkReference(demo) ?? '';
				if (order === '' || order === before) return undefined;
				return (demo.sandbox.getTransaction(order) as { status?: string } | undefined)?.status;
			},
			{ message: 'the link for the new order generated' },
		)
		.toBe('pending');
	expect(order).toMatch(/^ORDER-\d+$/);
	await expect(
		editor.canvasNode('Order marked paid').locator('[data-test-id=canvas-node-status-success]'),
		'nothing after the waiting node has run',
	).toHaveCount(0);
	await editor.screenshotCanvas('workflow-order-wait-until-paid.png');

	// Where a person looks while it waits: the waiting node's output pane names the link.
	await editor.openNode(WAITING_NODE);
	const shown = editor.outputPanel
		.getByRole('alert')
		.filter({ hasText: 'Waiting for the payment' });
	await expect(shown, 'the waiting node shows its payment link').toContainText(order);
	const link = await shown.locator('a').getAttribute('href');
	const generated = demo.sandbox.getTransaction(order) as { web_payment_url?: string } | undefined;
	expect(link, 'the link shown is the one generated').toBe(generated?.web_payment_url);
	await editor.screenshotCanvas('order-wait-link-shown.png');
	await editor.closeNode();

	// The customer's side (a browser of their own): the link opens the payment page; Pay resumes
	// the same execution.
	const payPage = await browser.newPage();
	await payPage.goto(link ?? '');
	await payPage.click('#pay');
	await expect(
		editor.canvasNode('Order marked paid').locator('[data-test-id=canvas-node-status-success]'),
		'the order marked paid after the payment',
	).toBeVisible({ timeout: 60_000 });
	await payPage.close();
	expect((demo.sandbox.getTransaction(order) as { status?: string }).status).toBe('completed');
});
