/**
 * 1,000 spreadsheet-like rows through n8n's engine with faults injected after the work is done:
 * one payout per valid row, one named error per invalid row on the error output, one token
 * request in all, and never a duplicate.
 */
import type { IDataObject } from 'n8n-workflow';

import { report } from '../harness/report';
import {
	bankRow,
	bankTransferParameters,
	eWalletParameters,
	gatewayPerSuite,
	jsonOf,
	pairs,
	run,
	setUp,
} from '../harness/disbursementRuns';
import { PAYOUT_PROCESS } from '../harness/servicePaths';

const s = gatewayPerSuite(setUp);

/** Row i: every 10th has a problem, of a kind that cycles; the rest are valid. */
function rows(count: number): { items: IDataObject[]; invalid: Map<number, string> } {
	const items: IDataObject[] = [];
	const invalid = new Map<number, string>();
	for (let i = 0; i < count; i++) {
		const ref = `BATCH-${String(i).padStart(4, '0')}`;
		const row = bankRow(ref, {
			amount: (i % 500) * 10 + 0.5,
			receiverMobile: i % 3 === 0 ? '09171234567' : '',
		});
		if (i % 10 === 7) {
			switch ((i / 10) % 4 | 0) {
				case 0:
					row.amount = 'twelve';
					invalid.set(i, `Amount "twelve" is not a number (row ${i + 1})`);
					break;
				case 1:
					delete row.accountNumber;
					delete row.senderLast;
					invalid.set(
						i,
						`2 fields to fix: Sender Last Name is required; Receiver Account Number is required (row ${i + 1})`,
					);
					break;
				case 2:
					row.ref = `${ref}#x`;
					invalid.set(
						i,
						`Reference No "${ref}#x" contains characters other than letters, digits, "-" and "_" (row ${i + 1})`,
					);
					break;
				default:
					row.receiverMobile = '0917-123';
					invalid.set(
						i,
						`Receiver Mobile Number "0917-123" is not a Philippine mobile number (row ${i + 1})`,
					);
			}
		}
		items.push(row);
	}
	return { items, invalid };
}

test('1,000 rows: one payout per valid row, one named error per invalid row, no duplicate under faults', async () => {
	const { items, invalid } = rows(1000);
	// Work done, then the answer is lost: 5xx, dropped connections, a time-out.
	s.gw.faults.add({
		method: 'POST',
		path: PAYOUT_PROCESS,
		mode: 'error-after',
		status: 503,
		probability: 0.05,
		seed: 11,
	});
	s.gw.faults.add({
		method: 'POST',
		path: PAYOUT_PROCESS,
		mode: 'drop-after',
		probability: 0.05,
		seed: 12,
	});
	s.gw.faults.add({
		method: 'POST',
		path: PAYOUT_PROCESS,
		mode: 'timeout-after',
		holdMs: 1500,
		times: 3,
	});
	// Refused before any work: the node must resend the same reference_no after its look-up.
	s.gw.faults.add({
		method: 'POST',
		path: PAYOUT_PROCESS,
		mode: 'error-before',
		status: 502,
		probability: 0.02,
		seed: 13,
	});

	const started = Date.now();
	const result = await run(
		s,
		bankTransferParameters({ options: { concurrency: 16, timeoutSeconds: 1 } }),
		{
			items,
			onError: 'continueErrorOutput',
		},
	);
	const elapsed = Date.now() - started;

	expect(result.error).toBeUndefined();
	const validIndexes = items.map((_, i) => i).filter((i) => !invalid.has(i));
	expect(validIndexes).toHaveLength(900);

	// Success output: one payout per valid row, in input order, paired with its row.
	expect(result.outputs[0]).toHaveLength(900);
	expect(pairs(result, 0)).toEqual(validIndexes);
	jsonOf(result, 0).forEach((payout, position) => {
		const row = items[validIndexes[position]];
		expect(payout).toMatchObject({
			reference_no: row.ref,
			amount: row.amount,
			channel: 'INSTAPAY',
			status: 'pending',
		});
	});

	// Error output: one error per invalid row, naming what to fix.
	expect(pairs(result, 1)).toEqual([...invalid.keys()]);
	expect(jsonOf(result, 1).map((item) => item.error)).toEqual([...invalid.values()]);

	const stats = s.gw.stats();
	expect(stats.tokenRequests.disbursement).toBe(1);
	const creations = stats.creationsByReference;
	expect(Object.keys(creations)).toHaveLength(900);
	expect(Object.values(creations).every((n) => n === 1)).toBe(true);
	expect(Object.keys(creations).sort()).toEqual(
		validIndexes.map((i) => items[i].ref as string).sort(),
	);
	// The faults did hit: each unclear answer made the node look the reference up, and each
	// refusal before the work made it resend the same reference.
	const lookups = stats.requestsByPath['GET /v1/api/disbursement/transactions'];
	expect(lookups).toBeGreaterThan(50);
	const retried = Object.values(stats.attemptsByReference).filter((n) => n > 1).length;
	expect(retried).toBeGreaterThan(5);
	// Invalid rows never reached the service.
	for (const i of invalid.keys())
		expect(stats.attemptsByReference[items[i].ref as string]).toBeUndefined();
	report(
		`1,000 rows in ${elapsed} ms; ${lookups} look-ups after unclear answers, ${retried} references resent`,
	);
}, 30_000);

