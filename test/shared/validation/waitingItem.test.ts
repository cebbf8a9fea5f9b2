/** The time-limit item of Send and Wait for Final Status: what n8n passes on, what the resume webhook reads from it, and a final status compared with what was sent. */
import {
	compareWithSent,
	differencesOf,
	finalItem,
	readTimeLimitItem,
	timeLimitItem,
	type SentFacts,
} from '../../../nodes/shared/validation/waitingItem';

const record = {
	reference_no: 'INV-1',
	status: 'pending',
	subtotal_amount: 250,
	channel: { code: 'GCASH_TRN' },
	web_payment_url: 'https://pay/1',
};
const sent: SentFacts = {
	kind: 'transaction',
	referenceNo: 'INV-1',
	amount: 250,
	channel: 'GCASH_TRN',
	recipient: {},
};
const payout: SentFacts = {
	kind: 'payout',
	referenceNo: 'PO-1',
	amount: 1000,
	channel: 'GCASH',
	recipient: { 'mobile number': '09171234567' },
};
const until = new Date('2026-11-28T07:15:00.000Z');

test('the record as answered, still pending, saying the wait ended at the time limit and what was sent', () => {
	expect(timeLimitItem(record, until, sent)).toEqual({
		...record,
		finalStatus: false,
		waitEnded: 'timeLimit',
		waitedUntil: '2026-11-28T07:15:00.000Z',
		sent: { kind: 'transaction', reference_no: 'INV-1', amount: 250, channel: 'GCASH_TRN' },
	});
});

test('read back: the reference waited for, the record without the added fields, and what was sent', () => {
	expect(readTimeLimitItem(timeLimitItem(record, until, sent))).toEqual({
		referenceNo: 'INV-1',
		record,
		sent,
		waitedUntil: '2026-11-28T07:15:00.000Z',
	});
	const payoutRecord = { reference_no: 'PO-1', status: 'pending', amount: 1000 };
	expect(readTimeLimitItem(timeLimitItem(payoutRecord, until, payout))?.sent).toEqual(payout);
});

test.each([
	['nothing', undefined],
	['a list', [timeLimitItem(record, until, sent)]],
	['a plain record', record],
	['an item a callback resumed', { ...record, finalStatus: true, waitEnded: 'callback' }],
	['a reference that is not a text', { ...timeLimitItem(record, until, sent), reference_no: 42 }],
	['no record of what was sent', { ...timeLimitItem(record, until, sent), sent: undefined }],
	['no end of the wait', { ...timeLimitItem(record, until, sent), waitedUntil: undefined }],
	[
		'what was sent for another reference',
		{
			...timeLimitItem(record, until, sent),
			sent: { ...(timeLimitItem(record, until, sent).sent as object), reference_no: 'INV-2' },
		},
	],
	[
		'what was sent without an amount',
		{
			...timeLimitItem(record, until, sent),
			sent: { kind: 'transaction', reference_no: 'INV-1', channel: 'GCASH_TRN' },
		},
	],
])('anything else is no waiting state: %s', (_what, item) => {
	expect(readTimeLimitItem(item)).toBeUndefined();
});

describe('a final status against what was sent', () => {
	const completed = { ...record, status: 'completed' };

	test('the same payment: finalStatus true, with how the wait ended', () => {
		const comparison = compareWithSent(sent, completed);
		expect(
			finalItem(completed, 'callback', differencesOf(comparison, 'service'), comparison.unstated),
		).toEqual({
			...completed,
			finalStatus: true,
			waitEnded: 'callback',
		});
	});

	test.each([
		['another amount', { subtotal_amount: 10 }, { fact: 'amount', sent: '250', stated: '10' }],
		[
			'another channel',
			{ channel: { code: 'PAYMAYA_QR' } },
			{ fact: 'channel', sent: 'GCASH_TRN', stated: 'PAYMAYA_QR' },
		],
		[
			'an amount that cannot be read',
			{ subtotal_amount: 'NaN' },
			{ fact: 'amount', sent: '250', stated: '"NaN"' },
		],
	])(
		'%s: finalStatus false, waitEnded differs, each difference listed',
		(_what, change, difference) => {
			const paid = { ...completed, ...change };
			const comparison = compareWithSent(sent, paid);
			const item = finalItem(
				paid,
				'callback',
				differencesOf(comparison, 'service'),
				comparison.unstated,
			);
			expect(item).toMatchObject({
				status: 'completed',
				finalStatus: false,
				waitEnded: 'differs',
				differences: [{ ...difference, by: 'service' }],
			});
			expect(item.message).toContain('Do not treat it as paid');
		},
	);

	test("a payout's recipient: another number differs; one not stated is unconfirmed, not a difference", () => {
		const other = {
			reference_no: 'PO-1',
			status: 'completed',
			amount: 1000,
			channel: 'GCASH',
			fields: { mobile_number: '09179999999' },
		};
		const differs = compareWithSent(payout, other);
		expect(differencesOf(differs, 'callback')).toEqual([
			{ fact: 'mobile number', sent: '09171234567', stated: '09179999999', by: 'callback' },
		]);
		const silent = { reference_no: 'PO-1', status: 'completed', amount: 1000 };
		const unstated = compareWithSent(payout, silent);
		expect(
			finalItem(silent, 'lookedUp', differencesOf(unstated, 'service'), unstated.unstated),
		).toEqual({
			...silent,
			finalStatus: true,
			waitEnded: 'lookedUp',
			unconfirmed: ['channel', 'mobile number'],
		});
	});
});
