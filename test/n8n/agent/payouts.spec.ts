// The payouts an AI agent may make, proven in real n8n 2.41.1 with n8n's AI Agent and OpenAI Chat
// Model, without a model: the chat model's credential points at a scripted OpenAI-compatible
// server on 127.0.0.1 that answers with the tool calls of a script (fixtures.ts). The sandbox
// gateway fakes the payment service. The checks read what each tool answered and what the sandbox
// received. Confirm runs here without n8n's human review in front of it: that step waits for a
// person.
import type { ToolAnswer } from './scriptedModel';
import { targetFor } from '../../../scripts/n8n/targets';
import { expect, test } from './fixtures';
import { ALTERED_AMOUNT, SCRIPTS, tokenOf } from './modelScripts';
import { MAX_AMOUNT, TOOLS, agentWorkflow } from './workflow';

const N8N_VERSION = '2.41.1';

test.use({ n8nTarget: targetFor(N8N_VERSION) });
// The last check counts every payout the checks before it made.
test.describe.configure({ mode: 'serial' });

const expectRefused = (answer: ToolAnswer | undefined, pattern: RegExp, what: string) =>
	expect(answer, `${what}: a refusal`).toMatchObject({
		refused: true,
		error: expect.stringMatching(pattern),
	});

test(`n8n ${N8N_VERSION} with the packed package, the credentials and the workflows`, async ({
	n8n,
}) => {
	const stored = (await n8n.workflows()).map((workflow) => workflow.id).sort();
	const imported = Object.keys(SCRIPTS).map((script) => agentWorkflow(script).id);
	expect(stored, 'workflows in the n8n user folder').toEqual(imported.sort());
});

test('(a) Prepare, then Confirm with its token: exactly one payout', async ({
	runScript,
	model,
	payoutsFor,
}) => {
	const [prepared, confirmed] = await runScript('a');
	expect(model.toolsOfferedTo('a').sort(), 'tools the agent offered the model').toEqual(
		Object.values(TOOLS).sort(),
	);
	expect(prepared.sent, 'Prepare sent').toBe(false);
	expect(tokenOf([prepared]), 'the token Prepare gave').toMatch(/^pa1\./);
	expect(confirmed.refused, `Confirm refused: ${JSON.stringify(confirmed)}`).toBeFalsy();
	expect(confirmed.reference_no, 'the payout Confirm sent').toBe('AGENT-A-1');
	expect(await payoutsFor('AGENT-A-1'), 'payouts the sandbox created for AGENT-A-1').toBe(1);
});

test('(b) Confirm with a token whose amount was altered: refused, no payout', async ({
	runScript,
	payoutsFor,
}) => {
	expect(
		ALTERED_AMOUNT,
		'the altered amount must be under the cap, so the token is what refuses',
	).toBeLessThan(MAX_AMOUNT);
	const [, confirmed] = await runScript('b');
	expectRefused(confirmed, /changed after it was prepared/, 'Confirm of an altered token');
	expect(await payoutsFor('AGENT-B-1'), 'payouts the sandbox created for AGENT-B-1').toBe(0);
});

test('(c) Confirm after the token expired: refused, no payout', async ({
	runScript,
	payoutsFor,
}) => {
	const [, confirmed] = await runScript('c');
	expectRefused(confirmed, /expired at/, 'Confirm of an expired token');
	expect(await payoutsFor('AGENT-C-1'), 'payouts the sandbox created for AGENT-C-1').toBe(0);
});

test('(d) Create as a tool with no Maximum Amount per Payout: refused, no payout', async ({
	runScript,
	payoutsFor,
}) => {
	const [created] = await runScript('d');
	expectRefused(created, /"Maximum Amount per Payout" is not set/, 'Create without a cap');
	expect(await payoutsFor('AGENT-D-1'), 'payouts the sandbox created for AGENT-D-1').toBe(0);
});

test('(e) a recipient outside Allowed Recipients: refused, no payout', async ({
	runScript,
	payoutsFor,
}) => {
	const [prepared] = await runScript('e');
	expectRefused(
		prepared,
		/not in this node's Allowed Recipients/,
		'Prepare for a recipient not allowed',
	);
	expect(await payoutsFor('AGENT-E-1'), 'payouts the sandbox created for AGENT-E-1').toBe(0);
});

test('no other payout reached the sandbox', async ({ sandbox }) => {
	const creations = (await sandbox.stats()).creationsByReference;
	expect(creations, 'payouts the sandbox created').toEqual({ 'AGENT-A-1': 1 });
});
