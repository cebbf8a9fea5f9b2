// The same 500-row payout workflow started twice at the same moment, on two workers, with the same
// references: the service's own records must show every reference paid exactly once.
import { assert, assertEqual } from '../n8n/check';
import type { Check, QueueContext } from './context';
import { executionIds, nodeItems, startRun, waitForNew } from './executions';
import { PAYOUTS, payoutRows, payoutWebhookUrl } from './workflows';

export const PAYOUT_ROWS = 500;

type Item = Record<string, unknown>;

/** What one execution said about each reference: 'new', 'replayed', 'conflict' or another error. */
function outcomes(paid: Item[], failed: Item[]): Map<string, string> {
	const seen = new Map<string, string>();
	for (const item of paid)
		seen.set(String(item.reference_no), item.replayed === true ? 'replayed' : 'new');
	for (const item of failed) {
		const conflict = /already|exists|in use|conflict|duplicate/i.test(String(item.error));
		seen.set(String(item.reference_no), conflict ? 'conflict' : `error: ${String(item.error)}`);
	}
	return seen;
}

export async function payoutChecks(ctx: QueueContext, check: Check): Promise<void> {
	const { rest, sandbox, cluster, webhookBase, figures } = ctx;

	await check(
		`the same ${PAYOUT_ROWS}-row payout workflow started twice at once on two workers: every reference paid exactly once, none lost`,
		async () => {
			const rows = payoutRows('QUEUE-PAY', PAYOUT_ROWS);
			const references = rows.map((r) => r.reference_no);
			const url = payoutWebhookUrl(webhookBase, PAYOUTS);
			const known = await executionIds(rest, PAYOUTS.id);
			await Promise.all([startRun(url, rows), startRun(url, rows)]);
			const executions = await waitForNew(rest, PAYOUTS.id, known, 2, 300000);
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

			// The service's own count, from its control API.
			const stats = await sandbox.stats();
			const created = references.map((ref) => stats.creationsByReference[ref] ?? 0);
			figures.payoutsSent = created.reduce((a, b) => a + b, 0);
			figures.createRequests = references.reduce(
				(sum, ref) => sum + (stats.attemptsByReference[ref] ?? 0),
				0,
			);
			figures.duplicates = created.filter((n) => n > 1).length;
			figures.lost = created.filter((n) => n === 0).length;

			// What n8n's two executions said, reference by reference.
			const said = await Promise.all(
				executions.map(async (e) => {
					const [paid = [], failed = []] = await nodeItems(rest, String(e.id), PAYOUTS.node);
					assertEqual(paid.length + failed.length, PAYOUT_ROWS, `items out of execution ${e.id}`);
					return outcomes(paid, failed);
				}),
			);
			figures.replayed = 0;
			figures.conflicts = 0;
			const wrong: string[] = [];
			for (const ref of references) {
				const pair = said.map((s) => s.get(ref) ?? 'missing');
				const others = pair.filter((o) => o !== 'new');
				if (others.length === 1 && others[0] === 'replayed') figures.replayed++;
				else if (others.length === 1 && others[0] === 'conflict') figures.conflicts++;
				else wrong.push(`${ref}: ${pair.join(' / ')}`);
			}
			assertEqual(figures.duplicates, 0, 'duplicate payouts at the service');
			assertEqual(figures.lost, 0, 'references never paid');
			assertEqual(figures.payoutsSent, PAYOUT_ROWS, 'payouts created at the service');
			assert(
				!wrong.length,
				`${wrong.length} references without one new payout and one replay or conflict, e.g. ${wrong.slice(0, 3).join('; ')}`,
			);
		},
	);
}
