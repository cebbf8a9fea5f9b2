/**
 * The money-safe path: every request that creates money (Generate Transaction, Process
 * Disbursement) goes through `createOnce`, so each rule below is written once.
 *
 * - reference_no is the idempotency key. After an unclear failure (time-out, dropped connection,
 *   5xx, unreadable body) the reference is looked up first, and resent with the SAME reference_no
 *   only when the look-up finds nothing (the service's own guidance). A definite 4xx is final.
 * - A 2xx is success only when it confirms this request: the record names this reference_no and,
 *   where it carries one, this amount. Any other answer is checked by a look-up, never believed.
 * - An existing record is returned only when its amount (read as a number, to the centavo) and,
 *   where it carries one, its channel match the item; otherwise it is a conflict that says what differs.
 * - `replayed` is true only when the service said the reference was taken before this item sent
 *   anything unclear; a record found after a lost answer is reported with `recoveredAfter` instead.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { ServiceError, stopsTheRun } from '../transport/errors';
import { explained, Unexplained } from './itemErrors';
import { lookUp, rejectedWithExisting } from './moneyLookUps';
import type { MoneyIntent, SendPlan } from './operation';
import { callService, outcomeOf } from '../transport/transport';
import { recordAmount, recordChannel } from '../validation/records';
import { readAmount, sameAmount } from '../validation/validation';

export const MAX_ATTEMPTS = 3;
const RETRY_DELAY_MS = 250;

export type MoneyPlan = SendPlan & { creates: MoneyIntent };

/** Sends a money-creating request at most once per reference_no; returns the output item. */
export async function createOnce(ctx: IExecuteFunctions, itemIndex: number, plan: MoneyPlan): Promise<IDataObject> {
	const intent = plan.creates;
	const timeoutMs = plan.send.timeoutMs;
	let unclearCause: string | undefined;
	let lastError: ServiceError | undefined;

	for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
		const sent = await outcomeOf(callService(ctx, plan.send));
		if ('failure' in sent) {
			const error = sent.failure;
			if (!(error instanceof ServiceError) || stopsTheRun(error.failure)) throw error;
			const taken = referenceTaken(error);
			// A definite refusal is explained by the runner, once it has stopped the run.
			if (taken === 'amongOthers') throw new Unexplained(error, async () => await rejectedWithExisting(ctx, itemIndex, intent, error, timeoutMs));
			if (error.failure.kind === 'rejected' && !taken) throw new Unexplained(error, async () => await explained(ctx, plan, error));

			const existing = await lookUp(ctx, itemIndex, intent, timeoutMs, taken ? undefined : error.message);
			if (existing) {
				// Only the service's "already taken", before anything unclear, proves the record predates this item.
				const replayed = taken === 'only' && unclearCause === undefined;
				return accept(ctx, itemIndex, plan, existing, { replayed, recoveredAfter: replayed ? undefined : unclearCause ?? error.message });
			}
			if (taken) {
				throw new NodeOperationError(
					ctx.getNode(),
					`reference_no "${intent.referenceNo}" is already used, but the ${intent.kind} could not be found by looking it up`,
					{ itemIndex, description: 'Use a new reference_no, or check the reference with the service.' },
				);
			}
			// Unclear, and the look-up proves nothing was created: resending the same reference is safe.
			unclearCause = error.message;
			lastError = error;
			if (attempt < MAX_ATTEMPTS) await sleep(RETRY_DELAY_MS * attempt);
			continue;
		}
		const { answer } = sent;

		const problem = confirmationProblem(intent, answer.data);
		if (!problem) {
			return shape(plan, answer.data as IDataObject, answer.message, { replayed: false, recoveredAfter: unclearCause });
		}
		// A 2xx that does not confirm this request proves nothing either way: the look-up decides.
		const said = answer.message ? ` The service said: "${answer.message}".` : '';
		const cause = `the service answered without confirming the ${intent.kind} (${problem})`;
		const existing = await lookUp(ctx, itemIndex, intent, timeoutMs, cause);
		if (existing) return accept(ctx, itemIndex, plan, existing, { replayed: false, recoveredAfter: cause });
		throw new NodeOperationError(
			ctx.getNode(),
			`The ${intent.kind} "${intent.referenceNo}" was not created: the service answered without confirming it (${problem}).${said}`,
			{
				itemIndex,
				description: `A look-up found no ${intent.kind} with this reference_no, so nothing was created. Fix what the service reported and run the workflow again: the same reference_no is safe to reuse.`,
			},
		);
	}
	throw new NodeOperationError(
		ctx.getNode(),
		`The ${intent.kind} "${intent.referenceNo}" was not created after ${MAX_ATTEMPTS} attempts: ${lastError?.message ?? 'no answer'}`,
		{
			itemIndex,
			description: `A look-up after each attempt confirmed that no ${intent.kind} exists for this reference_no, so running the workflow again is safe.`,
		},
	);
}

