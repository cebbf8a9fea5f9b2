/**
 * The calendar day an instant falls on in a time zone, for Maximum Total per Day: the day turns at
 * midnight where the business is (Asia/Manila by default), not at midnight UTC.
 */

export const DEFAULT_TIME_ZONE = 'Asia/Manila';

/** The IANA time zone as given, or undefined when it is not one (`Manila`, `+08:00`, ''). */
export function readTimeZone(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	try {
		return new Intl.DateTimeFormat('en-US', { timeZone: value.trim() }).resolvedOptions().timeZone;
	} catch {
		return undefined;
	}
}

/** One formatter per time zone: building one costs far more than formatting with it. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
	let format = dayFormats.get(timeZone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
		});
		dayFormats.set(timeZone, format);
	}
	return format;
}

/** `YYYY-MM-DD` of `instant` in `timeZone` (a zone readTimeZone accepted). */
export function dayIn(timeZone: string, instant: Date): string {
	const parts = dayFormat(timeZone).formatToParts(instant);
	const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
	return `${part('year')}-${part('month')}-${part('day')}`;
}

const HOUR_MS = 3_600_000;

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(timeZone: string, instant: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
		second: 'numeric',
	}).formatToParts(instant);
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value);
	const wall = Date.UTC(
		part('year'),
		part('month') - 1,
		part('day'),
		part('hour'),
		part('minute'),
		part('second'),
	);
	return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * An instant no later than the first instant of `day` (`YYYY-MM-DD`) in `timeZone`: its midnight
 * by the zone's offset, less three hours for a change of offset near it. Exactness is `dayIn`'s.
 */
export function notAfterDayStarts(timeZone: string, day: string): number {
	const [year, month, date] = day.split('-').map(Number);
	const midnightUtc = Date.UTC(year, month - 1, date);
	return midnightUtc - offsetAt(timeZone, midnightUtc) - 3 * HOUR_MS;
}

/** Maximum Total per Day as a run reads it (runner/dailyCap.ts): the maximum a day may hold, and the time zone its day turns in. */
export interface DailyCap {
	maximumCentavos: number;
	timeZone: string;
}

/**
 * What a run has counted of one day for certain: the rows of ids up to `upToId`, a reference once
 * at its largest row (the service pays a reference once, so two rows of one reference, from two
 * runs that reserved it at the same moment, hold one payout at most); rows without a reference
 * each count. Later reads of the run start after `upToId` (runner/dailyCap.ts `settle`).
 */
export interface CountedDay {
	upToId: number;
	total: number;
	byReference: Map<string, number>;
	/** This run's reservations of the day: the ids whose writes n8n answered, and when it made them. */
	own: Array<{ id: number; createdAt: number }>;
}

/**
 * A day's figures for Maximum Total per Day, in pesos, as Payout > Create, Prepare and Confirm give
 * them (`dailyTotal`): the day and its time zone, the maximum, the day's total before this payout
 * and with it, and what remains.
 */
export interface DailyTotal {
	day: string;
	timeZone: string;
	maximum: number;
	totalBefore: number;
	total: number;
	remaining: number;
}
