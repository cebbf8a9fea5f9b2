/**
 * A batch approved once, in n8n's engine against the sandbox gateway: Payout > Prepare takes every
 * input item as one batch and sends nothing; Payout > Confirm pays exactly the approved list, once,
 * and refuses with nothing sent a list that differs in any bound fact, a row added or missing, and
 * a token expired, changed, of another credential or of another environment, naming the rows. A
 * second Confirm replays; one after a partial failure pays the rest.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../../sandbox';
import {
	addCredential,
	bankRow,
	bankTransferParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../../harness/disbursementRuns';
import {
	cappedPayout,
	payWithLedger,
	setUpWithLedger,
	type LedgerSetup,
} from '../../harness/ledgerRuns';
import { PAYOUT_PROCESS, PAYOUT_PROCESS_KEY } from '../../harness/servicePaths';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

const VERSION = 3;
const parameters = (operation: string, extra: INodeParameters = {}) =>
	bankTransferParameters({
		operation,
		approvalScope: 'batch',
		mappingMode: 'defineBelow',
		...extra,
	});

/** A sheet of `count` payouts, two of them to e-wallet-like amounts, one large. */
function sheet(prefix: string, count = 5): IDataObject[] {
	return Array.from({ length: count }, (_, index) =>
		bankRow(`${prefix}-${index + 1}`, {
			amount: 1000 + index * 250,
			accountNumber: `00123456789${index}`,
			accountName: `Employee ${index + 1}`,
			channel: index % 2 === 0 ? 'INSTAPAY' : 'PESONET',
		}),
	);
}

async function prepared(rows: IDataObject[], options: IDataObject = {}): Promise<IDataObject> {
	const result = await run(s, parameters('prepare', { options: options as INodeParameters }), {
		items: rows,
		typeVersion: VERSION,
	});
	expect(result.error).toBeUndefined();
	const out = jsonOf(result);
	expect(out).toHaveLength(1);
	return out[0];
}

async function confirm(
	batch: unknown,
	rows: IDataObject[],
	{
		credentialId,
		options = {},
		onError,
	}: { credentialId?: string; options?: IDataObject; onError?: 'continueErrorOutput' } = {},
) {
	return await run(
		s,
		parameters('confirm', {
			approvedBatch: '={{ $json.batch }}',
			options: options as INodeParameters,
		}),
		{
			// The batch rides on every row, as `$('Prepare').first().json` would give it.
			items: rows.map((row) => ({ ...row, batch: batch as IDataObject })),
			credentialId,
			typeVersion: VERSION,
			onError,
		},
	);
}

const sentPayouts = () => s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0;
const creations = (ref: string) => s.gw.stats().creationsByReference[ref] ?? 0;

test('Prepare takes every row as one batch: one item in words, its table, one token; nothing sent', async () => {
	const rows = sheet('BA-PREP');
	const result = await run(s, parameters('prepare'), { items: rows, typeVersion: VERSION });
	expect(result.error).toBeUndefined();
	expect(result.outputs[0][0].pairedItem).toEqual(rows.map((_, item) => ({ item })));
	const out = jsonOf(result)[0];
	expect(sentPayouts()).toBe(0);
	expect(out).toMatchObject({
		sent: false,
		payoutCount: 5,
		total: 7500,
		byChannel: [
			{ channel: 'INSTAPAY', count: 3, total: 4500 },
			{ channel: 'PESONET', count: 2, total: 3000 },
		],
		largest: { reference_no: 'BA-PREP-5', amount: 2000 },
		environment: 'sandbox',
	});
	expect(String(out.summary)).toMatch(
		/^Pay 5 payouts, PHP 7,500\.00 in total \(Sandbox\)\. By channel: INSTAPAY 3 payouts, PHP 4,500\.00; PESONET 2 payouts, PHP 3,000\.00\. Largest: PHP 2,000\.00, reference BA-PREP-5\. Batch batch-[0-9a-f]{12}, prepared .*, valid until /,
	);
	expect(String(out.approvalToken).startsWith(`${String(out.summary)} [pb1.`)).toBe(true);
	expect(out.payouts).toEqual(
		rows.map((row, index) => ({
			row: index + 1,
			reference_no: row.ref,
			amount: row.amount,
			channel: row.channel,
			bankCode: 'BDO',
			accountNumber: row.accountNumber,
			accountName: row.accountName,
		})),
	);
	const csv = String(out.csv).split('\r\n');
	expect(csv[0]).toBe(
		'Row,Reference,Amount,Channel,Bank Code,Account Number,Mobile Number,Account Name',
	);
	expect(csv[1]).toBe('1,BA-PREP-1,1000.00,INSTAPAY,BDO,001234567890,,Employee 1');
	expect(csv).toHaveLength(7);
	expect(String(out.html)).toContain('<td>BA-PREP-3</td><td>1500.00</td><td>INSTAPAY</td>');
	// The token stays small whatever the list: it binds the rows by their digest.
	expect(String(out.approvalToken).length).toBeLessThan(1200);
});

