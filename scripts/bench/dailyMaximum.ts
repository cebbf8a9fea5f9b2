// The daily-maximum route of the benchmark (`npm run bench -- --daily-maximum`, docs/benchmarks.md):
// N payouts through Payout > Create in n8n's engine, against the sandbox gateway and the in-process
// fake of n8n's Data Table API holding the ledger, each size run without a maximum and then with
// Maximum Total per Day set far above the sheet (every payout reserved, counted and paid). Prints,
// per size, both wall times, their ratio and the ledger requests per payout; FAIL when the ratio
// passes 1.5 at 1,000 or 10,000 payouts, or the requests per payout pass 0.25 at any size.
import type { IDataObject } from 'n8n-workflow';

import { jsonOf } from '../../test/harness/disbursementRuns';
import { cappedPayout, payWithLedger, setUpWithLedger } from '../../test/harness/ledgerRuns';
import { numbers, readArgs } from './options';

const say = (line = '') => process.stdout.write(`${line}\n`);

/** The slowest the day may make a run, and the most ledger requests a payout may cost. */
const MOST_RATIO = 1.5;
const RATIO_SIZES = [1000, 10000];
const MOST_REQUESTS_PER_PAYOUT = 0.25;

/** What one run cost. */
interface RunCost {
	seconds: number;
	paid: number;
	requests: number;
	rowsRead: number;
}

let runs = 0;

async function measure(n: number, concurrency: number, maximum: boolean): Promise<RunCost> {
	const s = await setUpWithLedger();
	try {
		const run = (runs += 1);
		const items: IDataObject[] = Array.from({ length: n }, (_, i) => ({
			ref: `DAILY-${run}-${n}-${i}`,
			amount: 1,
			mobile: '09171234567',
		}));
		const options = maximum ? { maxTotalPerDay: String(n * 10), concurrency } : { concurrency };
		const started = performance.now();
		const result = await payWithLedger(s, cappedPayout(options), items, {
			onError: 'continueRegularOutput',
		});
		const seconds = (performance.now() - started) / 1000;
		return {
			seconds,
			paid: jsonOf(result).filter((item) => item.error === undefined).length,
			requests: s.ledger.requests.length,
			rowsRead: s.ledger.requests.reduce((sum, request) => sum + (request.rowsAnswered ?? 0), 0),
		};
	} finally {
		await s.ledger.close();
		await s.gw.close();
	}
}

/** Runs the route; the exit code (1 when the day costs too much time or too many requests). */
export async function dailyMaximumRoute(argv: string[]): Promise<number> {
	const values = readArgs(argv, {});
	const sizes = numbers(values.sizes, '--sizes', values.quick ? [200, 1000] : [1000, 10000]);
	const [concurrency] = numbers(values.concurrency, '--concurrency', [8]);
	const [repeat] = numbers(values.repeat, '--repeat', [1]);
	say(
		`Daily maximum: ${sizes.join(', ')} payouts of PHP 1, concurrency ${concurrency}, each size without and with a maximum far above it${repeat > 1 ? `, ${repeat} times in turn (the fastest of each shown)` : ''}`,
	);
	const failures: string[] = [];
	const fastest = (a: RunCost | undefined, b: RunCost) => (a && a.seconds <= b.seconds ? a : b);
	for (const n of sizes) {
		let plain: RunCost | undefined;
		let day: RunCost | undefined;
		// In turn, so a machine that gets busier or quieter meanwhile weighs on both alike.
		for (let round = 0; round < repeat; round++) {
			plain = fastest(plain, await measure(n, concurrency, false));
			day = fastest(day, await measure(n, concurrency, true));
		}
		if (!plain || !day) continue;
		const ratio = day.seconds / plain.seconds;
		const perPayout = day.requests / n;
		say(
			`  N=${String(n).padEnd(6)} without ${plain.seconds.toFixed(2).padStart(7)} s  with ${day.seconds.toFixed(2).padStart(7)} s  ratio ${ratio.toFixed(2)}  ledger requests ${perPayout.toFixed(3)} a payout (${day.requests})  rows read ${(day.rowsRead / n).toFixed(1)} a payout  paid ${plain.paid}/${day.paid}`,
		);
		if (plain.paid !== n || day.paid !== n) failures.push(`N=${n}: not every payout was paid`);
		if (RATIO_SIZES.includes(n) && ratio > MOST_RATIO)
			failures.push(`N=${n}: with / without ${ratio.toFixed(2)} > ${MOST_RATIO}`);
		if (perPayout > MOST_REQUESTS_PER_PAYOUT)
			failures.push(
				`N=${n}: ${perPayout.toFixed(3)} ledger requests a payout > ${MOST_REQUESTS_PER_PAYOUT}`,
			);
	}
	say(
		failures.length === 0
			? `PASS daily maximum: with / without at most ${MOST_RATIO} at ${RATIO_SIZES.join(' and ')} payouts, at most ${MOST_REQUESTS_PER_PAYOUT} ledger requests a payout`
			: `FAIL daily maximum: ${failures.join('; ')}`,
	);
	return failures.length === 0 ? 0 : 1;
}
