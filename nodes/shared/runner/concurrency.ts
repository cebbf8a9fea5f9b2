/** How many items are out at once: the one default, ceiling and reading of the Concurrency option. */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 100;

/** A whole number from 1 to MAX_CONCURRENCY; a value that cannot be read is the default. */
export function clampConcurrency(value: unknown): number {
	const concurrency = Math.floor(Number(value ?? DEFAULT_CONCURRENCY));
	if (!Number.isFinite(concurrency) || concurrency < 1) return DEFAULT_CONCURRENCY;
	return Math.min(concurrency, MAX_CONCURRENCY);
}
