/**
 * A seeded, randomised fault run per money-moving operation: 1,000 spreadsheet rows (a few of
 * them repeated, as spreadsheets do), run three times as a user re-runs a failed workflow —
 * run 1 under many faults, run 2 over the same rows with some faults still on, run 3 clean.
 * Every run: each input item yields exactly one output item, no reference is ever created twice,
 * and every error says what happened. After run 3 every row has its one transaction or payout.
 *
 * The seed is in the name of each run's test, so a failure names it; FAULT_SEED=<seed> runs the
 * same rows with the same fault rules and random sequences again (TEST_REPORT=1 prints each run's
 * figures). Rows run 50 at a time, so which row a fault lands on can still vary with timing;
 * the checks hold for any interleaving.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { FaultRule } from '../../sandbox';
import { seededRandom } from '../../sandbox/server/faults';
import { report } from '../harness/report';
import {
	collectionOperation,
	faultSeed,
	payoutOperation,
	recordFaultHits,
	recordRequests,
	reportSecretScan,
	type FaultHit,
	type MoneyOperation,
} from '../harness/moneyOperations';

const SEED = faultSeed();
const ROWS = 1000;
/** About one row in fifty repeats an earlier row (same reference, amount and channel). */
const REPEAT_RATE = 0.02;

/** In the name of every run's test: a failure's report says which FAULT_SEED replays it. */
const RUNS = `%s: 1,000 rows, three runs (FAULT_SEED=${SEED})`;

const hooks = new Map<string, (line: string) => void>();
const ops: MoneyOperation[] = [];
let faultHits: { hits: FaultHit[]; restore(): void };
let sent: ReturnType<typeof recordRequests>;

beforeAll(async () => {
	ops.push(await collectionOperation({ log: (line) => hooks.get('Generate')?.(line) }));
	ops.push(await payoutOperation({ log: (line) => hooks.get('Payout Create')?.(line) }));
	faultHits = recordFaultHits();
	sent = recordRequests();
});
afterAll(async () => {
	faultHits.restore();
	sent.restore();
	reportSecretScan(
		'randomised fault runs',
		ops.map((op) => op.setup.store),
	);
	await Promise.all(ops.map(async (op) => await op.setup.gw.close()));
});

interface Plan {
	faults: FaultRule[];
	/** Every issued token stops working after this many answered creates (0 = never). */
	expireTokensAfter: number;
	timeoutSeconds: number;
}

function plans(op: MoneyOperation, random: () => number): Plan[] {
	const seed = () => Math.floor(random() * 0x100000000);
	const create = (rule: Omit<FaultRule, 'path' | 'method' | 'seed'>): FaultRule => ({
		method: 'POST',
		path: op.createPath,
		seed: seed(),
		...rule,
	});
	const lookup = (rule: Omit<FaultRule, 'path' | 'method' | 'seed'>): FaultRule => ({
		method: 'GET',
		path: op.lookupPath,
		seed: seed(),
		...rule,
	});
	return [
		{
			faults: [
				create({ mode: 'error-before', status: 502, probability: 0.03 }),
				create({ mode: 'drop-before', probability: 0.02 }),
				create({ mode: 'error-after', status: 503, probability: 0.04 }),
				create({ mode: 'drop-after', probability: 0.04 }),
				create({ mode: 'timeout-after', holdMs: 1500, probability: 0.01 }),
				create({ mode: 'malformed', probability: 0.03 }),
				lookup({ mode: 'error-before', status: 500, probability: 0.04 }),
				lookup({ mode: 'drop-after', probability: 0.02 }),
			],
			expireTokensAfter: 100 + Math.floor(random() * 800),
			timeoutSeconds: 1,
		},
		{
			faults: [
				create({ mode: 'error-after', status: 500, probability: 0.03 }),
				create({ mode: 'drop-after', probability: 0.02 }),
				create({ mode: 'error-before', status: 502, probability: 0.02 }),
				lookup({ mode: 'error-before', status: 503, probability: 0.03 }),
				// The token request that follows the expiry below fails once.
				{ method: 'POST', path: op.tokenPath, mode: 'error-before', status: 500, times: 1 },
			],
			expireTokensAfter: 100 + Math.floor(random() * 800),
			timeoutSeconds: 1,
		},
		{ faults: [], expireTokensAfter: 0, timeoutSeconds: 30 },
	];
}

