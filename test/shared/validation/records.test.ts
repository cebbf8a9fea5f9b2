/** Reading the service's records and the one check "this record is what was asked for" (nodes/shared/validation/records.ts). */
import type { IDataObject } from 'n8n-workflow';

import {
	recordAmount,
	recordChannel,
	recordCreatedAt,
	compareRecord,
	recordRecipient,
	recordStatus,
	sameAmount,
	type ExpectedRecord,
} from '../../../nodes/shared/validation/records';

describe('recordAmount', () => {
	test.each([
		['transaction', { subtotal_amount: 100, amount: 103 }, 100],
		['transaction', { subtotal_amount: null, amount: 103 }, 103],
		['transaction', { amount: '1,250.50' }, '1,250.50'],
		['transaction', { subtotal_amount: 0, amount: 103 }, 0],
		['payout', { amount: 500 }, 500],
		['payout', { subtotal_amount: 100, amount: 500 }, 500],
		['payout', { subtotal_amount: 100 }, undefined],
		['payout', { amount: null }, undefined],
		['payout', {}, undefined],
		['payout', { amount: 'abc' }, 'abc'],
	] as const)('a %s %j states %j', (kind, record, amount) => {
		expect(recordAmount(kind, record)).toBe(amount);
	});
});

describe('recordChannel', () => {
	test.each([
		[{ channel: { code: 'GCASH', name: 'GCash' } }, 'GCASH'],
		[{ channel: { name: 'GCash' }, channel_code: 'BDO' }, 'BDO'],
		[{ channel: 'INSTAPAY' }, 'INSTAPAY'],
		[{ channel_code: 'A', channel: 'B' }, 'A'],
		[{ channel: { code: 'A' }, channel_code: 'B' }, 'A'],
		[{ channel: { code: 5 } }, undefined],
		[{ channel: 5 }, undefined],
		[{ channel: null }, undefined],
		[{}, undefined],
		[undefined, undefined],
	])('%j: %j', (record, channel) => {
		expect(recordChannel(record as IDataObject | undefined)).toBe(channel);
	});
});

describe('recordCreatedAt', () => {
	const instant = Date.UTC(2026, 8, 1, 2, 0, 6);
	test.each([
		['payout', { created_at: '2026-09-01T10:00:06+08:00' }, instant],
		['payout', { created_at: '2026-09-01T02:00:06Z' }, instant],
		['payout', { created_at: ' 2026-09-01T02:00:06Z ' }, instant],
		['payout', { created_at: '2026-09-01T02:00:06.250Z' }, instant + 250],
		['payout', { created_at: '2026-09-01T02:00Z' }, instant - 6000],
		['transaction', { date: '2026-09-01T10:00:06+08:00' }, instant],
		['payout', { created_at: '2026-09-01T10:00:06' }, undefined],
		['payout', { created_at: '2026-09-01' }, undefined],
		['payout', { created_at: '2026-09-01 10:00:06+08:00' }, undefined],
		['payout', { created_at: '2026-13-45T99:99Z' }, undefined],
		['payout', { created_at: instant }, undefined],
		['payout', { date: '2026-09-01T10:00:06+08:00' }, undefined],
		['transaction', { created_at: '2026-09-01T10:00:06+08:00' }, undefined],
		['payout', {}, undefined],
	] as const)('a %s %j was made at %p', (kind, record, time) => {
		expect(recordCreatedAt(kind, record)).toBe(time);
	});
});

describe('recordStatus', () => {
	test.each([
		[{ status: 'completed' }, 'completed'],
		// Exactly as stated: only the three documented values are statuses (isStatus).
		[{ status: ' Completed ' }, ' Completed '],
		[{ status: 'COMPLETED' }, 'COMPLETED'],
		[{ status: 'FAILED' }, 'FAILED'],
		[{ status: '' }, undefined],
		[{ status: '  ' }, undefined],
		[{ status: null }, undefined],
		[{ status: 2 }, undefined],
		[{ status: { code: 'completed' } }, undefined],
		[{}, undefined],
	])('%j states %p', (record, status) => {
		expect(recordStatus(record as IDataObject)).toBe(status);
	});
});