/**
 * A row repeating the reference of an earlier row of this run, once that row is done: nothing is
 * sent, the look-up answers (a replay of that row's record, or a conflict saying what differs).
 */
export async function repeatOfEarlierRow(ctx: IExecuteFunctions, itemIndex: number, plan: MoneyPlan, earlierIndex: number): Promise<IDataObject> {
	const intent = plan.creates;
	const cause = `row ${earlierIndex + 1} has the same reference_no`;
	const existing = await lookUp(ctx, itemIndex, intent, plan.send.timeoutMs, cause);
	if (existing) return accept(ctx, itemIndex, plan, existing, { replayed: true });
	throw new NodeOperationError(
		ctx.getNode(),
		`Not sent: ${cause} "${intent.referenceNo}", and a look-up found no ${intent.kind} with it`,
		{ itemIndex, description: `Fix what row ${earlierIndex + 1} reports and run the workflow again; each reference_no is sent once per run.` },
	);
}

/** Why a 2xx body does not confirm this request, or undefined when it does. */
function confirmationProblem(intent: MoneyIntent, data: unknown): string | undefined {
	if (!data || typeof data !== 'object' || Array.isArray(data)) return 'no record in the answer';
	const record = data as IDataObject;
	if (record.reference_no === undefined) return 'the record has no reference_no';
	if (record.reference_no !== intent.referenceNo) return `the record is for reference_no "${String(record.reference_no).slice(0, 64)}"`;
	const amount = recordAmount(intent.kind, record);
	if (amount !== undefined && !sameAmount(amount, intent.amount)) {
		return `the record is for amount ${String(amount).slice(0, 32)}, not ${intent.amount}`;
	}
	return undefined;
}

/** Why an existing record is not the one this item asks for, or undefined when it is. */
function conflictWith(intent: MoneyIntent, existing: IDataObject): string | undefined {
	const reasons: string[] = [];
	const amount = recordAmount(intent.kind, existing);
	if (amount === undefined) {
		reasons.push(`the existing ${intent.kind} shows no amount to compare with ${intent.amount}`);
	} else if (!sameAmount(amount, intent.amount)) {
		const shown = readAmount(amount) ?? `"${String(amount).slice(0, 32)}"`;
		reasons.push(`the existing ${intent.kind} is for ${shown}, this item asks for ${intent.amount}`);
	}
	const channel = recordChannel(existing);
	if (channel !== undefined && channel !== intent.channel) {
		reasons.push(`the existing ${intent.kind} uses channel ${channel}, this item asks for ${intent.channel}`);
	}
	return reasons.length > 0 ? reasons.join(', and ') : undefined;
}

function accept(
	ctx: IExecuteFunctions,
	itemIndex: number,
	plan: MoneyPlan,
	existing: IDataObject,
	outcome: { replayed: boolean; recoveredAfter?: string },
): IDataObject {
	const { kind, referenceNo } = plan.creates;
	const conflict = conflictWith(plan.creates, existing);
	if (conflict) {
		throw new NodeOperationError(ctx.getNode(), `reference_no "${referenceNo}" is already used for a different ${kind}: ${conflict}`, {
			itemIndex,
			description: `Each reference_no can be used once. Use a new reference_no for a new ${kind}, or the same amount and channel to get the existing one back.`,
		});
	}
	return shape(plan, existing, '', outcome);
}

function shape(
	plan: MoneyPlan,
	record: IDataObject,
	message: string,
	{ replayed, recoveredAfter }: { replayed: boolean; recoveredAfter?: string },
): IDataObject {
	const output = plan.output?.({ message, data: record }) ?? record;
	const json = Array.isArray(output) ? (output[0] ?? {}) : output;
	return { ...json, replayed, ...(recoveredAfter ? { recoveredAfter } : {}) };
}

/** 'only': a 422 whose sole complaint is a taken reference_no; 'amongOthers': taken, and more is wrong. */
function referenceTaken(error: ServiceError): 'only' | 'amongOthers' | undefined {
	const { status, fieldErrors } = error.failure;
	const messages = fieldErrors?.reference_no;
	if (status !== 422 || !Array.isArray(messages) || !messages.some((m) => /taken|already|used|exist|duplicate/i.test(m))) {
		return undefined;
	}
	return Object.keys(fieldErrors ?? {}).length === 1 ? 'only' : 'amongOthers';
}
