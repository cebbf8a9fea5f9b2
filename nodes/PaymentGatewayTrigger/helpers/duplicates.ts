/**
 * Remembers which callbacks already started an execution, so a repost or a retry of the same
 * reference and status starts no second one. In memory, per trigger node, bounded: the oldest
 * keys are forgotten first. Workflow static data is not used: n8n saves it only after an
 * execution, never for a request that starts none, and it would grow without bound.
 * Limits (documented in the README): memory is per n8n process, so a restart or a second main
 * instance forgets; downstream steps should still be idempotent on reference_no.
 */
export const MAX_REMEMBERED = 10_000;

class RecentKeys {
	private readonly keys = new Map<string, true>();

	constructor(private readonly capacity: number) {}

	has(key: string): boolean {
		return this.keys.has(key);
	}

	/** Adds the key; false when it was already there (then it counts as recently used). */
	add(key: string): boolean {
		const known = this.keys.delete(key);
		this.keys.set(key, true);
		if (this.keys.size > this.capacity) {
			const oldest = this.keys.keys().next().value;
			if (oldest !== undefined) this.keys.delete(oldest);
		}
		return !known;
	}

	get size(): number {
		return this.keys.size;
	}
}

const perNode = new Map<string, RecentKeys>();

export function recentKeysFor(nodeKey: string, capacity = MAX_REMEMBERED): RecentKeys {
	let keys = perNode.get(nodeKey);
	if (!keys) {
		keys = new RecentKeys(capacity);
		perNode.set(nodeKey, keys);
	}
	return keys;
}

export function callbackKey(api: string, referenceNo: string, status: string): string {
	return `${api}\u0000${referenceNo}\u0000${status}`;
}
