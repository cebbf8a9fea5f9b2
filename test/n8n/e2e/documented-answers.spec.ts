// Example 01 against a service that states only what its interface document shows: payout
// answers and look-ups give reference_no, amount, channel, status and the time made, nothing about
// the recipient (the sandbox's `documented` payout answers). The first run pays each valid row once
// and lists the recipient as unconfirmed; the second run replays them; nothing is paid twice and no
// row reads "already used for a different payout".
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import { test, expect, WF, VALID_PAYOUTS, INVALID_PAYOUTS } from './fixtures';

test.describe.configure({ mode: 'serial' });

/** Example 01 under its own id, with references of its own so that earlier checks paid none of them. */
const DOCUMENTED_WORKFLOW = 'pgwDocumentedPay';
const PREFIX = 'DOCUMENTED-2026-02-';
const renamed = (reference: string) => reference.replace('PAYROLL-2026-02-', PREFIX);
const VALID = VALID_PAYOUTS.map(renamed);
const INVALID = INVALID_PAYOUTS.map(renamed);

function documentedCopy(example: WorkflowJson): WorkflowJson {
	const text = JSON.stringify(example);
	expect(text, 'example 01 names its payouts PAYROLL-2026-02-…').toContain('PAYROLL-2026-02-');
	const workflow = JSON.parse(text.replaceAll('PAYROLL-2026-02-', PREFIX)) as WorkflowJson;
	workflow.id = DOCUMENTED_WORKFLOW;
	workflow.name = 'Payouts from spreadsheet rows (documented answers)';
	return workflow;
}

interface SentPayout {
	reference_no?: string;
	replayed?: boolean;
	unconfirmed?: string[];
	error?: string;
}

test('example 01 run twice against documented answers: first run paid with the recipient unconfirmed, second run replayed, nobody paid twice', async ({
	leg,
}) => {
	await leg.importSandboxCredentials();
	await leg.instance.importWorkflows([documentedCopy(leg.examples[WF.payouts])]);
	leg.sandbox.answerPayouts('documented');
	try {
		const first = await leg.execute(DOCUMENTED_WORKFLOW);
		expect(
			first<SentPayout>('Send payout').map((p) => [p.reference_no, p.replayed, p.unconfirmed]),
			'the first run: each valid row paid as its own, the recipient its answer leaves out listed',
		).toEqual(VALID.map((ref) => [ref, false, ['bank code', 'account number']]));
		expect(
			first<{ payout_id: string }>('Rows to fix').map((row) => row.payout_id),
			'only the rows that are wrong on purpose on the error output',
		).toEqual(INVALID);

		const second = await leg.execute(DOCUMENTED_WORKFLOW);
		expect(
			second<SentPayout>('Send payout').map((p) => [p.reference_no, p.replayed, p.unconfirmed]),
			'the second run: the existing payouts, replayed',
		).toEqual(VALID.map((ref) => [ref, true, ['bank code', 'account number']]));
		const problems = second<{ problem: string }>('Rows to fix').map((row) => row.problem);
		expect(problems, 'the same two rows to fix, for their own reasons').toHaveLength(2);
		for (const problem of problems) expect(problem).not.toMatch(/different payout/);

		for (const ref of VALID)
			expect(leg.sandbox.stats().creationsByReference[ref], `creations of ${ref}`).toBe(1);
		for (const ref of INVALID)
			expect(leg.sandbox.stats().attemptsByReference[ref], `requests for ${ref}`).toBeUndefined();
	} finally {
		leg.sandbox.answerPayouts('full');
	}
});
