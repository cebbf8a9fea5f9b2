/** Timestamps in the service's form: ISO 8601 in Philippine time, e.g. 2026-09-01T10:00:06+08:00. */
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

export function manilaIso(epochMs: number): string {
	return new Date(epochMs + MANILA_OFFSET_MS).toISOString().slice(0, 19) + '+08:00';
}
