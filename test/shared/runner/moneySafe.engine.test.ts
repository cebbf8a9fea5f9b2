/**
 * Money-safe Generate: under injected faults, retries (the node's own, n8n's Retry On Fail and
 * re-running the workflow) never make a second transaction for a reference_no, and every input
 * item yields exactly one output item.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { FaultRule } from '../../../sandbox';
import { runNode } from '../../harness';
import {
	NODE_TYPE,
	gatewayPerSuite,
	generateParameters,
	run,
	setUp,
} from '../../harness/collectionRuns';

const GENERATE_PATH = '/v1/biller/transactions/generate';
const LOOKUP_PATH = '/v1/biller/transactions';

const s = gatewayPerSuite(setUp, { afterEach: (setup) => setup.gw.faults.clear() });

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;
const stats = () => s.gw.stats();
const lookups = () => stats().requestsByPath[`GET ${LOOKUP_PATH}`] ?? 0;
// Long enough that only a held answer times out: on a busy two-core machine a first request can
// take a few hundred milliseconds, and a request given up before it arrives is a different case
// (nothing created, sent again). The gateway holds a time-out's answer twice as long.
const TIMEOUT_SECONDS = 2;
const fast = generateParameters({ options: { timeoutSeconds: TIMEOUT_SECONDS, concurrency: 16 } });

describe('a fault after the work is done: looked up, returned once, never resent', () => {
	it.each<[string, Omit<FaultRule, 'path'>]>([
		['a 500 answer', { mode: 'error-after', status: 500 }],
		['a 502 answer', { mode: 'error-after', status: 502 }],
		['a dropped connection', { mode: 'drop-after' }],
		['a time-out', { mode: 'timeout-after', holdMs: TIMEOUT_SECONDS * 2000 }],
		['a body cut off mid-JSON', { mode: 'malformed' }],
	])('%s', async (_name, fault) => {
		const reference = ref('AFTER');
		s.gw.faults.add({ method: 'POST', path: GENERATE_PATH, times: 1, ...fault });
		const before = lookups();
		const result = await run(s, fast, { items: [{ ref: reference, amount: 321.5 }] });
		expect(result.error).toBeUndefined();
		// The link is the one the lost answer carried; this item created it, so it is no replay,
		// and the item says what it recovered from.
		expect(result.outputs).toEqual([
			[
				{
					json: {
						...s.gw.getTransaction(reference),
						replayed: false,
						recoveredAfter: expect.any(String),
					},
					pairedItem: { item: 0 },
				},
			],
		]);
		expect(result.outputs[0][0].json.recoveredAfter).toMatch(/HTTP 50\d|No answer|not valid JSON/);
		expect(stats().attemptsByReference[reference]).toBe(1);
		expect(stats().creationsByReference[reference]).toBe(1);
		expect(lookups() - before).toBe(1);
	});
});

describe('a fault before the work: looked up, not found, resent with the same reference', () => {
	it.each<[string, Omit<FaultRule, 'path'>]>([
		['a 503 answer', { mode: 'error-before', status: 503 }],
		['a dropped connection', { mode: 'drop-before' }],
	])('%s', async (_name, fault) => {
		const reference = ref('BEFORE');
		s.gw.faults.add({ method: 'POST', path: GENERATE_PATH, times: 1, ...fault });
		const result = await run(s, fast, { items: [{ ref: reference, amount: 12 }] });
		expect(result.outputs).toEqual([
			[
				{
					json: {
						...s.gw.getTransaction(reference),
						replayed: false,
						recoveredAfter: expect.any(String),
					},
					pairedItem: { item: 0 },
				},
			],
		]);
		expect(stats().attemptsByReference[reference]).toBe(2);
		expect(stats().creationsByReference[reference]).toBe(1);
		expect(s.gw.lastRequestBody(GENERATE_PATH)).toEqual({
			channel_code: 'GCASH_TRN',
			amount: 12,
			reference_no: reference,
		});
	});
});

describe('500 generate calls under random faults, then a re-run', () => {
	const COUNT = 500;
	const refs = Array.from({ length: COUNT }, (_, index) => `BULK-${index + 1}`);
	const input: IDataObject[] = refs.map((reference, index) => ({
		ref: reference,
		amount: 10 + (index % 90),
	}));
	const isError = (item: INodeExecutionData) => typeof item.json.error === 'string';
	// Under load a look-up can take a while: 1 s, with held answers held longer.
	const bulk = generateParameters({ options: { timeoutSeconds: 1, concurrency: 16 } });
	let firstRun: INodeExecutionData[];

	it('each item yields exactly one output item, success or error, and no reference is created twice', async () => {
		for (const rule of [
			{ mode: 'error-after', status: 500, probability: 0.08, seed: 11 },
			{ mode: 'drop-after', probability: 0.06, seed: 12 },
			{ mode: 'timeout-after', holdMs: 1500, probability: 0.03, seed: 13 },
			{ mode: 'malformed', probability: 0.03, seed: 14 },
			{ mode: 'error-before', status: 502, probability: 0.05, seed: 15 },
			{ mode: 'drop-before', probability: 0.05, seed: 16 },
		] as const) {
			s.gw.faults.add({ method: 'POST', path: GENERATE_PATH, ...rule });
		}
		// Some look-ups fail too, so some items cannot be confirmed in this run.
		s.gw.faults.add({
			method: 'GET',
			path: LOOKUP_PATH,
			mode: 'error-before',
			status: 500,
			probability: 0.1,
			seed: 17,
		});

		const result = await run(s, bulk, { items: input, onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		firstRun = result.outputs[0];
		expect(firstRun).toHaveLength(COUNT);
		const creations = stats().creationsByReference;
		firstRun.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			if (isError(item)) {
				expect(item.json.itemIndex).toBe(index);
				expect(creations[refs[index]] ?? 0).toBeLessThanOrEqual(1);
			} else {
				const { recoveredAfter } = item.json;
				expect(item.json).toEqual({
					...s.gw.getTransaction(refs[index]),
					replayed: false,
					...(recoveredAfter ? { recoveredAfter } : {}),
				});
				expect(creations[refs[index]]).toBe(1);
			}
		});
		// The faults did happen: retries and look-ups were needed, and some items could not be confirmed.
		const attempts = stats().attemptsByReference;
		expect(refs.filter((reference) => attempts[reference] > 1).length).toBeGreaterThan(10);
		expect(firstRun.filter(isError).length).toBeGreaterThan(0);
		expect(Object.values(creations).every((count) => count === 1)).toBe(true);
	});

	it('the re-run completes every item: one transaction per reference_no, earlier ones as replays', async () => {
		const createdBefore = { ...stats().creationsByReference };
		const result = await run(s, bulk, { items: input, onError: 'continueRegularOutput' });
		expect(result.outputs[0]).toEqual(
			refs.map((reference, index) => ({
				json: { ...s.gw.getTransaction(reference), replayed: createdBefore[reference] === 1 },
				pairedItem: { item: index },
			})),
		);
		const creations = stats().creationsByReference;
		expect(refs.map((reference) => creations[reference])).toEqual(refs.map(() => 1));
		// Items that failed in the first run only because their look-up failed were created then.
		expect(
			firstRun
				.filter(isError)
				.some((item) => createdBefore[refs[item.json.itemIndex as number]] === 1),
		).toBe(true);
	});
});

describe("n8n's Retry On Fail", () => {
	it('retrying the node after an item failed returns the existing transactions instead of new ones', async () => {
		const refs = Array.from({ length: 20 }, () => ref('RETRY'));
		// The first generate's answer is lost and its look-up fails: that item fails the first try,
		// after the items already in flight were created.
		s.gw.faults.add({ method: 'POST', path: GENERATE_PATH, mode: 'drop-after', times: 1 });
		s.gw.faults.add({
			method: 'GET',
			path: LOOKUP_PATH,
			mode: 'error-before',
			status: 500,
			times: 1,
		});
		const result = await runNode({
			type: NODE_TYPE,
			store: s.store,
			parameters: generateParameters({ options: { concurrency: 4 } }),
			items: refs.map((reference) => ({ ref: reference, amount: 40 })),
			nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});
		expect(result.error).toBeUndefined();
		// Sent twice = created by the first try, then "already taken" on the retry: a replay.
		const attempts = stats().attemptsByReference;
		expect(result.outputs[0]).toEqual(
			refs.map((reference, index) => ({
				json: { ...s.gw.getTransaction(reference), replayed: attempts[reference] === 2 },
				pairedItem: { item: index },
			})),
		);
		expect(refs.filter((reference) => attempts[reference] === 2).length).toBeGreaterThanOrEqual(1);
		expect(refs.every((reference) => attempts[reference] <= 2)).toBe(true);
		const creations = stats().creationsByReference;
		expect(refs.map((reference) => creations[reference])).toEqual(refs.map(() => 1));
	});
});