test('Prepare refuses the batch when any row cannot be paid, naming every such row; nothing prepared', async () => {
	const rows = sheet('BA-BAD');
	rows[1].amount = -5;
	rows[3].accountNumber = '';
	const result = await run(s, parameters('prepare'), { items: rows, typeVersion: VERSION });
	expect(result.error?.message).toMatch(
		/^2 of 5 rows cannot be paid, so nothing was prepared: row 2: .*Amount.*; row 4: .*[Aa]ccount/,
	);
	expect(sentPayouts()).toBe(0);
});

test('Prepare refuses a batch that repeats a reference', async () => {
	const rows = sheet('BA-TWICE', 3);
	rows[2].ref = 'BA-TWICE-1';
	const result = await run(s, parameters('prepare'), { items: rows, typeVersion: VERSION });
	expect(result.error?.message).toBe(
		'A batch pays each reference once, and row 3 (BA-TWICE-1) repeats the reference of row 1: nothing was prepared',
	);
});

test('Confirm pays exactly the approved list, each row once, in any order; the summary is its own output', async () => {
	const rows = sheet('BA-PAY');
	const batch = await prepared(rows);
	const reordered = [rows[3], rows[0], rows[4], rows[2], rows[1]];
	// One at a time, so the last request is the last row's.
	const result = await confirm(batch, reordered, { options: { concurrency: 1 } });
	expect(result.error).toBeUndefined();
	const paid = jsonOf(result);
	expect(paid.map((item) => [item.reference_no, item.amount, item.replayed])).toEqual(
		reordered.map((row) => [row.ref, row.amount, false]),
	);
	for (const row of rows) expect(creations(String(row.ref))).toBe(1);
	expect(sentPayouts()).toBe(5);
	// What was sent for a row is what Create sends for it.
	expect(s.gw.lastRequestBody(PAYOUT_PROCESS)).toMatchObject({
		reference_no: 'BA-PAY-2',
		amount: 1250,
		channel: 'PESONET',
		fields: { bank_code: 'BDO', receiver: { account_number: '001234567891' } },
	});
	const [summary] = jsonOf(result, 1);
	expect(summary).toMatchObject({
		batchId: batch.batchId,
		preparedAt: batch.preparedAt,
		environment: 'sandbox',
		approved: { payouts: 5, total: 7500 },
		paid: { payouts: 5, total: 7500 },
		replayed: { payouts: 0, total: 0 },
		refused: { payouts: 0, rows: [] },
		unclear: { payouts: 0, rows: [] },
		complete: true,
	});
	expect(String(summary.token)).toMatch(new RegExp(`^${String(batch.batchId)}/[A-Za-z0-9_-]{12}$`));
	expect(Date.parse(String(summary.confirmedAt))).toBeGreaterThanOrEqual(
		Date.parse(String(batch.preparedAt)),
	);

	// A second Confirm of the same batch pays nothing twice.
	const again = await confirm(batch, rows);
	expect(again.error).toBeUndefined();
	expect(jsonOf(again).every((item) => item.replayed === true)).toBe(true);
	expect(jsonOf(again, 1)[0]).toMatchObject({
		paid: { payouts: 0 },
		replayed: { payouts: 5, total: 7500 },
		complete: true,
	});
	for (const row of rows) expect(creations(String(row.ref))).toBe(1);
});

