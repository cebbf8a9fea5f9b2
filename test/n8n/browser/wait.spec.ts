// Example 10 in the editor (docs/waiting.md): Execute workflow generates the link and the execution
// waits at "Payment link, wait until paid" (pictured for docs/images/); the sandbox's Pay resumes
// the same execution, which marks the order paid.
import { test, expect } from './fixtures';

const ORDER = 'ORDER-20001'; // examples/10-order-wait-until-paid.json

test('example 10 waits in the editor until the payment resumes it, then marks the order paid', async ({
	editor,
	demo,
}) => {
	await editor.openWorkflow('pgwOrderWaitPaid');
	await editor.page.click('[data-test-id=execute-workflow-button]');
	await expect
		.poll(() => (demo.sandbox.getTransaction(ORDER) as { status?: string } | undefined)?.status, {
			message: `the link for ${ORDER} generated`,
		})
		.toBe('pending');
	await expect(
		editor.canvasNode('Order marked paid').locator('[data-test-id=canvas-node-status-success]'),
		'nothing after the waiting node has run',
	).toHaveCount(0);
	await editor.screenshotCanvas('workflow-order-wait-until-paid.png');
	await demo.sandbox.settle(ORDER, 'completed');
	await expect(
		editor.canvasNode('Order marked paid').locator('[data-test-id=canvas-node-status-success]'),
		'the order marked paid after the payment',
	).toBeVisible({ timeout: 60_000 });
});
