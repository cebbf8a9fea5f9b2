// Every example's main node as a user first opens it: its form with no label cut short, and, where
// running it moves no money (a read, a Check Only), its output with nothing drawn as empty. The
// pictures are docs/images/example-NN-*.png; examples 01, 02, 03, 07 and 08 are pictured elsewhere
// (examples.spec.ts, agent-chat.spec.ts). A payment link's record, as the service answers it, may
// hold nulls and empty lists of its own, so example 02 is not run here.
import { test, expect } from './fixtures';

const MAIN_NODES: Array<{
	example: string;
	workflow: string;
	node: string;
	run: boolean;
	says?: RegExp;
}> = [
	{ example: '04', workflow: 'pgwWalletReport', node: 'Get wallet transactions', run: true },
	{ example: '05', workflow: 'pgwCheckThenPay', node: 'Check the sheet', run: true },
	{ example: '06', workflow: 'pgwAutoMapPayout', node: 'Send payout', run: false },
	{ example: '08', workflow: 'pgwAgentPays', node: 'Prepare payout', run: false },
	{ example: '09', workflow: 'pgwSheetBatches', node: 'Send payout', run: false },
	{
		example: '10',
		workflow: 'pgwOrderWaitPaid',
		node: 'Payment link, wait until paid',
		run: false,
	},
];

test.describe.configure({ mode: 'serial' });

for (const { example, workflow, node, run, says } of MAIN_NODES) {
	test(`example ${example}: "${node}" shows its form whole${run ? ' and an output with nothing drawn as empty' : ''}`, async ({
		editor,
	}) => {
		await editor.openWorkflow(workflow);
		await editor.openNode(node);
		await expect
			.poll(async () => (await editor.parameterLabels()).shown.length, {
				message: `${node} shows its labels`,
			})
			.toBeGreaterThan(2);
		expect((await editor.parameterLabels()).cut, 'labels cut with an ellipsis').toEqual([]);
		if (says) await expect(editor.page.getByText(says).first()).toBeVisible();
		await editor.screenshotNode(`example-${example}-form.png`);
		if (run) {
			await editor.executeStep();
			await expect
				.poll(() => editor.outputPanel.innerText(), { message: 'the output counts its items' })
				.toMatch(/\d+ items?/);
			expect(await editor.emptyOutputValues(), 'values drawn as empty').toEqual([]);
			await editor.screenshotOutput(`example-${example}-output.png`);
		}
		await editor.closeNode();
	});
}
