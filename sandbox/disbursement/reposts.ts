/** The repost rate limit (documented as rate-limited; how is assumed: docs/endpoints.md). */
export class RepostLimiter {
	private readonly history = new Map<string, number[]>();

	constructor(private readonly limit: { max: number; windowMs: number }) {}

	/** Sliding-window limit per reference. Returns seconds to wait, or 0 when allowed (and counted). */
	take(referenceNo: string): number {
		const { max, windowMs } = this.limit;
		const now = Date.now();
		if (max <= 0) return Math.max(1, Math.ceil(windowMs / 1000));
		const recent = (this.history.get(referenceNo) ?? []).filter((t) => now - t < windowMs);
		if (recent.length >= max) {
			this.history.set(referenceNo, recent);
			return Math.max(1, Math.ceil((recent[0] + windowMs - now) / 1000));
		}
		recent.push(now);
		this.history.set(referenceNo, recent);
		return 0;
	}

	clear(): void {
		this.history.clear();
	}
}
