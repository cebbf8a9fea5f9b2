// Tokens in queue mode. n8n keeps the credential's token (its hidden expirable field) in the
// credentials table: a worker runs the credential's preAuthentication when the token it read from
// the database is empty or answered 401, and writes the new token back. Two workers that read an
// empty token at the same moment cannot see each other's request, so one token request per worker
// is the floor; inside one worker the package shares one request among all items
// (nodes/shared/transport/token.ts).
import { assert, assertEqual } from '../n8n/check';
import type { Check, QueueContext } from './context';
import { executionIds, nodeItems, startRun, waitForNew, type ExecutionSummary } from './executions';
import { PAYOUTS, REFUSED, payoutRows, payoutWebhookUrl } from './workflows';

const ROWS_PER_RUN = 20;

interface PairRun {
	executions: ExecutionSummary[];
	tokenRequests: number;
	references: string[];
}

export async function tokenChecks(ctx: QueueContext, check: Check): Promise<void> {
	const { rest, sandbox, cluster, webhookBase, figures } = ctx;

	/** Two executions queued at the same moment; checks they ran on two different workers. */
	async function twoAtOnce(prefix: string, ids = PAYOUTS, rows = ROWS_PER_RUN): Promise<PairRun> {
		const url = payoutWebhookUrl(webhookBase, ids);
		const known = await executionIds(rest, ids.id);
		const before = (await sandbox.stats()).tokenRequests.disbursement;
		const runs = [payoutRows(`${prefix}-A`, rows), payoutRows(`${prefix}-B`, rows)];
		await Promise.all(runs.map((r) => startRun(url, r)));
		const executions = await waitForNew(rest, ids.id, known, 2);
		const tokenRequests = (await sandbox.stats()).tokenRequests.disbursement - before;
		const byWorker = cluster.executionsByWorker();
		const workers = executions.map((e) => byWorker.get(String(e.id)));
		assert(
			workers.every(Boolean) && new Set(workers).size === 2,
			`the two executions ran on ${workers.join(' and ')}, not on two workers`,
		);
		assertEqual(
			executions.map((e) => e.status),
			['success', 'success'],
			'execution statuses',
		);
		return { executions, tokenRequests, references: runs.flat().map((r) => r.reference_no) };
	}

	async function assertAllPaid(references: string[]): Promise<void> {
		const created = (await sandbox.stats()).creationsByReference;
		const notOnce = references.filter((ref) => created[ref] !== 1);
		assert(
			!notOnce.length,
			`${notOnce.length} references not created exactly once, e.g. ${notOnce.slice(0, 3).join(', ')}`,
		);
	}

	await check(
		'two workers start executions at the same moment with no stored token: at most one token request per worker',
		async () => {
			const run = await twoAtOnce('QUEUE-TOKEN-COLD');
			figures.tokenRequestsColdStart = run.tokenRequests;
			assert(
				run.tokenRequests >= 1 && run.tokenRequests <= 2,
				`${run.tokenRequests} token requests for two workers`,
			);
			await assertAllPaid(run.references);
		},
	);

	await check(
		'the token n8n stored in the database serves both workers afterwards: no token request',
		async () => {
			const run = await twoAtOnce('QUEUE-TOKEN-WARM');
			figures.tokenRequestsWarm = run.tokenRequests;
			assertEqual(run.tokenRequests, 0, 'token requests with a stored token');
			await assertAllPaid(run.references);
		},
	);

	await check(
		'after the service drops every token (401): at most one new token request per worker',
		async () => {
			await sandbox.expireTokens();
			const run = await twoAtOnce('QUEUE-TOKEN-EXPIRED');
			figures.tokenRequestsAfterExpiry = run.tokenRequests;
			assert(
				run.tokenRequests >= 1 && run.tokenRequests <= 2,
				`${run.tokenRequests} token requests after expiry`,
			);
			await assertAllPaid(run.references);
		},
	);

	await check(
		'a refused password on two workers at once: at most one token request per worker, no payout, every row names the fix',
		async () => {
			const rows = 50;
			const run = await twoAtOnce('QUEUE-TOKEN-REFUSED', REFUSED, rows);
			figures.tokenRequestsRefused = run.tokenRequests;
			assert(
				run.tokenRequests >= 1 && run.tokenRequests <= 2,
				`${run.tokenRequests} token requests with a refused password (a refusal storm)`,
			);
			const attempts = (await sandbox.stats()).attemptsByReference;
			const sent = run.references.filter((ref) => attempts[ref]);
			assertEqual(sent.length, 0, 'payout requests sent with a refused credential');
			for (const execution of run.executions) {
				const [paid = [], failed = []] = await nodeItems(rest, String(execution.id), REFUSED.node);
				assertEqual(
					[paid.length, failed.length],
					[0, rows],
					`execution ${execution.id}: items on the success and error outputs`,
				);
				const unnamed = failed.filter((item) => !/Username and Password/.test(String(item.error)));
				assert(
					!unnamed.length,
					`an error item does not name the fix: ${JSON.stringify(unnamed[0])}`,
				);
			}
		},
	);
}
