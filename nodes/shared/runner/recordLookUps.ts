/**
 * The runner's read-only plans on one record: a look-up by reference_no (Get), "Wait for Final
 * Status", which looks the reference up until it is completed or cancelled, with a growing pause
 * between look-ups, for n8n instances the service's callback cannot reach (a laptop, a firewall),
 * and Reconcile, which tells per row what the service holds and what does not match, then sums it up.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { ServiceError } from '../transport/errors';
import { AMBIGUOUS_LOOKUP, findByReference } from '../transport/lookups';
import { outcomeOf } from '../transport/transport';
import {
	compareRecord,
	recordAmount,
	recordChannel,
	recordStatus,
	type Mismatch,
	type RecordFact,
} from '../validation/records';
import { isStatus, STATUSES } from '../validation/schemas';
import { readAmount, toCentavos } from '../validation/validation';
import type { LookUpPlan, PollPlan, ReconcilePlan } from './operation';
import type { RunContext } from './runContext';

const FINAL_STATUSES = ['completed', 'cancelled'];

export async function lookUpRecord(
	run: RunContext,
	itemIndex: number,
	plan: LookUpPlan,
): Promise<IDataObject[]> {
	const { ctx } = run;
	const { kind, referenceNo, timeoutMs } = plan.lookUp;
	const found = await findByReference(run, kind, referenceNo, timeoutMs);
	if (found) return [found];
	if (plan.onNotFound === 'outputNothing') return [];
	throw notFound(ctx, itemIndex, kind, referenceNo, {
		orElse: ', or set Options > On Not Found to "Output Nothing" to carry on without an item',
	});
}

/** The error of a look-up that found no record; `orElse` adds the operation's own way out. */
function notFound(
	ctx: IExecuteFunctions,
	itemIndex: number,
	kind: string,
	referenceNo: string,
	{ orElse = '.' }: { orElse?: string } = {},
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `No ${kind} has reference_no "${referenceNo}"`, {
		itemIndex,
		description: `Check the reference (it is case-sensitive) and that the credential belongs to the account that created the ${kind}${orElse}`,
	});
}

export async function pollUntilFinal(
	run: RunContext,
	itemIndex: number,
	{ poll }: PollPlan,
): Promise<IDataObject> {
	const { ctx } = run;
	const started = Date.now();
	let pause = poll.firstMs;
	let lookUps = 0;
	for (;;) {
		await sleep(Math.min(pause, Math.max(0, started + poll.limitMs - Date.now())));
		const record = await findByReference(run, poll.kind, poll.referenceNo, poll.timeoutMs);
		lookUps++;
		if (!record) throw notFound(ctx, itemIndex, poll.kind, poll.referenceNo);
		const waitedSeconds = Math.round((Date.now() - started) / 100) / 10;
		const status = recordStatus(record);
		if (status !== undefined && FINAL_STATUSES.includes(status))
			return { ...record, finalStatus: true, waitedSeconds, lookUps };
		if (Date.now() - started >= poll.limitMs) {
			const minutes = Math.round(poll.limitMs / 600) / 100;
			return {
				...record,
				finalStatus: false,
				waitedSeconds,
				lookUps,
				message: notFinalMessage(status, `${minutes} minute${minutes === 1 ? '' : 's'}`),
			};
		}
		pause = Math.min(pause * 2, poll.longestMs);
	}
}

/**
 * Why the wait ended without a final status. Only a stated "pending" is called pending: a record
 * without a status, or with one the document does not list, is said to be so, never taken for
 * pending or for final.
 */
function notFinalMessage(status: string | undefined, waited: string): string {
	if (status === 'pending')
		return `Still pending after ${waited}: look it up again later, or raise Give Up After`;
	const stated =
		status === undefined
			? 'states no readable status'
			: `states status ${JSON.stringify(status.slice(0, 40))}, which is none of ${STATUSES.join(', ')}`;
	return `The service's record ${stated} (looked up for ${waited}): whether it is final cannot be told from it; check it in the service's dashboard`;
}

/** A reconciled row's status when the service holds no record, or more than one, for its reference_no. */
export const NOT_FOUND = 'not found';
export const AMBIGUOUS = 'ambiguous';
/** A reconciled row's status when the record states none; the summary's total of undocumented statuses too. */
const UNKNOWN_STATUS = 'unknown';

