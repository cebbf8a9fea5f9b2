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

/** `YYYY-MM-DD` of `instant` in `timeZone` (a zone readTimeZone accepted). */
export function dayIn(timeZone: string, instant: Date): string {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).formatToParts(instant);
	const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
	return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Maximum Total per Day as a run reads it (runner/dailyCap.ts): the maximum a day may hold, and the time zone its day turns in. */
export interface DailyCap {
	maximumCentavos: number;
	timeZone: string;
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
