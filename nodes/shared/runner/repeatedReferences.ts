/**
 * Rows of one run that share a reference_no. Two creates for one reference in flight at once
 * would leave "once" to the service's timing, so only the first row holding a reference sends it.
 * A later row with it sends nothing: it waits for that row and is answered by a look-up (a replay
 * or a conflict, as for a record of an earlier run). References that differ only in case name one
 * payment to a person, and are refused rather than paid twice.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemPlan, MoneyIntent } from './operation';

/** The row of this run that holds a reference, and when it is done with it. */
export interface EarlierRow {
	itemIndex: number;
	/** What that row creates. */
	creates: MoneyIntent;
	done: Promise<void>;
}

interface Holder {
	itemIndex: number;
	creates: MoneyIntent;
	finished: boolean;
	/** Made only when a later row repeats the reference: most never are. */
	done?: Promise<void>;
	finish?: () => void;
}

export class RepeatedReferences {
	private readonly holders = new Map<string, Holder>();
	/** Holders whose row is not done yet, by row. */
	private readonly open = new Map<number, Holder>();
	private readonly repeats = new Map<number, EarlierRow>();

	/**
	 * Notes the reference of a row's plan, rows in order. Throws for a reference an earlier row
	 * holds in other case; a row repeating an earlier reference exactly is remembered as a repeat.
	 */
	claim(node: INode, itemIndex: number, plan: ItemPlan): void {
		if (!('send' in plan) || !plan.creates) return;
		const { creates } = plan;
		const key = creates.referenceNo.toLowerCase();
		const holder = this.holders.get(key);
		if (!holder) {
			const created: Holder = { itemIndex, creates, finished: false };
			this.holders.set(key, created);
			this.open.set(itemIndex, created);
			return;
		}
		const held = holder.creates.referenceNo;
		if (held !== creates.referenceNo) {
			throw new NodeOperationError(
				node,
				`Reference No "${creates.referenceNo}" differs from row ${holder.itemIndex + 1}'s "${held}" only in case`,
				{
					itemIndex,
					description:
						'Two rows with one reference in different case are most likely one payment: give each row its own reference_no, or remove the repeated row.',
				},
			);
		}
		holder.done ??= holder.finished
			? Promise.resolve()
			: new Promise<void>((resolve) => (holder.finish = resolve));
		this.repeats.set(itemIndex, {
			itemIndex: holder.itemIndex,
			creates: holder.creates,
			done: holder.done,
		});
	}

	/** The earlier row holding this row's reference, when this row repeats it. */
	earlierRow(itemIndex: number): EarlierRow | undefined {
		return this.repeats.get(itemIndex);
	}

	/** The row is settled, or will not be sent: rows repeating its reference may go on. */
	finished(itemIndex: number): void {
		const holder = this.open.get(itemIndex);
		if (!holder) return;
		this.open.delete(itemIndex);
		holder.finished = true;
		holder.finish?.();
	}
}
