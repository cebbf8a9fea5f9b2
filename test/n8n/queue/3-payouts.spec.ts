// The same 500-row payout workflow started twice at the same moment, on two workers, with the same
// references: the service's own records must show every reference paid exactly once.
import { PAYOUTS, payoutRows, payoutWebhookUrl } from './workflows';
import {
	executionIds,
	expectSucceededOnTwoWorkers,
	nodeItems,
	startRun,
	waitForNew,
} from './executions';
import { PAYOUT_ROWS } from './figures';
import { expect, test } from './fixtures';

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

test(`the same ${PAYOUT_ROWS}-row payout workflow started twice at once on two workers: every reference paid exactly once, none lost`, async ({
	queue: { rest, cluster, webhookBase },
	sandbox,
	figures,
}) => {
	test.setTimeout(10 * 60_000);
	const rows = payoutRows('QUEUE-PAY', PAYOUT_ROWS);
	const references = rows.map((r) => r.reference_no);
	const url = payoutWebhookUrl(webhookBase, PAYOUTS);
	const known = await executionIds(rest, PAYOUTS.id);
	await Promise.all([startRun(url, rows), startRun(url, rows)]);
	const executions = await waitForNew(rest, PAYOUTS.id, known, 2, 300000);
	expectSucceededOnTwoWorkers(cluster, executions);

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
			expect(paid.length + failed.length, `items out of execution ${e.id}`).toBe(PAYOUT_ROWS);
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
	expect(figures.duplicates, 'duplicate payouts at the service').toBe(0);
	expect(figures.lost, 'references never paid').toBe(0);
	expect(figures.payoutsSent, 'payouts created at the service').toBe(PAYOUT_ROWS);
	expect(
		wrong.slice(0, 3),
		`${wrong.length} references without one new payout and one replay or conflict, e.g.`,
	).toEqual([]);
});