/**
 * The row's own columns, then what the service holds: `status` (the record's, "not found" or
 * "ambiguous"), `check` (the comparison in words, for a sheet cell or a filter), the recorded amount
 * and channel, `mismatches`, every fact the row gives that the record states otherwise, and
 * `unconfirmed`, every fact the row gives that the record does not state (not a mismatch: the
 * service's document shows no payout's shape). A look-up that proves nothing (unreachable, unclear
 * answer) throws: the row goes to the error output, never a guess.
 */
export async function reconcileRow(
	run: RunContext,
	itemIndex: number,
	{ reconcile }: ReconcilePlan,
): Promise<IDataObject> {
	const { ctx } = run;
	const { kind, referenceNo, timeoutMs, expect } = reconcile;
	const row = ctx.getInputData()[itemIndex]?.json ?? {};
	const looked = await outcomeOf(findByReference(run, kind, referenceNo, timeoutMs));
	if ('failure' in looked) {
		const { failure } = looked;
		if (failure instanceof ServiceError && failure.failure.networkCode === AMBIGUOUS_LOOKUP)
			return {
				...row,
				status: AMBIGUOUS,
				check: AMBIGUOUS,
				mismatches: [],
				unconfirmed: [],
				reason: failure.message,
			};
		throw failure;
	}
	const record = looked.answer;
	if (!record)
		return { ...row, status: NOT_FOUND, check: NOT_FOUND, mismatches: [], unconfirmed: [] };
	const { differs, unstated } = compareRecord(kind, { referenceNo, ...expect }, record);
	return {
		...row,
		status: recordStatus(record) ?? UNKNOWN_STATUS,
		check: checkInWords(differs, unstated),
		recordedAmount: readAmount(recordAmount(kind, record)) ?? null,
		recordedChannel: recordChannel(record) ?? null,
		mismatches: differs.map((mismatch) => ({ ...mismatch })),
		unconfirmed: unstated,
	};
}

/**
 * A found record's comparison with its row, as a person reads it in a sheet cell: "matches",
 * "matches; not stated by the service: amount", or "differs: amount (row 100.01, service 100)".
 * It starts with "matches" or "differs", so a filter can test its first word.
 */
function checkInWords(differs: Mismatch[], unstated: RecordFact[]): string {
	if (differs.length > 0)
		return `differs: ${differs
			.map(({ fact, expected, recorded }) => `${fact} (row ${expected}, service ${recorded})`)
			.join('; ')}`;
	return unstated.length > 0
		? `matches; not stated by the service: ${unstated.join(', ')}`
		: 'matches';
}

/**
 * The item after a reconciliation's rows: rows, per status the rows and the recorded amounts
 * (summed in centavos), not found, ambiguous, mismatched, rows with a fact the record does not
 * state (unconfirmed), and rows that could not be checked.
 */
export function reconcileSummary(outputs: Array<IDataObject | undefined>): IDataObject {
	const byStatus = new Map<string, { rows: number; centavos: number }>();
	let notFound = 0;
	let ambiguous = 0;
	let mismatched = 0;
	let unconfirmed = 0;
	let notChecked = 0;
	for (const output of outputs) {
		if (!output) {
			notChecked++;
			continue;
		}
		if (output.status === NOT_FOUND) notFound++;
		else if (output.status === AMBIGUOUS) ambiguous++;
		else {
			// A documented status names its own total; any other ("COMPLETED", " completed") is
			// counted as unknown, never with the status it resembles: its row names it.
			const status = isStatus(output.status) ? output.status : UNKNOWN_STATUS;
			const sum = byStatus.get(status) ?? { rows: 0, centavos: 0 };
			sum.rows++;
			if (typeof output.recordedAmount === 'number')
				sum.centavos += toCentavos(output.recordedAmount);
			byStatus.set(status, sum);
		}
		if (Array.isArray(output.mismatches) && output.mismatches.length > 0) mismatched++;
		if (Array.isArray(output.unconfirmed) && output.unconfirmed.length > 0) unconfirmed++;
	}
	const statuses = [...new Set(['completed', 'pending', 'cancelled', ...byStatus.keys()])];
	return {
		summary: true,
		rows: outputs.length,
		byStatus: Object.fromEntries(
			statuses.map((status) => {
				const sum = byStatus.get(status) ?? { rows: 0, centavos: 0 };
				return [status, { rows: sum.rows, amount: sum.centavos / 100 }];
			}),
		),
		notFound,
		ambiguous,
		mismatched,
		unconfirmed,
		notChecked,
	};
}