/** The spreadsheet: mostly unique rows, some repeated exactly further down. */
function spreadsheet(op: MoneyOperation, random: () => number): IDataObject[] {
	const rows: IDataObject[] = [];
	const collectionChannels = ['GCASH_TRN', 'PAYMAYA_QR', 'BAYAD', 'PAYANDGO', 'PALAWANPAY_OTC'];
	const payoutChannels = ['GCASH', 'PAYMAYA'];
	for (let i = 0; i < ROWS; i++) {
		if (i > 0 && random() < REPEAT_RATE) {
			rows.push({ ...rows[Math.floor(random() * i)] });
			continue;
		}
		const amount = (1 + Math.floor(random() * 5_000_000)) / 100;
		const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
		const ref = `${op.noun.toUpperCase()}-${SEED}-${String(i).padStart(4, '0')}`;
		if (op.noun === 'transaction') {
			rows.push(op.row(ref, amount, { channel: pick(collectionChannels) }));
		} else {
			const digits = String(Math.floor(random() * 1e9)).padStart(9, '0');
			rows.push(
				op.row(ref, amount, {
					channel: pick(payoutChannels),
					mobile: random() < 0.5 ? `09${digits}` : `+639${digits}`,
				}),
			);
		}
	}
	return rows;
}

interface RunFigures {
	run: number;
	items: number;
	succeeded: number;
	errors: number;
	/** Errors by kind: outcome not known yet after 3 attempts / could not confirm / token request failed. */
	errorKinds: { outcomeUnknown: number; unconfirmed: number; tokenFailed: number };
	replays: number;
	/**
	 * Rows that existed before the run but came back as replayed: false: their create's answer was
	 * lost (an injected fault, or a time-out on a busy machine), so the item cannot know whether
	 * its own request made the record. Reported, not bounded: client time-outs are not counted.
	 */
	unclearReplays: number;
	faultsHit: number;
	lookups: number;
	resends: number;
	tokenRequests: number;
	newRecords: number;
	duplicates: number;
	lost: number;
}

/**
 * Checks one run's output against the service and returns its figures. `existedBefore`: the
 * references the service held when the run started.
 */