describe('a list that is not the approved one is refused, nothing sent, naming the rows', () => {
	const rows = sheet('BA-DIFF');
	let batch: IDataObject = {};
	beforeAll(async () => {
		freshStart(s);
		batch = await prepared(rows);
	});
	const edited = (index: number, change: IDataObject) =>
		rows.map((row, at) => (at === index ? { ...row, ...change } : row));

	test.each<[string, () => IDataObject[], RegExp]>([
		[
			'an amount',
			() => edited(2, { amount: 1600 }),
			/row 3 \(BA-DIFF-3\) differs: amount 1600\.00 \(approved 1500\.00\)/,
		],
		[
			'an account number',
			() => edited(1, { accountNumber: '009999999999' }),
			/row 2 \(BA-DIFF-2\) differs: account number 009999999999 \(approved 001234567891\)/,
		],
		[
			'a bank',
			() => edited(0, { bank: 'BPI' }),
			/row 1 \(BA-DIFF-1\) differs: bank code BPI \(approved BDO\)/,
		],
		[
			'a channel',
			() => edited(4, { channel: 'PESONET' }),
			/row 5 \(BA-DIFF-5\) differs: channel PESONET \(approved INSTAPAY\)/,
		],
		[
			'an account name',
			() => edited(3, { accountName: 'Someone Else' }),
			/row 4 \(BA-DIFF-4\) differs: account name Someone Else \(approved Employee 4\)/,
		],
		[
			'a reference',
			() => edited(0, { ref: 'BA-DIFF-X' }),
			/row 1 \(BA-DIFF-X\) was not approved.*; the approved payout BA-DIFF-1 \(approved row 1\) is missing/,
		],
		['a row added', () => [...rows, bankRow('BA-DIFF-6')], /row 6 \(BA-DIFF-6\) was not approved/],
		[
			'a row missing',
			() => rows.slice(0, 4),
			/the approved payout BA-DIFF-5 \(approved row 5\) is missing/,
		],
		[
			'a row given twice',
			() => [...rows, rows[1]],
			/row 6 \(BA-DIFF-2\) repeats the reference of row 2/,
		],
	])('%s changed after approval', async (_, given, named) => {
		const result = await confirm(batch, given());
		expect(result.error?.message).toMatch(
			/^The batch differs from the approved list in \d+ places?: /,
		);
		expect(result.error?.message).toMatch(named);
		expect(result.error?.message).toMatch(/: nothing was sent$/);
		expect(sentPayouts()).toBe(0);
	});

	test('the approved list given with the token changed', async () => {
		const payouts = (batch.payouts as IDataObject[]).map((row, index) =>
			index === 2 ? { ...row, amount: 1600 } : row,
		);
		const result = await confirm({ ...batch, payouts }, edited(2, { amount: 1600 }));
		expect(result.error?.message).toMatch(
			/list given with the token is not the list it approved.*nothing was sent/,
		);
		expect(sentPayouts()).toBe(0);
	});

	test('the token changed: its signed part, or its words', async () => {
		const token = String(batch.approvalToken);
		const [, words, version, encoded, signature] =
			/^(.*) \[(pb1)\.([^.]+)\.([^\]]+)\]$/.exec(token) ?? [];
		const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as IDataObject;
		const larger = Buffer.from(JSON.stringify({ ...payload, total: 1 })).toString('base64url');
		const changed = [
			`${words} [${version}.${larger}.${signature}]`,
			`${words.replace('PHP 7,500.00', 'PHP 750.00')} [${version}.${encoded}.${signature}]`,
		];
		const messages = [];
		for (const approvalToken of changed)
			messages.push((await confirm({ ...batch, approvalToken }, rows)).error?.message);
		expect(messages).toEqual([
			expect.stringMatching(
				/^The batch token was changed after it was prepared.*nothing was sent$/,
			),
			expect.stringMatching(/^The batch token does not read the summary Prepare wrote for it/),
		]);
		const notOne = await confirm({ approvalToken: 'Pay 5 payouts [pb1.e30.x]' }, rows);
		expect(notOne.error?.message).toMatch(/^The batch is not one Payout > Prepare gave/);
		expect(sentPayouts()).toBe(0);
	});

	test('another credential, and another environment', async () => {
		const secret = { signingSecret: SANDBOX_CREDENTIALS.signingSecret };
		const other = await confirm(batch, rows, { credentialId: addCredential(s, secret) });
		expect(other.error?.message).toMatch(/^The batch token was signed with another credential/);
		const production = addCredential(s, { ...secret, environment: 'production' });
		const elsewhere = await confirm(batch, rows, { credentialId: production });
		expect(elsewhere.error?.message).toMatch(
			/^The batch token was prepared for Sandbox at .*, but this credential is now Production/,
		);
		expect(sentPayouts()).toBe(0);
	});

	test('the token expired', async () => {
		const now = Date.now;
		const later = Date.parse(String(batch.expiresAt)) + 1;
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => Math.max(now(), later));
		try {
			const result = await confirm(batch, rows);
			expect(result.error?.message).toMatch(/^The batch token expired at .*: nothing was sent$/);
		} finally {
			clock.mockRestore();
		}
		expect(sentPayouts()).toBe(0);
	});

	test('with continue-on-fail, a refusal is one error item, never the rows passed through', async () => {
		const result = await confirm(batch, edited(2, { amount: 1600 }), {
			onError: 'continueErrorOutput',
		});
		// Rows and Summary empty; on the error output, the refusal (n8n merges it into the first row).
		expect([jsonOf(result), jsonOf(result, 1)]).toEqual([[], []]);
		expect(jsonOf(result, 2)).toEqual([
			expect.objectContaining({
				error: expect.stringMatching(/^The batch differs from the approved list/),
			}),
		]);
		expect(sentPayouts()).toBe(0);
	});

	test('the untouched list still pays', async () => {
		const result = await confirm(batch, rows);
		expect(result.error).toBeUndefined();
		for (const row of rows) expect(creations(String(row.ref))).toBe(1);
	});
});

