/**
 * What the service's record says decides: one check of "this record is this row's intent"
 * (reference, amount, channel, recipient), one record per reference or an error, and `replayed`
 * from the record's creation time. Both money operations, through the engine, against the sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import * as disbursement from '../harness/disbursementRuns';
import {
	failOnce,
	moneyOperationsPerFile,
	OUTCOME_UNKNOWN,
	type MoneyOperation,
} from '../harness/moneyOperations';

const ops = moneyOperationsPerFile('record intent');
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;
const payout = () => ops['Payout Create'];
const amountField = (op: MoneyOperation) =>
	op.noun === 'transaction' ? 'subtotal_amount' : 'amount';
/** The channel a row of each operation asks for by default, and another valid one. */
const CHANNELS = {
	Generate: ['GCASH_TRN', 'PAYMAYA_QR'],
	'Payout Create': ['GCASH', 'PAYMAYA'],
} as const;
const HOUR_AGO = () => Date.now() - 60 * 60_000;

afterEach(() => {
	for (const op of Object.values(ops)) op.setup.gw.answerReusedReferences('taken');
});

async function created(
	op: MoneyOperation,
	reference: string,
	amount: number,
	extra: IDataObject = {},
): Promise<void> {
	const first = await op.run(op.parameters(), [op.row(reference, amount, extra)]);
	expect(first.error).toBeUndefined();
	expect(op.record(reference)).toBeDefined();
	op.setup.gw.resetStats();
}

async function errorOf(
	op: MoneyOperation,
	rows: IDataObject[],
	parameters = op.parameters(),
): Promise<IDataObject> {
	const result = await op.run(parameters, rows, 'continueRegularOutput');
	return result.outputs[0][0].json;
}

describe.each(NAMES)('rule 4, %s: a 2xx for another channel is not taken as created', (name) => {
	const op = () => ops[name];

	test('nothing created: the look-up finds nothing, and the item says which channel the answer named', async () => {
		const reference = ref('CH-2XX');
		failOnce(op(), 'create', {
			mode: 'error-before',
			status: 200,
			body: {
				message: 'OK',
				data: {
					reference_no: '{{reference_no}}',
					[amountField(op())]: 10,
					channel: 'OTHER_CHANNEL',
				},
			},
		});
		const item = await errorOf(op(), [op().row(reference, 10)]);
		expect(item.error).toBe(
			`${OUTCOME_UNKNOWN(op().noun, reference, `the service answered without confirming it (the record is for channel OTHER_CHANNEL, not ${CHANNELS[name][0]})`, ' The service said: "OK".')} (row 1)`,
		);
		expect(op().setup.gw.stats().requestsByPath[`GET ${op().lookupPath}`]).toBe(1);
	});

	test('an idempotent 200 returning an earlier record on another channel: a conflict naming both channels', async () => {
		const reference = ref('CH-IDEM');
		await created(op(), reference, 10, { channel: CHANNELS[name][1] });
		op().setup.gw.answerReusedReferences('existing');
		const item = await errorOf(op(), [op().row(reference, 10)]);
		expect(item.error).toBe(
			`reference_no "${reference}" is already used for a different ${op().noun}: the existing ${op().noun} uses channel ${CHANNELS[name][1]}, this item asks for ${CHANNELS[name][0]} (row 1)`,
		);
		expect(op().setup.gw.stats().creationsByReference[reference]).toBeUndefined();
	});
});

describe('rule 4: a reused reference whose payout pays someone else is a conflict naming both', () => {
	test('e-wallet: another mobile number', async () => {
		const reference = ref('MOBILE');
		await created(payout(), reference, 100, { mobile: '09171234567' });
		const item = await errorOf(payout(), [
			payout().row(reference, 100, { mobile: '0918-765-4321' }),
		]);
		expect(item.error).toBe(
			`reference_no "${reference}" is already used for a different payout: the existing payout pays mobile number 09171234567, this item asks for 09187654321 (row 1)`,
		);
		expect(item.replayed).toBeUndefined();
	});

	test('e-wallet: the same mobile number written the other way is the same recipient (replayed)', async () => {
		const reference = ref('MOBILE-SAME');
		await created(payout(), reference, 100, { mobile: '09171234567' });
		const result = await payout().run(payout().parameters(), [
			payout().row(reference, 100, { mobile: '+63 917 123 4567' }),
		]);
		expect(result.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: true });
	});

	const bankRun = async (rows: IDataObject[]) =>
		await disbursement.run(
			payout().setup as disbursement.Setup,
			disbursement.bankTransferParameters(),
			{ items: rows, onError: 'continueRegularOutput' },
		);

	test.each([
		[
			'another account number',
			{ accountNumber: '0012-3456-7891' },
			'pays account number 001234567890, this item asks for 001234567891',
		],
		['another bank', { bank: 'BPI' }, 'pays through bank code BDO, this item asks for BPI'],
	])('bank transfer: %s', async (_what, change, difference) => {
		const reference = ref('BANK');
		expect(
			(await bankRun([disbursement.bankRow(reference)])).outputs[0][0].json.error,
		).toBeUndefined();
		const again = await bankRun([disbursement.bankRow(reference, change)]);
		expect(again.outputs[0][0].json.error).toBe(
			`reference_no "${reference}" is already used for a different payout: the existing payout ${difference} (row 1)`,
		);
	});

	test('bank transfer: the same account number with spaces is the same recipient (replayed)', async () => {
		const reference = ref('BANK-SAME');
		expect(
			(await bankRun([disbursement.bankRow(reference)])).outputs[0][0].json.error,
		).toBeUndefined();
		const again = await bankRun([
			disbursement.bankRow(reference, { accountNumber: '0012 3456 7890' }),
		]);
		expect(again.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: true });
	});
});