function checkRun(
	op: MoneyOperation,
	run: number,
	rows: IDataObject[],
	output: INodeExecutionData[],
	existedBefore: Set<string>,
	hits: FaultHit[],
): RunFigures {
	const stats = op.setup.gw.stats();
	const creations = stats.creationsByReference;
	const refOf = (i: number) => rows[i].ref as string;
	const rowsPerRef = new Map<string, number[]>();
	rows.forEach((_, i) => rowsPerRef.set(refOf(i), [...(rowsPerRef.get(refOf(i)) ?? []), i]));
	const succeededRefs = new Set<string>();
	output.forEach((item, position) => {
		if (typeof item.json.error !== 'string') succeededRefs.add(refOf(position));
	});

	// Nothing lost: exactly one output item per input item, in input order.
	const outputsPerItem = new Array<number>(rows.length).fill(0);
	for (const item of output) outputsPerItem[(item.pairedItem as { item: number }).item]++;
	const lost = outputsPerItem.filter((count) => count !== 1).length;
	expect(lost).toBe(0);
	expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual(
		rows.map((_, i) => i),
	);

	let errors = 0;
	const errorKinds = { outcomeUnknown: 0, unconfirmed: 0, tokenFailed: 0 };
	let replays = 0;
	let unclearReplays = 0;
	const { noun, label } = op;
	output.forEach((item, i) => {
		const ref = refOf(i);
		const twins = rowsPerRef.get(ref)!.length > 1;
		if (typeof item.json.error === 'string') {
			errors++;
			expect(item.json.itemIndex).toBe(i);
			const message = item.json.error;
			const firstRow = rowsPerRef.get(ref)![0];
			// A repeated row sends nothing: after its first row failed, the look-up found nothing either.
			const repeatNotSent =
				i !== firstRow &&
				message ===
					`Not sent: row ${firstRow + 1} has the same reference_no "${ref}", and a look-up found no ${noun} with it (row ${i + 1})`;
			if (repeatNotSent) expect(typeof output[firstRow].json.error).toBe('string');
			const outcomeUnknown =
				repeatNotSent ||
				message.startsWith(
					`The outcome of the ${noun} "${ref}" is not known yet: none of 3 attempts got a clear answer. `,
				);
			// The look-up after an unclear answer, or after "already taken", failed too.
			const unconfirmed =
				(message.startsWith(`Could not confirm whether the ${noun} "${ref}" was created: `) &&
					message.includes('; the look-up failed too (')) ||
				message.startsWith(
					`reference_no "${ref}" is already used, and looking the ${noun} up to compare it failed (`,
				);
			// A failed token step stops the run: the rows after it were not sent.
			const tokenFailed = message
				.replace(/^Not sent, because the run stopped: /, '')
				.startsWith(`The ${label} token request failed with HTTP 500`);
			if (!(outcomeUnknown || unconfirmed || tokenFailed))
				throw new Error(`Run ${run}, item ${i}: unexpected error "${message}"`);
			errorKinds[outcomeUnknown ? 'outcomeUnknown' : unconfirmed ? 'unconfirmed' : 'tokenFailed']++;
			// Not known to the node, but known here: a look-up that answers reads the sandbox's real
			// state (no fault here makes it answer empty), so nothing was created (unless a repeated
			// row created it afterwards).
			if (outcomeUnknown && !(twins && succeededRefs.has(ref)))
				expect(creations[ref]).toBeUndefined();
			if (tokenFailed && !twins && !existedBefore.has(ref)) expect(creations[ref]).toBeUndefined();
			return;
		}
		// A row that got over a lost or unclear answer says which; the record itself is the service's.
		const { recoveredAfter } = item.json;
		expect(item.json).toEqual({
			...(op.record(ref) as IDataObject),
			replayed: item.json.replayed,
			...(recoveredAfter === undefined ? {} : { recoveredAfter }),
		});
		if (recoveredAfter !== undefined) {
			expect(typeof recoveredAfter).toBe('string');
			expect(item.json.replayed).toBe(false);
		}
		// Created by this run exactly once, or by an earlier run and not again.
		expect(creations[ref]).toBe(existedBefore.has(ref) ? undefined : 1);
		if (item.json.replayed === true) {
			replays++;
			// A replay is only ever claimed for a record made earlier: by an earlier run or a repeated row.
			expect(existedBefore.has(ref) || twins).toBe(true);
		} else {
			expect(item.json.replayed).toBe(false);
			if (existedBefore.has(ref)) unclearReplays++;
		}
	});

	// Zero duplicates: no reference was ever created twice, in this run or any earlier one.
	const duplicates = Object.values(creations).filter((count) => count > 1).length;
	expect(duplicates).toBe(0);
	for (const ref of Object.keys(creations)) expect(rowsPerRef.has(ref)).toBe(true);
	// ...nor again in a later run.
	expect(Object.keys(creations).filter((ref) => existedBefore.has(ref))).toEqual([]);

	const attempts = stats.attemptsByReference;
	const resends = [...rowsPerRef].reduce(
		(sum, [ref, indexes]) => sum + Math.max(0, (attempts[ref] ?? 0) - indexes.length),
		0,
	);
	return {
		run,
		items: rows.length,
		succeeded: rows.length - errors,
		errors,
		errorKinds,
		replays,
		unclearReplays,
		faultsHit: hits.length,
		lookups: stats.requestsByPath[`GET ${op.lookupPath}`] ?? 0,
		resends,
		tokenRequests: stats.requestsByPath[`POST ${op.tokenPath}`] ?? 0,
		newRecords: Object.keys(creations).filter((ref) => !existedBefore.has(ref)).length,
		duplicates,
		lost,
	};
}

