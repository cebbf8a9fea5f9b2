/**
 * Every timer the gateway starts goes through a Scheduler, so reset() and close() can clear them
 * all at once and a closed gateway never fires a late callback or holds the process open.
 */
export class Scheduler {
	private readonly handles = new Set<NodeJS.Timeout>();
	private readonly waiters = new Set<() => void>();

	/** Runs `fn` after `ms`; returns a cancel function. */
	after(ms: number, fn: () => void): () => void {
		const handle = setTimeout(
			() => {
				this.handles.delete(handle);
				fn();
			},
			Math.max(0, ms),
		);
		handle.unref();
		this.handles.add(handle);
		return () => {
			clearTimeout(handle);
			this.handles.delete(handle);
		};
	}

	/**
	 * Resolves after `ms`, or early when the scheduler is cancelled: callers check their own
	 * "still wanted" condition after awaiting.
	 */
	delay(ms: number): Promise<void> {
		if (ms <= 0) return Promise.resolve();
		return new Promise((resolve) => {
			const done = () => {
				this.waiters.delete(done);
				cancel();
				resolve();
			};
			const cancel = this.after(ms, done);
			this.waiters.add(done);
		});
	}

	cancelAll(): void {
		for (const handle of this.handles) clearTimeout(handle);
		this.handles.clear();
		for (const done of [...this.waiters]) done();
	}
}
