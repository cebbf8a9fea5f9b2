/** Stopping a run: an error marked here means nothing more is sent, whatever the node's error setting. */
export interface Failed {
	itemIndex: number;
	error: Error;
}

/** Errors after which nothing more is sent (invalid safety limits). */
const runStoppers = new WeakSet<Error>();

/** Marks an error as one that stops the run: no item is sent after it, even with continue-on-fail. */
export function stopRun<T extends Error>(error: T): T {
	runStoppers.add(error);
	return error;
}

export function isRunStopper(error: unknown): boolean {
	return error instanceof Error && runStoppers.has(error);
}
