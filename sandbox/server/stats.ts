/** The counters behind GET /__sandbox/stats. */
import type { SandboxStats } from '../types';

export function emptyStats(): SandboxStats {
	return {
		tokenRequests: { collection: 0, disbursement: 0 },
		requestsByPath: {},
		creationsByReference: {},
		attemptsByReference: {},
		callbacksSent: 0,
	};
}

export function countUp(counter: Record<string, number>, key: string): void {
	counter[key] = (counter[key] ?? 0) + 1;
}
