// The figures the queue-mode checks measure, and the table they are printed as at the end.
import os from 'os';
import { WORKER_CONCURRENCY } from './cluster';

/** The sandbox's latency on every request while the checks run. */
export const LATENCY_MS = 20;
/** Rows of each payout run in the payout and throughput checks. */
export const PAYOUT_ROWS = 500;
export const SMALL_EXECUTIONS = 40;
export const LARGE_RUNS = 2;

export interface ThroughputRow {
	workers: number;
	executions: number;
	executionSeconds: number;
	payouts: number;
	payoutSeconds: number;
	/** The machine's 1-minute load average when the row was measured (other programs included). */
	load: number;
}

/** Each figure the checks measure, as the report labels it, in the report's order. */
const LABELS = {
	tokenRequestsColdStart: 'token requests, two workers at the same moment, no stored token:',
	tokenRequestsWarm: 'token requests, two workers, token stored:',
	tokenRequestsAfterExpiry: 'token requests, two workers, after the service dropped every token:',
	tokenRequestsRefused: 'token requests, two workers, refused password (50 rows each):',
	payoutsSent: 'payouts sent (created at the service, 500 references, 2 runs at once):',
	createRequests: 'create requests the service received for them:',
	duplicates: 'duplicates=',
	lost: 'lost=',
	replayed: 'references the other run answered replayed: true:',
	conflicts: 'references the other run answered with a conflict:',
	executionsFromSimultaneousDelivery:
		'executions from one callback on two webhook processes at once:',
	executionsFromSequentialDelivery:
		'executions from one callback on one webhook process, then the other:',
	callbacksAccepted: 'callbacks the trigger accepted:',
	callbacksRememberedInDatabase: "of them, held by the trigger's record in the database:",
	claimedReferences: 'references posted to two webhook processes at once, with a ledger:',
	claimedExecutions: 'executions they started:',
	claimsAnswered503: 'deliveries answered 503 (the ledger undecided), then delivered again:',
	claimWindowMedianMs: 'ms from a claim marked to its execution stored, median:',
	claimWindowMostMs: 'ms from a claim marked to its execution stored, most:',
};

export type Figures = Partial<Record<keyof typeof LABELS, number>> & {
	throughput: ThroughputRow[];
};

export function throughputTable(rows: ThroughputRow[]): string {
	const lines = [
		`| workers | executions/s (${SMALL_EXECUTIONS} one-payout executions) | payouts/s (${LARGE_RUNS} x ${PAYOUT_ROWS}-row runs) | load average |`,
		'|---|---|---|---|',
		...rows.map(
			(r) =>
				`| ${r.workers} | ${(r.executions / r.executionSeconds).toFixed(1)} (${r.executionSeconds.toFixed(1)} s) | ${(r.payouts / r.payoutSeconds).toFixed(0)} (${r.payoutSeconds.toFixed(1)} s) | ${r.load.toFixed(1)} |`,
		),
	];
	return lines.join('\n');
}

/** Every figure, 'not measured' where its check did not get that far, then the throughput table. */
export function report(figures: Figures): string {
	return [
		...Object.entries(LABELS).map(
			([key, label]) =>
				`${label.padEnd(72)} ${figures[key as keyof typeof LABELS] ?? 'not measured'}`,
		),
		'',
		`throughput at L = ${LATENCY_MS} ms, worker concurrency ${WORKER_CONCURRENCY}, ${os.cpus().length} cores:`,
		throughputTable(figures.throughput),
	].join('\n');
}
