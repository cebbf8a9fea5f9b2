// Tokens in queue mode. n8n keeps the credential's token (its hidden expirable field) in the
// credentials table: a worker runs the credential's preAuthentication when the token it read from
// the database is empty or answered 401, and writes the new token back. Two workers that read an
// empty token at the same moment cannot see each other's request, so one token request per worker
// is the floor; inside one worker the package shares one request among all items
// (nodes/shared/transport/token.ts). The first check needs no token stored yet: this file runs
// before the others (files run in the order of their names).
import { PAYOUTS, REFUSED, payoutRows, payoutWebhookUrl } from './workflows';
import {
	executionIds,
	expectCreatedOnce,
	expectSucceededOnTwoWorkers,
	nodeItems,
	startRun,
	waitForNew,
	type SandboxControl,
} from './executions';
import { expect, test, type Queue } from './fixtures';

test.describe.configure({ mode: 'serial' });

const ROWS_PER_RUN = 20;

/** Two runs of `rows` rows queued at the same moment, checked to run on two different workers. */
async function twoAtOnce(
	{ rest, cluster, webhookBase }: Queue,
	sandbox: SandboxControl,
	prefix: string,
	ids = PAYOUTS,
	rows = ROWS_PER_RUN,
) {
	const url = payoutWebhookUrl(webhookBase, ids);
	const known = await executionIds(rest, ids.id);
	const before = (await sandbox.stats()).tokenRequests.disbursement;
	const runs = [payoutRows(`${prefix}-A`, rows), payoutRows(`${prefix}-B`, rows)];
	await Promise.all(runs.map((r) => startRun(url, r)));
	const executions = await waitForNew(rest, ids.id, known, 2);
	const tokenRequests = (await sandbox.stats()).tokenRequests.disbursement - before;
	expectSucceededOnTwoWorkers(cluster, executions);
	return { executions, tokenRequests, references: runs.flat().map((r) => r.reference_no) };
}

/** One token request per worker or fewer, and at least one: no stored token was usable. */
function expectOnePerWorker(tokenRequests: number, when: string): void {
	expect(tokenRequests, `token requests ${when}`).toBeGreaterThanOrEqual(1);
	expect(tokenRequests, `token requests ${when}`).toBeLessThanOrEqual(2);
}

test('two workers start executions at the same moment with no stored token: at most one token request per worker', async ({
	queue,
	sandbox,
	figures,
}) => {
	const run = await twoAtOnce(queue, sandbox, 'QUEUE-TOKEN-COLD');
	figures.tokenRequestsColdStart = run.tokenRequests;
	expectOnePerWorker(run.tokenRequests, 'for two workers');
	await expectCreatedOnce(sandbox, run.references);
});

test('the token n8n stored in the database serves both workers afterwards: no token request', async ({
	queue,
	sandbox,
	figures,
}) => {
	const run = await twoAtOnce(queue, sandbox, 'QUEUE-TOKEN-WARM');
	figures.tokenRequestsWarm = run.tokenRequests;
	expect(run.tokenRequests, 'token requests with a stored token').toBe(0);
	await expectCreatedOnce(sandbox, run.references);
});

test('after the service drops every token (401): at most one new token request per worker', async ({
	queue,
	sandbox,
	figures,
}) => {
	await sandbox.expireTokens();
	const run = await twoAtOnce(queue, sandbox, 'QUEUE-TOKEN-EXPIRED');
	figures.tokenRequestsAfterExpiry = run.tokenRequests;
	expectOnePerWorker(run.tokenRequests, 'after expiry');
	await expectCreatedOnce(sandbox, run.references);
});

test('a refused password on two workers at once: at most one token request per worker, no payout, every row names the fix', async ({
	queue,
	sandbox,
	figures,
}) => {
	const rows = 50;
	const run = await twoAtOnce(queue, sandbox, 'QUEUE-TOKEN-REFUSED', REFUSED, rows);
	figures.tokenRequestsRefused = run.tokenRequests;
	expectOnePerWorker(run.tokenRequests, 'with a refused password (more is a refusal storm)');
	const attempts = (await sandbox.stats()).attemptsByReference;
	const sent = run.references.filter((ref) => attempts[ref]);
	expect(sent.length, 'payout requests sent with a refused credential').toBe(0);
	for (const execution of run.executions) {
		const [paid = [], failed = []] = await nodeItems(
			queue.rest,
			String(execution.id),
			REFUSED.node,
		);
		expect(
			[paid.length, failed.length],
			`execution ${execution.id}: items on the success and error outputs`,
		).toEqual([0, rows]);
		const unnamed = failed.filter((item) => !/Username and Password/.test(String(item.error)));
		expect(
			unnamed.slice(0, 1),
			`${unnamed.length} error items do not name the fix (Username and Password), e.g.`,
		).toEqual([]);
	}
});
