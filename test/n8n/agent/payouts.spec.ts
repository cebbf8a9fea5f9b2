// The payouts an AI agent may make, proven in real n8n 2.41.1 with n8n's AI Agent and OpenAI Chat
// Model against a scripted model and the sandbox gateway (fixtures.ts). Confirm runs here without
// n8n's human review in front of it: that step waits for a person.
import { targetFor } from '../../../scripts/n8n/targets';
import { expect, test } from './fixtures';
import { SCRIPTS, tokenOf } from './modelScripts';
import { TOOLS, agentWorkflow, reviewWorkflow } from './workflow';

const N8N_VERSION = '2.41.1';

test.use({ n8nTarget: targetFor(N8N_VERSION) });
// The last check counts every payout the checks before it made.
test.describe.configure({ mode: 'serial' });

test(`n8n ${N8N_VERSION} with the packed package, the credentials and the workflows`, async ({
	n8n,
}) => {
	const stored = (await n8n.workflows()).map((workflow) => workflow.id).sort();
	const imported = [
		...Object.keys(SCRIPTS).map((script) => agentWorkflow(script).id),
		reviewWorkflow().id,
	];
	expect(stored, 'workflows in the n8n user folder').toEqual(imported.sort());
});

test('(a) Prepare, then Confirm with its token: exactly one payout', async ({
	runScript,
	model,
	sandbox,
}) => {
	const [prepared, confirmed] = await runScript('a');
	expect(model.toolsOfferedTo('a').sort(), 'tools the agent offered the model').toEqual(
		Object.values(TOOLS).sort(),
	);
	expect(prepared.sent, 'Prepare sent').toBe(false);
	expect(tokenOf([prepared]), 'the token Prepare gave').toMatch(/^Pay PHP 1,500\.00 .* \[pa4\./);
	expect(confirmed.refused, `Confirm refused: ${JSON.stringify(confirmed)}`).toBeFalsy();
	expect(confirmed.reference_no, 'the payout Confirm sent').toBe('AGENT-A-1');
	const { creationsByReference } = await sandbox.stats();
	expect(creationsByReference, 'payouts the sandbox created').toHaveProperty('AGENT-A-1', 1);
});

/** (b) to (e): the script's last tool call is refused, and the sandbox creates no payout. */
const REFUSALS = [
	{
		title: '(b) Confirm with a token whose amount was altered: refused, no payout',
		script: 'b',
		refusal: /changed after it was prepared/,
		what: 'Confirm of an altered token',
	},
	{
		title: '(c) Confirm after the token expired: refused, no payout',
		script: 'c',
		refusal: /expired at/,
		what: 'Confirm of an expired token',
	},
	{
		title: '(d) Create as a tool with no Maximum per Payout: refused, no payout',
		script: 'd',
		refusal: /"Maximum per Payout" is not set/,
		what: 'Create without a cap',
	},
	{
		title: '(e) a recipient outside Allowed Recipients: refused, no payout',
		script: 'e',
		refusal: /not in this node's Allowed Recipients/,
		what: 'Prepare for a recipient not allowed',
	},
];

for (const { title, script, refusal, what } of REFUSALS) {
	test(title, async ({ runScript, sandbox }) => {
		const answers = await runScript(script);
		expect(answers[answers.length - 1], `${what}: a refusal`).toMatchObject({
			refused: true,
			error: expect.stringMatching(refusal),
		});
		const { creationsByReference } = await sandbox.stats();
		const reference = `AGENT-${script.toUpperCase()}-1`;
		expect(creationsByReference, 'payouts the sandbox created').not.toHaveProperty(reference);
	});
}

test('no other payout reached the sandbox', async ({ sandbox }) => {
	const creations = (await sandbox.stats()).creationsByReference;
	expect(creations, 'payouts the sandbox created').toEqual({ 'AGENT-A-1': 1 });
});
