/** One continuation per wait within a process: the first claim holds, every later one is refused. */
import {
	CLAIM_KEPT_MS,
	claimResume,
	MAX_CLAIMS,
} from '../../../nodes/shared/callbacks/resumeClaims';

test('the first claim of a wait holds; the same wait again is refused; another wait is its own', () => {
	expect(claimResume('exec-1 node-a INV-1 2026-12-02T10:00:00.000Z')).toBe(true);
	expect(claimResume('exec-1 node-a INV-1 2026-12-02T10:00:00.000Z')).toBe(false);
	expect(claimResume('exec-2 node-a INV-1 2026-12-02T10:00:00.000Z')).toBe(true);
	expect(claimResume('exec-1 node-a INV-1 2026-12-03T10:00:00.000Z')).toBe(true);
});

test('a claim is kept longer than any wait lasts (30 days), then forgotten', () => {
	const start = Date.UTC(2026, 11, 2);
	expect(CLAIM_KEPT_MS).toBeGreaterThan(30 * 24 * 60 * 60 * 1000);
	expect(claimResume('kept', start)).toBe(true);
	expect(claimResume('kept', start + 30 * 24 * 60 * 60 * 1000)).toBe(false);
	expect(claimResume('kept', start + CLAIM_KEPT_MS)).toBe(true);
});

test('at most MAX_CLAIMS are held: the oldest go first, the newest stay refused', () => {
	const now = Date.UTC(2026, 11, 3);
	for (let i = 0; i <= MAX_CLAIMS; i++) claimResume(`bulk-${i}`, now);
	expect(claimResume(`bulk-${MAX_CLAIMS}`, now)).toBe(false);
	expect(claimResume('bulk-0', now)).toBe(true);
});
