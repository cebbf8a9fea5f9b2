// Example 10 in the editor (docs/waiting.md): Execute workflow generates the link and the execution
// waits at "Payment link, wait until paid" (pictured for docs/images/); the sandbox's Pay resumes
// the same execution, which marks the order paid.
import { test, expect } from './fixtures';

const GENERATE = '/v1/biller/transactions/generate';

/** The reference_no of the last payment link the sandbox was asked for. */
function lastLinkReference(demo: { sandbox: { lastRequestBody(path: string): unknown } }) {
	const body = demo.sandbox.lastRequestBody(GENERATE) as { reference_no?: string } | undefined;
	return body?.reference_no;
}

test('example 10 waits in the editor until the payment resumes it, then marks the order paid', async ({
	editor,
	demo,
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
	await demo.sandbox.settle(order, 'completed');
	await expect(
		editor.canvasNode('Order marked paid').locator('[data-test-id=canvas-node-status-success]'),
		'the order marked paid after the payment',
	).toBeVisible({ timeout: 60_000 });
});