describe('sameAmount', () => {
	test.each([
		[1250.5, '1,250.50', true],
		['₱20,000', 20000, true],
		[0.1 + 0.2, 0.3, true],
		[1250.504, 1250.5, true],
		[1250.51, 1250.5, false],
		[100, '100.01', false],
		['abc', 'abc', false],
		[null, 0, false],
		[NaN, NaN, false],
	])('%j and %j: %p', (a, b, same) => {
		expect(sameAmount(a, b)).toBe(same);
	});
});

describe('recordRecipient', () => {
	test.each([
		[
			{
				fields: {
					mobile_number: '+63 917 123 4567',
					bank_code: ' bdo ',
					receiver: { account_number: '0012-3456' },
				},
			},
			{ 'mobile number': '09171234567', 'bank code': 'BDO', 'account number': '00123456' },
		],
		[{ fields: { mobile_number: '639171234567' } }, { 'mobile number': '09171234567' }],
		[
			{ fields: { mobile_number: 'call me', bank_code: '', receiver: { account_number: '1.5' } } },
			{},
		],
		[{ mobile_number: '09171234567' }, {}],
		[{}, {}],
		[undefined, {}],
	])('%j states %j', (record, facts) => {
		expect(recordRecipient(record as IDataObject | undefined)).toEqual(facts);
	});
});