describe.each(['Generate', 'Payout Create'])(RUNS, (name) => {
	const figures: RunFigures[] = [];
	let op: MoneyOperation;
	let rows: IDataObject[];
	let runPlans: Plan[];
	const existed = new Set<string>();

	beforeAll(() => {
		op = ops.find((candidate) => candidate.name === name)!;
		const random = seededRandom(SEED ^ (name === 'Generate' ? 0x1234567 : 0x7654321));
		rows = spreadsheet(op, random);
		runPlans = plans(op, random);
	});

	afterAll(() => {
		hooks.delete(name);
		const total = figures.reduce(
			(sum, f) => ({
				items: sum.items + f.items,
				faultsHit: sum.faultsHit + f.faultsHit,
				lookups: sum.lookups + f.lookups,
				resends: sum.resends + f.resends,
				replays: sum.replays + f.replays,
				errors: sum.errors + f.errors,
				duplicates: sum.duplicates + f.duplicates,
				lost: sum.lost + f.lost,
			}),
			{
				items: 0,
				faultsHit: 0,
				lookups: 0,
				resends: 0,
				replays: 0,
				errors: 0,
				duplicates: 0,
				lost: 0,
			},
		);
		const lines = figures.map(
			(f) =>
				`  run ${f.run}: items=${f.items} ok=${f.succeeded} errors=${f.errors} ` +
				`(outcome unknown=${f.errorKinds.outcomeUnknown}, unconfirmed=${f.errorKinds.unconfirmed}, token failed=${f.errorKinds.tokenFailed}) ` +
				`new=${f.newRecords} replays=${f.replays} ` +
				`(lost answers of existing records=${f.unclearReplays}) faults hit=${f.faultsHit} look-ups=${f.lookups} ` +
				`resends=${f.resends} token requests=${f.tokenRequests} duplicates=${f.duplicates} lost=${f.lost}`,
		);
		report(
			[
				`${name}, FAULT_SEED=${SEED}, ${rows.length} rows (${new Set(rows.map((row) => row.ref)).size} distinct references):`,
				...lines,
				`  total: items=${total.items} faults hit=${total.faultsHit} look-ups=${total.lookups} resends=${total.resends} ` +
					`replays=${total.replays} errors=${total.errors} duplicates=${total.duplicates} lost=${total.lost}`,
			].join('\n'),
		);
	});

	test.each([1, 2, 3])(
		'run %i',
		async (run) => {
			const plan = runPlans[run - 1];
			const gw = op.setup.gw;
			gw.faults.clear();
			gw.resetStats();
			for (const rule of plan.faults) gw.faults.add(rule);
			let answered = 0;
			hooks.set(name, (line) => {
				if (
					plan.expireTokensAfter &&
					line.startsWith(`POST ${op.createPath} -> `) &&
					++answered === plan.expireTokensAfter
				) {
					gw.expireTokens();
				}
			});
			faultHits.hits.length = 0;
			sent.requests.length = 0;

			const result = await op.run(
				// No callback URL column: one expression less per row keeps 6,000 rows quick.
				op.parameters(
					{ concurrency: 50, timeoutSeconds: plan.timeoutSeconds },
					{ callbackWebhookUrl: '' },
				),
				rows,
				'continueRegularOutput',
			);
			expect(result.error).toBeUndefined();
			const output = result.outputs[0] ?? [];
			const existedBefore = new Set(existed);
			for (const ref of Object.keys(gw.stats().creationsByReference)) existed.add(ref);
			const f = checkRun(op, run, rows, output, existedBefore, faultHits.hits);
			figures.push(f);

			// Every create sent the row's own reference, amount and channel, and a resend sent exactly
			// what the first attempt did: the service's single-use reference is what stops a second payment.
			const bodies = new Map<string, Set<string>>();
			for (const request of sent.requests) {
				if (request.method !== 'POST' || request.path !== op.createPath) continue;
				const body = request.body as IDataObject;
				const ref = String(body.reference_no);
				bodies.set(ref, (bodies.get(ref) ?? new Set()).add(JSON.stringify(body)));
			}
			const rowOf = new Map(rows.map((row) => [row.ref as string, row]));
			expect([...bodies.keys()].filter((ref) => !rowOf.has(ref))).toEqual([]);
			expect([...bodies].filter(([, variants]) => variants.size !== 1).map(([ref]) => ref)).toEqual(
				[],
			);
			for (const [ref, variants] of bodies) {
				const body = JSON.parse([...variants][0]) as IDataObject;
				const row = rowOf.get(ref)!;
				expect([ref, body.amount, body.channel_code ?? body.channel]).toEqual([
					ref,
					row.amount,
					row.channel,
				]);
			}

			if (run === 1) {
				// The faults did hit, and some rows were left for the re-run.
				expect(f.faultsHit).toBeGreaterThan(100);
				expect(f.lookups).toBeGreaterThan(50);
				expect(f.resends).toBeGreaterThan(10);
				expect(f.errors).toBeGreaterThan(0);
			}
			if (run === 2) {
				// The token request after the expiry failed once: the rows waiting on it failed cleanly.
				expect(faultHits.hits.filter((hit) => hit.path === op.tokenPath)).toHaveLength(1);
			}
			if (run === 3) {
				// Clean: every row has its one record; rows created earlier come back as replays, and a
				// reference first created now is "new" for exactly one of its rows.
				expect(f.errors).toBe(0);
				const distinct = [...new Set(rows.map((row) => row.ref as string))];
				const creations = gw.stats().creationsByReference;
				expect(distinct.every((ref) => existed.has(ref))).toBe(true);
				const notReplayed = new Map<string, number>();
				output.forEach((item, i) => {
					const ref = rows[i].ref as string;
					if (item.json.replayed === false) notReplayed.set(ref, (notReplayed.get(ref) ?? 0) + 1);
				});
				expect(
					distinct.filter((ref) => (notReplayed.get(ref) ?? 0) !== (creations[ref] === 1 ? 1 : 0)),
				).toEqual([]);
				expect(f.faultsHit).toBe(0);
			}
		},
		60_000,
	);
});
