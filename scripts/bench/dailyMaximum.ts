// The daily-maximum route of the benchmark (`npm run bench -- --daily-maximum`, docs/benchmarks.md):
// N payouts through Payout > Create with Maximum Total per Day, in n8n's engine, against the
// sandbox gateway and the in-process fake of n8n's Data Table API holding the ledger. The maximum
// is set far above the sheet, so every payout is reserved, counted and paid. Prints, per size, the
// ledger requests and the rows n8n answered per payout, and a PASS/FAIL line: at the largest size
// neither may be higher than at the smallest (the day costs the same at any size).
import type { IDataObject } from 'n8n-workflow';

import { jsonOf } from '../../test/harness/disbursementRuns';
import { cappedPayout, payWithLedger, setUpWithLedger } from '../../test/harness/ledgerRuns';
import { numbers, readArgs } from './options';

const say = (line = '') => process.stdout.write(`${line}\n`);

/** What one size cost. */
interface DayCost {
	n: number;
	seconds: number;
	paid: number;
	requestsPerPayout: number;
	rowsReadPerPayout: number;
}

async function measure(n: number, concurrency: number): Promise<DayCost> {
	const s = await setUpWithLedger();
	try {
		const items: IDataObject[] = Array.from({ length: n }, (_, i) => ({
			ref: `DAILY-${n}-${i}`,
			amount: 1,
			mobile: '09171234567',
		}));
		const started = performance.now();
		const result = await payWithLedger(
			s,
			cappedPayout({ maxTotalPerDay: String(n * 10), concurrency }),
			items,
			{ onError: 'continueRegularOutput' },
		);
		const seconds = (performance.now() - started) / 1000;
		const paid = jsonOf(result).filter((item) => item.error === undefined).length;
		const rowsRead = s.ledger.requests.reduce(
			(sum, request) => sum + (request.rowsAnswered ?? 0),
			0,
		);
		return {
			n,
			seconds,
			paid,
			requestsPerPayout: s.ledger.requests.length / n,
			rowsReadPerPayout: rowsRead / n,
		};
	} finally {
		await s.ledger.close();
		await s.gw.close();
	}
}

/** Runs the route; the exit code (1 when the cost per payout grows with the day). */
export async function dailyMaximumRoute(argv: string[]): Promise<number> {
	const values = readArgs(argv, {});
	const sizes = numbers(values.sizes, '--sizes', values.quick ? [200, 1000] : [1000, 10000]);
	const [concurrency] = numbers(values.concurrency, '--concurrency', [8]);
	say(
		`Daily maximum: ${sizes.join(', ')} payouts of PHP 1, concurrency ${concurrency}, every one paid`,
	);
	const costs: DayCost[] = [];
	for (const n of sizes) {
		const cost = await measure(n, concurrency);
		costs.push(cost);
		say(
			`  N=${String(n).padEnd(6)} ${cost.seconds.toFixed(1).padStart(7)} s  paid ${cost.paid}  ledger requests ${cost.requestsPerPayout.toFixed(2)} a payout  rows read ${cost.rowsReadPerPayout.toFixed(1)} a payout`,
		);
	}
	const first = costs[0];
	const last = costs[costs.length - 1];
	const allPaid = costs.every((cost) => cost.paid === cost.n);
	const flat =
		last.requestsPerPayout <= first.requestsPerPayout &&
		last.rowsReadPerPayout <= first.rowsReadPerPayout;
	say(
		`${allPaid && flat ? 'PASS' : 'FAIL'} daily maximum: at N=${last.n} ${last.requestsPerPayout.toFixed(2)} ledger requests and ${last.rowsReadPerPayout.toFixed(1)} rows read a payout, at N=${first.n} ${first.requestsPerPayout.toFixed(2)} and ${first.rowsReadPerPayout.toFixed(1)}${allPaid ? '' : '; not every payout was paid'}`,
	);
	return allPaid && flat ? 0 : 1;
}
