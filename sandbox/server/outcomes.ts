/**
 * Status changes (docs/endpoints.md, Answers): only pending -> completed | cancelled, once, and
 * exactly one callback per change. Settling by hand and scripted outcomes come through here.
 */
import type { CallbackDispatcher } from '../callbacks/dispatcher';
import type { CollectionRecord } from '../collection/transactions';
import type { PayoutRecord } from '../disbursement/payouts';
import type { FinalStatus } from '../types';
import type { AnyRecord, RecordStore } from './records';
import type { StateSnapshot } from './stateFile';
import type { Scheduler } from './timers';

/** A refusal of the control surface, with the HTTP status it answers with. */
export class SandboxError extends Error {
	constructor(
		readonly statusCode: number,
		message: string,
	) {
		super(message);
	}
}

function checkFinal(status: FinalStatus): void {
	if (status !== 'completed' && status !== 'cancelled') {
		throw new SandboxError(422, 'status must be completed or cancelled.');
	}
}

export class Outcomes {
	private readonly scripts = new Map<string, { status: FinalStatus; afterMs: number }>();

	constructor(
		private readonly stores: {
			transactions: RecordStore<CollectionRecord>;
			payouts: RecordStore<PayoutRecord>;
			/** Called after every status change (the state file is written). */
			changed(): void;
		},
		private readonly timers: Scheduler,
		private readonly dispatcher: CallbackDispatcher,
	) {}

	/**
	 * pending -> completed | cancelled, once. Returns the callback delivery, or undefined when the
	 * record was no longer pending (a final status never changes).
	 */
	finalize(record: AnyRecord, status: FinalStatus, reason?: 'expired'): Promise<void> | undefined {
		if (record.view.status !== 'pending') return undefined;
		record.view.status = status;
		if (record.kind === 'collection') {
			record.cancelExpiry?.();
			if (reason === 'expired') record.view.is_expired = true;
		}
		this.stores.changed();
		return this.sendCallback(record);
	}

	sendCallback(record: AnyRecord): Promise<void> {
		const view = record.view;
		return this.dispatcher.send({
			url: record.callbackUrl,
			referenceNo: view.reference_no,
			// A collection callback carries the amount before the fee, a payout callback the payout amount.
			amount: record.kind === 'collection' ? record.view.subtotal_amount : record.view.amount,
			totalAmount: view.total_amount,
			status: view.status,
			transaction: structuredClone(view),
		});
	}

	async settle(referenceNo: string, status: FinalStatus): Promise<void> {
		checkFinal(status);
		const records = this.recordsFor(referenceNo);
		if (records.length === 0)
			throw new SandboxError(404, `No transaction or payout with reference_no ${referenceNo}.`);
		const deliveries = records
			.map((r) => this.finalize(r, status))
			.filter((d): d is Promise<void> => d !== undefined);
		if (deliveries.length === 0) {
			throw new SandboxError(
				409,
				`${referenceNo} is already ${records[0].view.status}; a final status never changes.`,
			);
		}
		await Promise.all(deliveries);
	}

	/** The outcome of a reference, applied `afterMs` after its creation; may come before or after it. */
	script(referenceNo: string, status: FinalStatus, afterMs = 0): void {
		checkFinal(status);
		this.scripts.set(referenceNo, { status, afterMs });
		this.stores.changed();
		for (const record of this.recordsFor(referenceNo)) this.applyScript(record);
	}

	/** Schedules the scripted outcome of a new record; false when none is scripted. */
	applyScript(record: AnyRecord): boolean {
		const script = this.scripts.get(record.view.reference_no);
		if (!script) return false;
		// Always asynchronous, so a creation response still shows `pending`.
		const delay = Math.max(0, record.createdAt + script.afterMs - Date.now());
		this.timers.after(delay, () => void this.finalize(record, script.status));
		return true;
	}

	clear(): void {
		this.scripts.clear();
	}

	/** The scripted outcomes, for the state file. */
	saved(): StateSnapshot['scripts'] {
		return [...this.scripts].map(([referenceNo, script]) => [referenceNo, { ...script }]);
	}

	restore(saved: StateSnapshot['scripts']): void {
		for (const [referenceNo, script] of saved) this.scripts.set(referenceNo, script);
	}

	private recordsFor(referenceNo: string): AnyRecord[] {
		const { transactions, payouts } = this.stores;
		return [transactions.get(referenceNo), payouts.get(referenceNo)].filter(
			(r): r is AnyRecord => r !== undefined,
		);
	}
}
