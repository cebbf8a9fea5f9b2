/** The time-limit item of Send and Wait for Final Status: what n8n passes on, and what the resume webhook reads from it. */
import { readTimeLimitItem, timeLimitItem } from '../../../nodes/shared/validation/waitingItem';

const record = {
	reference_no: 'INV-1',
	status: 'pending',
	amount: 250,
	web_payment_url: 'https://pay/1',
};
const until = new Date('2026-11-28T07:15:00.000Z');

test('the record as sent, still pending, saying the wait ended at the time limit', () => {
	expect(timeLimitItem(record, until)).toEqual({
		...record,
		finalStatus: false,
		waitEnded: 'timeLimit',
		waitedUntil: '2026-11-28T07:15:00.000Z',
	});
});

test('read back: the reference waited for and the record as sent, without the added fields', () => {
	expect(readTimeLimitItem(timeLimitItem(record, until))).toEqual({
		referenceNo: 'INV-1',
		record,
	});
});

test.each([
	['nothing', undefined],
	['a list', [timeLimitItem(record, until)]],
	['a plain record', record],
	['an item a callback resumed', { ...record, finalStatus: true, waitEnded: 'callback' }],
	['a reference that is not a text', { ...timeLimitItem(record, until), reference_no: 42 }],
])('anything else is no waiting state: %s', (_what, item) => {
	expect(readTimeLimitItem(item)).toBeUndefined();
});
