/**
 * Remembers which callbacks already started an execution, so a repost or a retry starts no
 * second one. A delivery is known by verified fields only (see webhook.ts): a copy with changed
 * unsigned fields is the same delivery, and a request that failed a check is never remembered.
 *
 * Two records, both bounded (oldest dropped first) and both forgetting after REMEMBER_FOR_MS:
 * - the workflow's static data (per trigger node), which n8n saves to its database when a
 *   production webhook request is answered (helpers/answer.ts), so it survives a restart of n8n;
 * - memory of this n8n process, which catches deliveries arriving at the same moment (each
 *   request reads its own copy of the static data) and is merged into every save, so a save by
 *   a concurrent request that missed a key is healed by the next one.
 * Not covered: several webhook processes (queue mode) each hold their own memory and may save
 * over each other's static data; downstream steps should stay idempotent on reference_no there.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

export const MAX_REMEMBERED_IN_MEMORY = 10_000;
export const MAX_REMEMBERED_STORED = 2_000;
export const REMEMBER_FOR_MS = 30 * 24 * 60 * 60 * 1000;
/** The static data field (of the trigger node) holding `{ [key]: acceptedAtMs }`. */
export const STORED_FIELD = 'acceptedCallbacks';

/** A short, fixed-size key: a reference_no of any length takes the same room in static data. */
export function deliveryKey(api: string, referenceNo: string, status: string): string {
	return createHash('sha256')
		.update(JSON.stringify([api, referenceNo, status]))
		.digest('base64url')
		.slice(0, 22);
}

export interface DeliveryRecord {
	has(key: string): boolean;
	/** Remembers the key in both records; false when it was already known. */
	claim(key: string): boolean;
}

/**
 * This process's memory, per trigger node: keyed by the workflow id and the node's id (webhook.ts
 * `nodeKey`), never by an execution context. It is module-level on purpose: it must outlive each
 * webhook request to catch deliveries that arrive at the same moment.
 */
const perNode = new Map<string, Map<string, number>>();

export interface RecordOptions {
	now?: () => number;
	storedCapacity?: number;
}

/**
 * The record of one trigger node. `nodeKey` names it in memory; `staticData` is the node's
 * static data (`getWorkflowStaticData('node')`), read and written here.
 */
export function deliveryRecord(
	nodeKey: string,
	staticData: IDataObject,
	{ now = Date.now, storedCapacity = MAX_REMEMBERED_STORED }: RecordOptions = {},
): DeliveryRecord {
	let memory = perNode.get(nodeKey);
	if (!memory) {
		memory = new Map();
		perNode.set(nodeKey, memory);
	}
	const remembered = memory;
	const fresh = (acceptedAt: number | undefined) =>
		acceptedAt !== undefined && now() - acceptedAt < REMEMBER_FOR_MS;

	return {
		has(key) {
			return fresh(remembered.get(key)) || fresh(storedEntries(staticData).get(key));
		},
		claim(key) {
			if (this.has(key)) return false;
			remembered.delete(key);
			remembered.set(key, now());
			dropOldest(remembered, MAX_REMEMBERED_IN_MEMORY);
			// Memory is in time order: only its newest keys can make it into the stored record.
			const newest = [...remembered].slice(-storedCapacity);
			const merged = new Map([...storedEntries(staticData), ...newest]);
			const kept = [...merged].filter(([, at]) => fresh(at)).sort((a, b) => a[1] - b[1]);
			staticData[STORED_FIELD] = Object.fromEntries(kept.slice(-storedCapacity));
			return true;
		},
	};
}

/** The stored keys; an entry that is not `key: number` (edited by hand, say) is left out. */
function storedEntries(staticData: IDataObject): Map<string, number> {
	const stored = staticData[STORED_FIELD];
	const entries = new Map<string, number>();
	if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return entries;
	for (const [key, at] of Object.entries(stored)) {
		if (typeof at === 'number' && Number.isFinite(at)) entries.set(key, at);
	}
	return entries;
}

function dropOldest(keys: Map<string, number>, capacity: number): void {
	for (const key of keys.keys()) {
		if (keys.size <= capacity) return;
		keys.delete(key);
	}
}