test("Confirm's own limits apply to the batch: Maximum Total per Run and Maximum per Payout", async () => {
	const rows = sheet('BA-LIMIT');
	const batch = await prepared(rows);
	const total = await confirm(batch, rows, { options: { maxTotalPerRun: 7000 } });
	expect(total.error?.message).toMatch(/add up to 7,500, above the Maximum Total per Run/);
	const each = await confirm(batch, rows, { options: { maxAmountPerPayout: 1800 } });
	expect(each.error?.message).toMatch(/row 5: .*above the Maximum per Payout/);
	expect(sentPayouts()).toBe(0);
});

/** The service refuses the payout of `ref` once. */
const refuseOnce = (ref: string) =>
	s.gw.faults.add({
		method: 'POST',
		path: PAYOUT_PROCESS,
		referenceNo: ref,
		mode: 'error-before',
		status: 422,
		times: 1,
	});

test('a Confirm after a partial failure pays the rest, and what was paid is a replay', async () => {
	const rows = sheet('BA-PART');
	const batch = await prepared(rows);
	// The service refuses the third payout once: the run stops there, two rows paid.
	refuseOnce('BA-PART-3');
	const first = await confirm(batch, rows, { options: { concurrency: 1 } });
	expect(first.error?.message).toMatch(/BA-PART-3|row 3/);
	expect(rows.map((row) => creations(String(row.ref)))).toEqual([1, 1, 0, 0, 0]);

	const rerun = await confirm(batch, rows);
	expect(rerun.error).toBeUndefined();
	expect(jsonOf(rerun).map((item) => item.replayed)).toEqual([true, true, false, false, false]);
	expect(jsonOf(rerun, 1)[0]).toMatchObject({
		paid: { payouts: 3, total: 5250 },
		replayed: { payouts: 2, total: 2250 },
		complete: true,
	});
	for (const row of rows) expect(creations(String(row.ref))).toBe(1);
});

