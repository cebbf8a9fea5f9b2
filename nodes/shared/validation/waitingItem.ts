/**
 * The item of Send and Wait for Final Status that n8n passes on when the time limit ends the wait
 * (docs/waiting.md): the record as it was sent, still pending, saying so. The runner makes it the
 * waiting node's input before the execution waits (runner/sendAndWait.ts); the resume webhook
 * reads from it which reference the execution waits for (callbacks/resume.ts).
 */
import type { IDataObject } from 'n8n-workflow';

export const FINAL_STATUSES: readonly string[] = ['completed', 'cancelled'];

/** How the wait ended, in the output's `waitEnded`. */
export type WaitEnded = 'callback' | 'timeLimit' | 'finalBeforeWaiting';

const ADDED = ['finalStatus', 'waitEnded', 'waitedUntil'];

export function timeLimitItem(record: IDataObject, waitTill: Date): IDataObject {
	return {
		...record,
		finalStatus: false,
		waitEnded: 'timeLimit' satisfies WaitEnded,
		waitedUntil: waitTill.toISOString(),
	};
}

/** The reference waited for and the record sent, from a time-limit item; undefined from anything else. */
export function readTimeLimitItem(
	item: unknown,
): { referenceNo: string; record: IDataObject } | undefined {
	if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
	const record = item as IDataObject;
	const { reference_no: referenceNo, waitEnded, finalStatus } = record;
	if (typeof referenceNo !== 'string' || waitEnded !== 'timeLimit' || finalStatus !== false) {
		return undefined;
	}
	const sent = { ...record };
	for (const added of ADDED) delete sent[added];
	return { referenceNo, record: sent };
}
