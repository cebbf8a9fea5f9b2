// The batch-approval route of the benchmark (`npm run bench -- --batch-approval`, docs/benchmarks.md):
// N e-wallet payouts paid by Payout > Create, and N others prepared as one batch (Payout > Prepare,
// Approval = One for All Items) and paid by Payout > Confirm of that batch, in n8n's engine against
// the sandbox gateway, each size in the same process one after the other. Stores the times in
// docs/results/bench-batch.json and renders docs/benchmarks.md; prints a PASS/FAIL line: at the
// largest size, Prepare and Confirm together may cost at most 1.2 times Create.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { jsonOf, run, setUp, type Setup } from '../../test/harness/disbursementRuns';
import { numbers, readArgs } from './options';
import { renderDocs, type BatchFigures, type BatchRun } from './render';
import { commandLine, nowUtc, thisMachine, writeResult, type StoredResult } from './results';

const say = (line = '') => process.stdout.write(`${line}\n`);

/** The most Prepare and Confirm together may cost, as a multiple of Create of the same rows. */
export const BATCH_BOUND = 1.2;

const VERSION = 3;

/** The e-wallet form, fields mapped with an expression each, as the benchmark's node route. */
const parameters = (operation: string, concurrency: number, extra: INodeParameters = {}) => ({
	resource: 'payout',
	operation,
	channelType: 'eWallet',
	channel: 'GCASH',
	mappingMode: 'defineBelow',
	amount: '={{ $json.amount }}',
	referenceNo: '={{ $json.ref }}',
	mobileNumber: '={{ $json.mobile }}',
	callbackWebhookUrl: '',
	options: { concurrency },
	...extra,
});

const rowsOf = (n: number, tag: string): IDataObject[] =>
	Array.from({ length: n }, (_, i) => ({
		ref: `BATCH-${tag}-${String(i + 1).padStart(6, '0')}`,
		amount: 100 + (i % 50),
		mobile: `0917${String(1000000 + i).slice(-7)}`,
	}));

async function timed<T>(step: () => Promise<T>): Promise<[T, number]> {
	const started = performance.now();
	const answer = await step();
	return [answer, (performance.now() - started) / 1000];
}

async function measure(s: Setup, n: number, concurrency: number): Promise<BatchRun> {
	const tag = `${n}-${Date.now()}`;
	const [created, createSeconds] = await timed(
		async () =>
			await run(s, parameters('create', concurrency), {
				items: rowsOf(n, `C${tag}`),
				typeVersion: VERSION,
			}),
	);
	const rows = rowsOf(n, `B${tag}`);
	const batchParameters = { approvalScope: 'batch' };
	const [prepared, prepareSeconds] = await timed(
		async () =>
			await run(s, parameters('prepare', concurrency, batchParameters), {
				items: rows,
				typeVersion: VERSION,
			}),
	);
	const [batch] = jsonOf(prepared);
	// The approved batch rides on the first row, as `$('Prepare').first().json` gives it once.
	const confirmRows = rows.map((row, i) => (i === 0 ? { ...row, batch } : row));
	const [confirmed, confirmSeconds] = await timed(
		async () =>
			await run(
				s,
				parameters('confirm', concurrency, {
					...batchParameters,
					approvedBatch: '={{ $json.batch }}',
				}),
				{ items: confirmRows, typeVersion: VERSION },
			),
	);
	const byReference = s.gw.stats().creationsByReference;
	const paidOnce =
		!created.error &&
		!prepared.error &&
		!confirmed.error &&
		[...rows, ...rowsOf(n, `C${tag}`)].every((row) => byReference[String(row.ref)] === 1);
	return {
		n,
		concurrency,
		createSeconds,
		prepareSeconds,
		confirmSeconds,
		ratio: (prepareSeconds + confirmSeconds) / createSeconds,
		paidOnce,
	};
}

/** Runs the route; the exit code (1 when the bound is broken or a payout was not paid once). */
export async function batchApprovalRoute(argv: string[]): Promise<number> {
	const values = readArgs(argv, {});
	const sizes = numbers(values.sizes, '--sizes', values.quick ? [200, 1000] : [1000, 10000]);
	const [concurrency] = numbers(values.concurrency, '--concurrency', [8]);
	say(
		`Batch approval: ${sizes.join(', ')} e-wallet payouts, concurrency ${concurrency}: Create, then Prepare + Confirm of a batch`,
	);
	const s = await setUp();
	const runs: BatchRun[] = [];
	try {
		// One warm-up, so the first size does not pay for loading modules.
		await measure(s, 50, concurrency);
		for (const n of sizes) {
			const measured = await measure(s, n, concurrency);
			runs.push(measured);
			say(
				`  N=${String(n).padEnd(6)} Create ${measured.createSeconds.toFixed(2)} s  Prepare ${measured.prepareSeconds.toFixed(2)} s  Confirm ${measured.confirmSeconds.toFixed(2)} s  ratio ${measured.ratio.toFixed(2)}${measured.paidOnce ? '' : '  NOT PAID ONCE'}`,
			);
		}
	} finally {
		await s.gw.close();
	}
	const last = runs[runs.length - 1];
	const pass = runs.every((r) => r.paidOnce) && last.ratio <= BATCH_BOUND;
	say(
		`${pass ? 'PASS' : 'FAIL'} batch approval: at N=${last.n} Prepare + Confirm took ${last.ratio.toFixed(2)} times Create (bound ${BATCH_BOUND})`,
	);
	const result: StoredResult<BatchFigures> = {
		kind: 'bench-batch',
		date: nowUtc(),
		command: commandLine('npm run bench', ['--batch-approval', ...argv]),
		machine: thisMachine(),
		versions: { node: process.version },
		settings: { sizes, concurrency, latencyMs: 0, nodeVersion: VERSION },
		notes: [],
		figures: { runs, bound: BATCH_BOUND },
	};
	writeResult(result);
	for (const doc of renderDocs()) say(`rendered ${doc}`);
	return pass ? 0 : 1;
}
