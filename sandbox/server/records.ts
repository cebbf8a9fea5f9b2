/** Collection transactions and payouts, each kept once per reference_no. */
import type { CollectionRecord } from '../collection/transactions';
import type { PayoutRecord } from '../disbursement/payouts';
import { ok, type Reply } from './http';
import type { DuplicateViews } from './stateFile';

export type AnyRecord = CollectionRecord | PayoutRecord;

export class RecordStore<R extends AnyRecord> {
	private readonly records = new Map<string, R>();
	/** Further records look-ups show for a reference: a broken service holding two for one reference. */
	private readonly duplicates = new Map<string, Record<string, unknown>[]>();

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

	/** Look-ups of this reference show a second record: a copy of the first with these changes. */
	duplicate(referenceNo: string, changes: Record<string, unknown>): boolean {
		const view = this.view(referenceNo);
		if (!view) return false;
		this.duplicates.set(referenceNo, [
			...(this.duplicates.get(referenceNo) ?? []),
			{ ...view, ...changes },
		]);
		return true;
	}

	/** Every record a look-up of this reference shows: the record, then any duplicates. */
	views(referenceNo: string): Record<string, unknown>[] {
		const view = this.view(referenceNo);
		return view ? [view, ...structuredClone(this.duplicates.get(referenceNo) ?? [])] : [];
	}

	clear(): void {
		this.records.clear();
		this.duplicates.clear();
	}

	/** The duplicates, for the state file. */
	duplicateViews(): DuplicateViews {
		return structuredClone([...this.duplicates]);
	}

	restoreDuplicates(saved: DuplicateViews): void {
		for (const [referenceNo, views] of saved) this.duplicates.set(referenceNo, views);
	}
}

/** Get Transactions of either interface: the match, or everything, in data.transactions, each as `answered` shows it. */
export function lookUp(
	store: RecordStore<AnyRecord>,
	referenceNo: string | null,
	answered: (view: Record<string, unknown>) => Record<string, unknown> = (view) => view,
): Reply {
	const refs = referenceNo !== null ? [referenceNo] : store.all().map((r) => r.view.reference_no);
	const transactions = refs.flatMap((ref) => store.views(ref)).map(answered);
	return ok('', { transactions });
}
