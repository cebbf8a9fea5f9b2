/** Collection transactions and payouts, each kept once per reference_no. */
import type { CollectionRecord } from '../collection/transactions';
import type { PayoutRecord } from '../disbursement/payouts';
import { ok, type Reply } from './http';

export type AnyRecord = CollectionRecord | PayoutRecord;

export class RecordStore<R extends AnyRecord> {
	private readonly records = new Map<string, R>();

	add(record: R): void {
		this.records.set(record.view.reference_no, record);
	}

	has(referenceNo: string): boolean {
		return this.records.has(referenceNo);
	}

	get(referenceNo: string): R | undefined {
		return this.records.get(referenceNo);
	}

	all(): R[] {
		return [...this.records.values()];
	}

	/** A copy of the record as the service shows it, so no caller can change the stored one. */
	view(referenceNo: string): Record<string, unknown> | undefined {
		const record = this.records.get(referenceNo);
		return record && structuredClone(record.view);
	}

	clear(): void {
		this.records.clear();
	}
}

/** Get Transactions of either interface: the match, or everything, in data.transactions. */
export function lookUp(store: RecordStore<AnyRecord>, referenceNo: string | null): Reply {
	const refs = referenceNo !== null ? [referenceNo] : store.all().map((r) => r.view.reference_no);
	const transactions = refs.map((ref) => store.view(ref)).filter((view) => view !== undefined);
	return ok('', { transactions });
}