describe.each(NAMES)(
	'rule 5, %s: two records for one reference are ambiguous, never a result',
	(name) => {
		const op = () => ops[name];
		const ambiguous = (reference: string) =>
			`Looking reference_no "${reference}" up found 2 ${op().noun}s with it (statuses completed, cancelled), so which one it is cannot be told (row 1)`;

		async function twoRecords(): Promise<string> {
			const reference = ref('TWO');
			await created(op(), reference, 10);
			await op().setup.gw.settle(reference, 'completed');
			expect(op().setup.gw.duplicateRecord(reference, 'cancelled')).toBe(true);
			return reference;
		}

		test('Get: an item error', async () => {
			const reference = await twoRecords();
			const resource = op().noun === 'transaction' ? 'transaction' : 'payout';
			const item = await errorOf(op(), [{}], {
				resource,
				operation: 'get',
				referenceNo: reference,
			});
			expect(item.error).toBe(ambiguous(reference));
		});

		test('Wait for Final Status: an item error, not the first status', async () => {
			const reference = await twoRecords();
			const resource = op().noun === 'transaction' ? 'transaction' : 'payout';
			const item = await errorOf(op(), [{}], {
				resource,
				operation: 'waitForFinalStatus',
				referenceNo: reference,
				options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
			});
			expect(item.error).toBe(ambiguous(reference));
		});

		test('the money-safe look-up after a 503: an item error, nothing sent again', async () => {
			const reference = await twoRecords();
			failOnce(op(), 'create', {
				mode: 'error-before',
				status: 503,
			});
			const item = await errorOf(op(), [op().row(reference, 10)]);
			expect(item.error).toBe(ambiguous(reference));
			expect(op().setup.gw.stats().attemptsByReference[reference]).toBe(1);
		});
	},
);

describe.each(NAMES)("rule 8, %s: `replayed` from the record's creation time", (name) => {
	const op = () => ops[name];

	test('made an hour ago by an earlier run, found after a 503: replayed', async () => {
		const reference = ref('OLD-503');
		await created(op(), reference, 10);
		op().setup.gw.backdate(reference, HOUR_AGO());
		failOnce(op(), 'create', {
			mode: 'error-before',
			status: 503,
		});
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.outputs[0].map((item) => item.json)).toEqual([
			{ ...(op().record(reference) as IDataObject), replayed: true },
		]);
	});

	test('an idempotent 200 returning a record made an hour ago: replayed', async () => {
		const reference = ref('OLD-200');
		await created(op(), reference, 10);
		op().setup.gw.backdate(reference, HOUR_AGO());
		op().setup.gw.answerReusedReferences('existing');
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.outputs[0].map((item) => item.json)).toEqual([
			{ ...(op().record(reference) as IDataObject), replayed: true },
		]);
		expect(op().setup.gw.stats().creationsByReference[reference]).toBeUndefined();
	});

	test('made a minute ago (inside the clock-skew margin), found after a 503: not claimed as a replay', async () => {
		const reference = ref('RECENT');
		await created(op(), reference, 10);
		op().setup.gw.backdate(reference, Date.now() - 60_000);
		failOnce(op(), 'create', {
			mode: 'error-before',
			status: 503,
		});
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.outputs[0][0].json).toMatchObject({
			replayed: false,
			recoveredAfter: `The ${op().label} service answered HTTP 503. The service said: "Server Error"`,
		});
	});

	test('made just now, its answer lost: replayed false, with what was recovered from', async () => {
		const reference = ref('LOST');
		failOnce(op(), 'create', {
			mode: 'error-after',
			status: 503,
		});
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.outputs[0][0].json).toMatchObject({
			replayed: false,
			recoveredAfter: `The ${op().label} service answered HTTP 503. The service said: "Server Error"`,
		});
		expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
	});
});
