/**
 * One continuation per waiting execution within a process: n8n 1.x resumes a waiting execution for
 * every callback that arrives before the first one's run is stored, and n8n 2.x resumes it once
 * but hears each of them answered by the node. The first callback that passes every check claims
 * the execution's node before it is answered; the rest are answered with a conflict and start
 * nothing (docs/waiting.md, Which callbacks resume it).
 */

/** How long a claim is kept: beyond any time limit of a wait (30 days), so it never lapses first. */
export const CLAIM_KEPT_MS = 31 * 24 * 60 * 60 * 1000;
/** The claims kept at most: the oldest go first, long after their executions went on. */
export const MAX_CLAIMS = 10_000;

const claimed = new Map<string, number>();

/**
 * True for the first caller per wait (the execution, its node, the reference and the end of its
 * time limit, together in `wait`); false for every later one.
 */
export function claimResume(wait: string, now = Date.now()): boolean {
	const at = claimed.get(wait);
	if (at !== undefined && now - at < CLAIM_KEPT_MS) return false;
	claimed.set(wait, now);
	for (const [oldest, since] of claimed) {
		if (claimed.size <= MAX_CLAIMS && now - since < CLAIM_KEPT_MS) break;
		claimed.delete(oldest);
	}
	return true;
}
