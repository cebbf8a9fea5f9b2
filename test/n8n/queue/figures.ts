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

export interface Figures {
	/** Token requests at the sandbox when two workers start at once with no stored token. */
	tokenRequestsColdStart?: number;
	tokenRequestsWarm?: number;
	tokenRequestsAfterExpiry?: number;
	tokenRequestsRefused?: number;
	payoutsSent?: number;
	createRequests?: number;
	duplicates?: number;
	lost?: number;
	/** References the second execution answered with the existing payout, or with a conflict. */
	replayed?: number;
	conflicts?: number;
	/** Executions started when one callback hits two webhook processes at the same moment. */
	executionsFromSimultaneousDelivery?: number;
	executionsFromSequentialDelivery?: number;
	/** Callbacks the trigger accepted, and how many of them its record in the database holds. */
	callbacksAccepted?: number;
	callbacksRememberedInDatabase?: number;
	throughput: ThroughputRow[];
}

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
	const lines: Array<[string, number | undefined]> = [
		[
			'token requests, two workers at the same moment, no stored token:',
			figures.tokenRequestsColdStart,
		],
		['token requests, two workers, token stored:', figures.tokenRequestsWarm],
		[
			'token requests, two workers, after the service dropped every token:',
			figures.tokenRequestsAfterExpiry,
		],
		['token requests, two workers, refused password (50 rows each):', figures.tokenRequestsRefused],
		['payouts sent (created at the service, 500 references, 2 runs at once):', figures.payoutsSent],
		['create requests the service received for them:', figures.createRequests],
		['duplicates=', figures.duplicates],
		['lost=', figures.lost],
		['references the other run answered replayed: true:', figures.replayed],
		['references the other run answered with a conflict:', figures.conflicts],
		[
			'executions from one callback on two webhook processes at once:',
			figures.executionsFromSimultaneousDelivery,
		],
		[
			'executions from one callback on one webhook process, then the other:',
			figures.executionsFromSequentialDelivery,
		],
		[
			`callbacks accepted (${figures.callbacksAccepted ?? '?'}) that the trigger's record in the database holds:`,
			figures.callbacksRememberedInDatabase,
		],
	];
	return [
		...lines.map(([label, value]) => `${label.padEnd(72)} ${value ?? 'not measured'}`),
		'',
		`throughput at L = ${LATENCY_MS} ms, worker concurrency ${WORKER_CONCURRENCY}, ${os.cpus().length} cores:`,
		throughputTable(figures.throughput),
	].join('\n');
}