test('a rerun of the same rows replays every payout and creates none', async () => {
	// No faults here: a lost answer would leave the node unable to tell a replay from its own payout.
	s.gw.faults.clear();
	const items = Array.from({ length: 50 }, (_, i) => ({
		ref: `RERUN-${i}`,
		amount: 100 + i,
		mobile: '09171234567',
	}));
	await run(s, eWalletParameters(), { items });
	s.gw.resetStats();
	const again = await run(s, eWalletParameters(), { items, onError: 'continueErrorOutput' });
	expect(again.outputs[0]).toHaveLength(50);
	expect(again.outputs[1] ?? []).toHaveLength(0);
	expect(jsonOf(again, 0).every((payout) => payout.replayed === true)).toBe(true);
	expect(pairs(again, 0)).toEqual(items.map((_, i) => i));
	expect(s.gw.stats().creationsByReference).toEqual({});
});

describe('without continue-on-fail, items are read ahead but nothing after a failed item is sent', () => {
	const sentReferences = () => Object.keys(s.gw.stats().attemptsByReference).sort();
	const payoutRows = (prefix: string, count: number) =>
		Array.from({ length: count }, (_, i) => ({
			ref: `${prefix}-${String(i).padStart(2, '0')}`,
			amount: 100 + i,
			mobile: '09171234567',
		}));

	test('an invalid row: every row before it is paid, none after it, and the run fails with its error', async () => {
		s.gw.faults.clear();
		s.gw.resetStats();
		// Latency keeps requests out while the rows after them are read.
		s.gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, mode: 'latency', latencyMs: 30 });
		const items = payoutRows('STOP-READ', 40);
		items[25].amount = 'twenty' as unknown as number;
		const result = await run(s, eWalletParameters({ options: { concurrency: 8 } }), { items });

		expect(result.error?.message).toBe('Amount "twenty" is not a number (row 26)');
		expect(sentReferences()).toEqual(items.slice(0, 25).map((row) => row.ref));
		expect(Object.values(s.gw.stats().creationsByReference).every((n) => n === 1)).toBe(true);
	});

	test('a refused payout: the row read while it was out is never sent', async () => {
		s.gw.faults.clear();
		s.gw.resetStats();
		s.gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, mode: 'latency', latencyMs: 30 });
		const items = payoutRows('STOP-SEND', 20);
		// The service refuses row 10: its reference is taken by a payout for another amount.
		await run(s, eWalletParameters(), { items: [{ ...items[10], amount: 5 }] });
		s.gw.resetStats();
		// One at a time, row 11 is read while row 10 is out.
		const result = await run(s, eWalletParameters({ options: { concurrency: 1 } }), { items });

		expect(result.error?.context?.itemIndex).toBe(10);
		expect(result.error?.message).toContain('already used');
		expect(sentReferences()).toEqual(items.slice(0, 11).map((row) => row.ref));
		expect(s.gw.stats().creationsByReference[items[10].ref]).toBeUndefined();
	});
});
