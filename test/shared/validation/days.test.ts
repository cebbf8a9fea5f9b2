/** The day an instant falls on, in the time zone Maximum Total per Day counts in (nodes/shared/validation/days.ts). */
import {
	dayIn,
	DEFAULT_TIME_ZONE,
	notAfterDayStarts,
	readTimeZone,
} from '../../../nodes/shared/validation/days';

describe('dayIn', () => {
	test.each([
		// Manila is UTC+8 all year: its day turns at 16:00 UTC.
		['2026-11-27T15:59:59.999Z', 'Asia/Manila', '2026-11-27'],
		['2026-11-27T16:00:00.000Z', 'Asia/Manila', '2026-11-28'],
		['2026-11-27T16:00:00.000Z', 'UTC', '2026-11-27'],
		['2026-12-31T16:00:00.000Z', 'Asia/Manila', '2027-01-01'],
		['2026-02-28T16:30:00.000Z', 'Asia/Manila', '2026-03-01'],
		['2028-02-28T16:30:00.000Z', 'Asia/Manila', '2028-02-29'],
		// New York changes its offset: midnight is 04:00 UTC in summer, 05:00 UTC in winter.
		['2026-07-01T03:59:59.000Z', 'America/New_York', '2026-06-30'],
		['2026-07-01T04:00:00.000Z', 'America/New_York', '2026-07-01'],
		['2026-12-01T04:59:59.000Z', 'America/New_York', '2026-11-30'],
		['2026-12-01T05:00:00.000Z', 'America/New_York', '2026-12-01'],
		// Two zones 25 hours apart never share a date.
		['2026-11-27T10:00:00.000Z', 'Pacific/Kiritimati', '2026-11-28'],
		['2026-11-27T10:00:00.000Z', 'Pacific/Pago_Pago', '2026-11-26'],
	])('%s in %s is %s', (instant, timeZone, day) => {
		expect(dayIn(timeZone, new Date(instant))).toBe(day);
	});
});

describe('notAfterDayStarts', () => {
	test.each([
		['Asia/Manila', '2026-11-28', '2026-11-27T16:00:00.000Z'],
		['UTC', '2026-11-28', '2026-11-28T00:00:00.000Z'],
		['Pacific/Kiritimati', '2026-11-28', '2026-11-27T10:00:00.000Z'],
		['Pacific/Pago_Pago', '2026-11-28', '2026-11-28T11:00:00.000Z'],
		// The days a change of offset starts or ends on.
		['America/New_York', '2026-03-08', '2026-03-08T05:00:00.000Z'],
		['America/New_York', '2026-11-01', '2026-11-01T04:00:00.000Z'],
		['America/Santiago', '2026-09-06', '2026-09-06T04:00:00.000Z'],
	])(
		'%s: %s starts at %s, and the bound is never after it, at most 4 hours before',
		(timeZone, day, starts) => {
			const bound = notAfterDayStarts(timeZone, day);
			const start = Date.parse(starts);
			expect(dayIn(timeZone, new Date(start))).toBe(day);
			expect(dayIn(timeZone, new Date(start - 1))).not.toBe(day);
			expect(bound).toBeLessThanOrEqual(start);
			expect(start - bound).toBeLessThanOrEqual(4 * 3_600_000);
		},
	);
});

describe('readTimeZone', () => {
	test.each([
		['Asia/Manila', 'Asia/Manila'],
		[' Asia/Manila ', 'Asia/Manila'],
		['UTC', 'UTC'],
		['asia/manila', 'Asia/Manila'],
	])('%j is the time zone %s', (given, zone) => {
		expect(readTimeZone(given)).toBe(zone);
	});

	test.each([['Manila'], ['+08:00'], [''], ['  '], [8], [null], [undefined], ['Asia/Nowhere']])(
		'%j is not a time zone',
		(given) => {
			expect(readTimeZone(given)).toBeUndefined();
		},
	);

	test('the default is a time zone', () => {
		expect(readTimeZone(DEFAULT_TIME_ZONE)).toBe('Asia/Manila');
	});
});