describe('compareRecord', () => {
	const expected: ExpectedRecord = { referenceNo: 'PAY-1', amount: 1250.5, channel: 'GCASH' };
	const record = { reference_no: 'PAY-1', amount: 1250.5, channel: { code: 'GCASH' } };
	const agrees = { differs: [], unstated: [] };

	test('a record stating every fact as asked agrees', () => {
		expect(compareRecord('payout', expected, record)).toEqual(agrees);
	});

	test.each([
		[{ ...record, amount: '1,250.50' }],
		[{ ...record, amount: '₱1,250.50' }],
		[{ ...record, amount: 1250.504 }],
		[{ ...record, channel: undefined, channel_code: 'GCASH' }],
		[{ ...record, channel: 'GCASH' }],
		// Codes are compared with their ASCII letters folded (codes.ts).
		[{ ...record, channel: 'gcash' }],
		[{ ...record, channel: { code: 'GCash' } }],
		[{ ...record, extra: 'ignored' }],
	])('%j agrees', (stated) => {
		expect(compareRecord('payout', expected, stated)).toEqual(agrees);
	});

	test.each([
		[{ ...record, reference_no: undefined }, 'reference_no'],
		[{ ...record, reference_no: null }, 'reference_no'],
		[{ ...record, reference_no: '  ' }, 'reference_no'],
		[{ ...record, amount: undefined }, 'amount'],
		[{ ...record, amount: null }, 'amount'],
		[{ ...record, amount: '' }, 'amount'],
		[{ ...record, channel: undefined }, 'channel'],
		[{ ...record, channel: null }, 'channel'],
		[{ ...record, channel: '' }, 'channel'],
	])('%j does not state the %s: not stated, never a difference', (stated, fact) => {
		expect(compareRecord('payout', expected, stated as IDataObject)).toEqual({
			differs: [],
			unstated: [fact],
		});
	});

	test.each([
		[
			{ ...record, reference_no: 'PAY-2' },
			{ fact: 'reference_no', expected: 'PAY-1', recorded: 'PAY-2' },
		],
		[
			{ ...record, reference_no: 'pay-1' },
			{ fact: 'reference_no', expected: 'PAY-1', recorded: 'pay-1' },
		],
		[
			{ ...record, reference_no: 'x'.repeat(80) },
			{ fact: 'reference_no', expected: 'PAY-1', recorded: `${'x'.repeat(63)}…` },
		],
		[
			{ ...record, amount: 1250.51 },
			{ fact: 'amount', expected: '1250.5', recorded: '1250.51' },
		],
		[
			{ ...record, amount: 1250.49 },
			{ fact: 'amount', expected: '1250.5', recorded: '1250.49' },
		],
		[
			{ ...record, amount: '12,500.50' },
			{ fact: 'amount', expected: '1250.5', recorded: '12500.5' },
		],
		[
			{ ...record, amount: 'abc' },
			{ fact: 'amount', expected: '1250.5', recorded: '"abc"' },
		],
		[
			{ ...record, amount: '1.250,50' },
			{ fact: 'amount', expected: '1250.5', recorded: '"1.250,50"' },
		],
		[
			{ ...record, amount: 'x'.repeat(40) },
			{ fact: 'amount', expected: '1250.5', recorded: `"${'x'.repeat(31)}…"` },
		],
		[
			{ ...record, channel: { code: 'PAYMAYA' } },
			{ fact: 'channel', expected: 'GCASH', recorded: 'PAYMAYA' },
		],
		// Only ASCII letters fold: toUpperCase would make the long s an S.
		[
			{ ...record, channel: 'GCA\u017fH' },
			{ fact: 'channel', expected: 'GCASH', recorded: 'GCA\u017fH' },
		],
		[
			{ ...record, channel: { name: 'GCash' } },
			{ fact: 'channel', expected: 'GCASH', recorded: '"[object Object]"' },
		],
		[
			{ ...record, channel: 5 },
			{ fact: 'channel', expected: 'GCASH', recorded: '"5"' },
		],
	])('%j differs: %j', (stated, mismatch) => {
		expect(compareRecord('payout', expected, stated as IDataObject)).toEqual({
			differs: [mismatch],
			unstated: [],
		});
	});

	test('a reference stated as a number is not the reference asked for as text', () => {
		expect(compareRecord('payout', { referenceNo: '12' }, { reference_no: 12 })).toEqual({
			differs: [{ fact: 'reference_no', expected: '12', recorded: '12' }],
			unstated: [],
		});
	});

	test('text a record or a row states reads one way in a mismatch, as shownText shows it', () => {
		const recorded = {
			reference_no: 'PAY-1\u202e',
			amount: '12\u200b"',
			channel: { code: 'GCASH\u2067' },
			fields: { bank_code: 'BPI\u201d', receiver: { account_number: '001234567890' } },
		};
		expect(
			compareRecord(
				'payout',
				{
					referenceNo: 'PAY-1',
					amount: 12,
					channel: 'GCASH\u00ab',
					recipient: { 'bank code': 'BDO\u202e' },
				},
				recorded,
			).differs,
		).toEqual([
			{ fact: 'reference_no', expected: 'PAY-1', recorded: 'PAY-1{U+202E}' },
			{ fact: 'amount', expected: '12', recorded: '"12{U+200B}{U+0022}"' },
			{ fact: 'channel', expected: 'GCASH{U+00AB}', recorded: 'GCASH{U+2067}' },
			{ fact: 'bank code', expected: 'BDO{U+202E}', recorded: 'BPI{U+201D}' },
		]);
	});

	test('facts not asked for are not compared', () => {
		expect(compareRecord('payout', { referenceNo: 'PAY-1' }, { reference_no: 'PAY-1' })).toEqual(
			agrees,
		);
	});

	test('every fact not stated is listed, in order, and none is a difference', () => {
		expect(compareRecord('payout', expected, {})).toEqual({
			differs: [],
			unstated: ['reference_no', 'amount', 'channel'],
		});
	});

	test('a record stating one fact otherwise and leaving another out: one difference, one not stated', () => {
		expect(compareRecord('payout', expected, { reference_no: 'PAY-1', amount: 99 })).toEqual({
			differs: [{ fact: 'amount', expected: '1250.5', recorded: '99' }],
			unstated: ['channel'],
		});
	});

	test('a transaction is checked against its subtotal, not its total with fees', () => {
		expect(
			compareRecord(
				'transaction',
				{ referenceNo: 'T-1', amount: 100 },
				{
					reference_no: 'T-1',
					subtotal_amount: 100,
					amount: 103,
				},
			),
		).toEqual(agrees);
		expect(
			compareRecord(
				'transaction',
				{ referenceNo: 'T-1', amount: 103 },
				{
					reference_no: 'T-1',
					subtotal_amount: 100,
					amount: 103,
				},
			).differs,
		).toEqual([{ fact: 'amount', expected: '103', recorded: '100' }]);
	});

	describe("a payout's recipient", () => {
		const mobile = { 'mobile number': '09171234567' };
		const bankAccount = { 'bank code': 'BDO', 'account number': '001234567890' };
		const payout = (fields: IDataObject) => ({ reference_no: 'PAY-1', fields });
		const check = (recipient: ExpectedRecord['recipient'], fields: IDataObject) =>
			compareRecord('payout', { referenceNo: 'PAY-1', recipient }, payout(fields));

		test.each([
			[mobile, { mobile_number: '09171234567' }],
			[mobile, { mobile_number: '+63 917 123 4567' }],
			[mobile, { mobile_number: 639171234567 }],
			[bankAccount, { bank_code: 'bdo', receiver: { account_number: '0012-3456-7890' } }],
			[{ 'bank code': 'BDO' }, { bank_code: 'BDO', receiver: { account_number: 'anything' } }],
			[{}, { mobile_number: 'unreadable' }],
		])('%j agrees with %j', (recipient, fields) => {
			expect(check(recipient, fields)).toEqual(agrees);
		});

		test.each([
			[mobile, {}, ['mobile number']],
			[mobile, { mobile_number: null }, ['mobile number']],
			[mobile, { mobile_number: ' ' }, ['mobile number']],
			[bankAccount, {}, ['bank code', 'account number']],
			[bankAccount, { bank_code: 'BDO' }, ['account number']],
		])('%j is not stated by %j', (recipient, fields, unstated) => {
			expect(check(recipient, fields)).toEqual({ differs: [], unstated });
		});

		test('a payout that states no fields at all leaves the whole recipient unstated', () => {
			expect(
				compareRecord(
					'payout',
					{ referenceNo: 'PAY-1', recipient: bankAccount },
					{ reference_no: 'PAY-1' },
				),
			).toEqual({ differs: [], unstated: ['bank code', 'account number'] });
		});

		test.each([
			[
				mobile,
				{ mobile_number: '09181234567' },
				[{ fact: 'mobile number', expected: '09171234567', recorded: '09181234567' }],
			],
			[
				mobile,
				{ mobile_number: 'call me' },
				[{ fact: 'mobile number', expected: '09171234567', recorded: '"call me"' }],
			],
			[
				bankAccount,
				{ bank_code: 'BPI', receiver: { account_number: '001234567890' } },
				[{ fact: 'bank code', expected: 'BDO', recorded: 'BPI' }],
			],
			[
				bankAccount,
				{ bank_code: 'BDO', receiver: { account_number: '001234567891' } },
				[{ fact: 'account number', expected: '001234567890', recorded: '001234567891' }],
			],
			[
				bankAccount,
				{ bank_code: 'BDO', receiver: { account_number: '12.5' } },
				[{ fact: 'account number', expected: '001234567890', recorded: '"12.5"' }],
			],
		])('%j differs from %j', (recipient, fields, differs) => {
			expect(check(recipient, fields)).toEqual({ differs, unstated: [] });
		});

		test('a transaction has no recipient to compare', () => {
			expect(
				compareRecord(
					'transaction',
					{ referenceNo: 'T-1', recipient: mobile },
					{ reference_no: 'T-1' },
				),
			).toEqual(agrees);
		});
	});
});