test('with continue-on-fail, the summary states what was paid and what was refused, and a re-run completes it', async () => {
	const rows = sheet('BA-REFUSED');
	const batch = await prepared(rows);
	refuseOnce('BA-REFUSED-3');
	const first = await confirm(batch, rows, { onError: 'continueErrorOutput' });
	expect(jsonOf(first, 2).map((row) => row.ref)).toEqual(['BA-REFUSED-3']);
	expect(jsonOf(first, 1)[0]).toMatchObject({
		approved: { payouts: 5, total: 7500 },
		paid: { payouts: 4, total: 6000 },
		refused: {
			payouts: 1,
			total: 1500,
			rows: [expect.objectContaining({ row: 3, reference_no: 'BA-REFUSED-3' })],
		},
		unclear: { payouts: 0 },
		complete: false,
	});
	const rerun = await confirm(batch, rows, { onError: 'continueErrorOutput' });
	expect(jsonOf(rerun, 1)[0]).toMatchObject({
		paid: { payouts: 1, total: 1500 },
		replayed: { payouts: 4, total: 6000 },
		complete: true,
	});
	for (const row of rows) expect(creations(String(row.ref))).toBe(1);
});

describe('with Maximum Total per Day', () => {
	const d = gatewayPerSuite(setUpWithLedger, {
		beforeEach: (setup) => {
			freshStart(setup);
			(setup as LedgerSetup).ledger.clear();
		},
	}) as LedgerSetup;
	afterAll(async () => await d.ledger.close());
	const wallets = (prefix: string) =>
		[1, 2, 3].map((i) => ({ ref: `${prefix}-${i}`, amount: 1000, mobile: '09171234567' }));
	const batchOf = (operation: string, options: IDataObject, extra: INodeParameters = {}) => ({
		...cappedPayout(options),
		operation,
		approvalScope: 'batch',
		...extra,
	});

	test("Prepare states the day's figures for the whole batch, Confirm reserves and pays each row", async () => {
		const rows = wallets('BA-DAY');
		const prepared = await payWithLedger(d, batchOf('prepare', { maxTotalPerDay: '10000' }), rows);
		expect(prepared.error).toBeUndefined();
		const [batch] = jsonOf(prepared);
		expect(batch.dailyTotal).toMatchObject({ totalBefore: 0, total: 3000, remaining: 7000 });
		expect(String(batch.summary)).toMatch(
			/Today \(\d{4}-\d{2}-\d{2}, Asia\/Manila\) so far PHP 0\.00 of PHP 10,000\.00; after this batch PHP 3,000\.00, PHP 7,000\.00 left/,
		);
		expect(d.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0).toBe(0);
		const confirmed = await payWithLedger(
			d,
			batchOf('confirm', { maxTotalPerDay: '10000' }, { approvedBatch: '={{ $json.batch }}' }),
			rows.map((row) => ({ ...row, batch })),
		);
		expect(confirmed.error).toBeUndefined();
		for (const row of rows) expect(d.gw.stats().creationsByReference[row.ref]).toBe(1);
		expect(d.ledger.rows()).toHaveLength(3);
	});

	test('a batch that would bring the day above the maximum is refused, nothing prepared', async () => {
		const result = await payWithLedger(
			d,
			batchOf('prepare', { maxTotalPerDay: '2500' }),
			wallets('BA-OVER'),
		);
		expect(result.error?.message).toMatch(/nothing was prepared/);
		expect(d.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0).toBe(0);
	});
});
