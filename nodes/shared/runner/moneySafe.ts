/**
 * The money-safe path: every request that creates money (Generate Transaction, Process
 * Disbursement) goes through `createOnce`, so each rule below is written once.
 *
 * - reference_no is the idempotency key. After an unclear failure (time-out, dropped connection,
 *   5xx, unreadable body) the reference is looked up first, and resent with the SAME reference_no
 *   only when the look-up finds nothing (the service's own guidance). A definite 4xx is final.
 *   Nothing found after an unclear answer proves nothing: an item left there fails as an outcome
 *   not known yet (`outcomeUnknown`), never as "nothing was paid", and its reservation is kept.
 * - A record is compared with the item by the one check of records.ts (`compareRecord`): each of
 *   reference_no, amount (to the centavo), channel and recipient agrees, differs, or is not stated.
 *   A 2xx must state the item's reference_no, and a fact it states that differs makes it unproven:
 *   a look-up decides, the answer is never believed. A record (answered or found) that states a
 *   differing fact is a conflict that says what differs; facts it leaves out are listed on the
 *   item as `unconfirmed`, never called different (docs/endpoints.md, "What a record must state").
 *   Two records for one reference are an error.
 * - `replayed` is true when the record predates this item: the service said the reference was
 *   taken before this item sent anything unclear, or the record's creation time is more than
 *   CLOCK_SKEW_MS before this item's first send. Otherwise the record is this item's own (false),
 *   and one found after a lost answer says what it was recovered from in `recoveredAfter`.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { ServiceError, stopsTheRun } from '../transport/errors';
import { nothingPaid, refusedOutright } from './dailyCap';
import { explained, Unexplained } from './itemErrors';
import { lookUp, rejectedWithExisting } from './moneyLookUps';
import type { MoneyIntent, SendPlan } from './operation';
import { callService, outcomeOf } from '../transport/transport';
import { recipientFacts } from '../validation/recipient';
import {
	compareRecord,
	recordCreatedAt,
	type ExpectedRecord,
	type Mismatch,
	type RecordComparison,
	type RecordFact,
} from '../validation/records';
import { sentence } from '../validation/shownText';
import type { RunContext } from './runContext';

export const MAX_ATTEMPTS = 3;
const RETRY_DELAY_MS = 250;

/**
 * How far the service's clock may be behind n8n's. `replayed: true` claims the money moved before
 * this item, so it needs proof: a record made less than this before the first send is taken as
 * this item's own. Two minutes is far beyond the drift of synchronised clocks, and far shorter
 * than the gap to any earlier run worth telling apart.
 */
export const CLOCK_SKEW_MS = 2 * 60_000;

export type MoneyPlan = SendPlan & { creates: MoneyIntent };

/** What is known of where a record came from: when this item first sent, and what proves more. */
interface Provenance {
	firstSentAt: number;
	/** The service said the reference was taken before anything unclear, or another row holds it. */
	provenEarlier?: boolean;
	/** The unclear failure the record was found after. */
	unclearCause?: string;
}

/** Sends a money-creating request at most once per reference_no; returns the output item. */
export async function createOnce(
	run: RunContext,
	itemIndex: number,
	plan: MoneyPlan,
): Promise<IDataObject> {
	const { ctx } = run;
	const intent = plan.creates;
	const timeoutMs = plan.send.timeoutMs;
	let unclearCause: string | undefined;
	let lastError: ServiceError | undefined;
	let firstSentAt: number | undefined;

	for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
		firstSentAt ??= Date.now();
		const sent = await outcomeOf(callService(run, plan.send));
		if ('failure' in sent) {
			const error = sent.failure;
			if (!(error instanceof ServiceError) || stopsTheRun(error.failure)) {
				// Refused before the request could pay (a token refused): nothing was paid, unless an earlier attempt was unclear.
				throw unclearCause === undefined && error instanceof ServiceError
					? nothingPaid(error)
					: error;
			}
			const taken = referenceTaken(error);
			// A definite refusal is explained by the runner, once it has stopped the run. It proves
			// this item paid nothing only when nothing unclear was sent before it: a look-up that
			// found nothing after an unclear failure is no proof (the service may still complete it).
			const firstAnswer = unclearCause === undefined;
			if (taken === 'amongOthers') {
				const rejected = new Unexplained(
					error,
					async () => await rejectedWithExisting(run, itemIndex, intent, error, timeoutMs),
				);
				throw firstAnswer ? nothingPaid(rejected) : rejected;
			}
			if (error.failure.kind === 'rejected' && !taken) {
				const rejected = new Unexplained(error, async () => await explained(run, plan, error));
				throw firstAnswer ? refusedOutright(rejected) : rejected;
			}

			const existing = await lookUp(
				run,
				itemIndex,
				intent,
				timeoutMs,
				taken ? undefined : error.message,
			);
			if (existing) {
				// The service's "already taken", before anything unclear, proves the record predates this item.
				const provenEarlier = taken === 'only' && unclearCause === undefined;
				return accept(ctx, itemIndex, plan, existing, {
					firstSentAt,
					provenEarlier,
					unclearCause: unclearCause ?? error.message,
				});
			}
			if (taken) {
				// After an unclear attempt the reference may hold this item's own record, not yet found.
				if (!firstAnswer)
					throw outcomeUnknown(
						run,
						itemIndex,
						intent,
						'an attempt got no clear answer, then the service said this reference_no is already used',
					);
				throw nothingPaid(
					new NodeOperationError(
						ctx.getNode(),
						`reference_no "${intent.referenceNo}" is already used, but the ${intent.kind} could not be found by looking it up`,
						{
							itemIndex,
							description: 'Use a new reference_no, or check the reference with the service.',
						},
					),
				);
			}
			// Unclear, and nothing found yet. Resending the same reference_no is safe, not because
			// nothing was created (the service may still complete it) but because the service takes
			// a reference_no once: a resend is refused as taken, or is the only one that pays.
			unclearCause = error.message;
			lastError = error;
			if (attempt < MAX_ATTEMPTS) await sleep(RETRY_DELAY_MS * attempt);
			continue;
		}
		const { answer } = sent;

		const confirmed = confirmation(intent, answer.data);
		if ('record' in confirmed) {
			return shape(plan, confirmed.record, answer.message, confirmed.unstated, {
				firstSentAt,
				unclearCause,
			});
		}
		const { problem } = confirmed;
		// A 2xx that does not confirm this request proves nothing either way: the look-up decides.
		const said = answer.message ? ` The service said: "${answer.message}".` : '';
		const cause = `the service answered without confirming the ${intent.kind} (${problem})`;
		const existing = await lookUp(run, itemIndex, intent, timeoutMs, cause);
		if (existing)
			return accept(ctx, itemIndex, plan, existing, { firstSentAt, unclearCause: cause });
		// An answer that confirms nothing, then a look-up that finds nothing: the outcome is not
		// known (the service may still complete it), so a reservation for it is kept.
		throw outcomeUnknown(
			run,
			itemIndex,
			intent,
			`the service answered without confirming it (${problem})`,
			said,
		);
	}
	// Every attempt unclear and every look-up empty: not a proof that nothing will be paid.
	throw outcomeUnknown(
		run,
		itemIndex,
		intent,
		`none of ${MAX_ATTEMPTS} attempts got a clear answer`,
		` Last attempt: ${sentence(lastError?.message ?? 'no answer')}`,
	);
}

/**
 * The error for an outcome not known yet: nothing found under the reference after an unclear
 * answer proves nothing, the service may still complete it. It is not `nothingPaid`, so a
 * reservation for it stays in the ledger (dailyCap.ts); the description says how it is settled.
 */
function outcomeUnknown(
	run: RunContext,
	itemIndex: number,
	{ kind, referenceNo }: MoneyIntent,
	what: string,
	details = '',
): NodeOperationError {
	const operations =
		kind === 'payout'
			? 'Payout > Get or Payout > Reconcile'
			: 'Transaction > Get or Transaction > Reconcile';
	const twice = kind === 'payout' ? 'could pay twice' : 'could create a second transaction';
	const kept = run.dailyCap
		? ` Its amount stays counted toward Maximum Total per Day in the Payout Ledger until a run with the same reference_no settles it, or a person who checked the ${kind} removes or marks its row.`
		: '';
	return new NodeOperationError(
		run.ctx.getNode(),
		`The outcome of the ${kind} "${referenceNo}" is not known yet: ${what}. No ${kind} was found under this reference_no so far, but the service may still complete it.${details}`,
		{
			itemIndex,
			description: `Check it with ${operations} before anything else. To try again, use the same reference_no: a run with it finds the ${kind} or sends it once, while a new reference_no ${twice}.${kept}`,
		},
	);
}

/**
 * A row repeating the reference of an earlier row of this run, once that row is done: nothing is
 * sent, the look-up answers (a replay of that row's record, or a conflict saying what differs).
 */
export async function repeatOfEarlierRow(
	run: RunContext,
	itemIndex: number,
	plan: MoneyPlan,
	earlierIndex: number,
): Promise<IDataObject> {
	const { ctx } = run;
	const intent = plan.creates;
	const cause = `row ${earlierIndex + 1} has the same reference_no`;
	const existing = await lookUp(run, itemIndex, intent, plan.send.timeoutMs, cause);
	if (existing)
		return accept(ctx, itemIndex, plan, existing, { firstSentAt: Date.now(), provenEarlier: true });
	throw new NodeOperationError(
		ctx.getNode(),
		`Not sent: ${cause} "${intent.referenceNo}", and a look-up found no ${intent.kind} with it`,
		{
			itemIndex,
			description: `Fix what row ${earlierIndex + 1} reports and run the workflow again; each reference_no is sent once per run.`,
		},
	);
}

/** What a record must state to be this item's: its reference_no, amount, channel and recipient. */
function expectedOf(intent: MoneyIntent): ExpectedRecord {
	const { referenceNo, amount, channel, recipient } = intent;
	return { referenceNo, amount, channel, recipient: recipient && recipientFacts(recipient) };
}

/**
 * A 2xx body confirms this request when it is a record that states the item's reference_no and no
 * fact that differs; what it leaves unstated is listed. Otherwise, why it does not.
 */
function confirmation(
	intent: MoneyIntent,
	data: unknown,
): { record: IDataObject; unstated: RecordFact[] } | { problem: string } {
	if (!data || typeof data !== 'object' || Array.isArray(data))
		return { problem: 'no record in the answer' };
	const record = data as IDataObject;
	const { differs, unstated } = compareRecord(intent.kind, expectedOf(intent), record);
	if (unstated.includes('reference_no')) return { problem: 'the record has no reference_no' };
	const [first] = differs;
	if (!first) return { record, unstated };
	if (first.fact === 'reference_no')
		return { problem: `the record is for reference_no "${first.recorded}"` };
	return { problem: `the record is for ${first.fact} ${first.recorded}, not ${first.expected}` };
}

/** How an existing record differs from this item, one phrase per fact. */
const EXISTING_DIFFERS: Record<Mismatch['fact'], string> = {
	reference_no: 'has reference_no',
	amount: 'is for',
	channel: 'uses channel',
	'mobile number': 'pays mobile number',
	'bank code': 'pays through bank code',
	'account number': 'pays account number',
};

/** Why an existing record is not the one this item asks for: each fact it states that differs. */
function conflictWith(intent: MoneyIntent, { differs }: RecordComparison): string | undefined {
	const reasons = differs.map(
		({ fact, expected, recorded }) =>
			`the existing ${intent.kind} ${EXISTING_DIFFERS[fact]} ${recorded}, this item asks for ${expected}`,
	);
	return reasons.length > 0 ? reasons.join(', and ') : undefined;
}

function accept(
	ctx: IExecuteFunctions,
	itemIndex: number,
	plan: MoneyPlan,
	existing: IDataObject,
	provenance: Provenance,
): IDataObject {
	const { kind, referenceNo } = plan.creates;
	const comparison = compareRecord(kind, expectedOf(plan.creates), existing);
	const conflict = conflictWith(plan.creates, comparison);
	if (conflict) {
		const same =
			kind === 'payout' ? 'the same amount, channel and recipient' : 'the same amount and channel';
		throw nothingPaid(
			new NodeOperationError(
				ctx.getNode(),
				`reference_no "${referenceNo}" is already used for a different ${kind}: ${conflict}`,
				{
					itemIndex,
					description: `Each reference_no can be used once. Use a new reference_no for a new ${kind}, or ${same} to get the existing one back.`,
				},
			),
		);
	}
	return shape(plan, existing, '', comparison.unstated, provenance);
}

/**
 * The output item: the record, `replayed`, what it was recovered from when it is this item's own,
 * and `unconfirmed`, the facts of the item the record does not state (when there are any).
 */
function shape(
	plan: MoneyPlan,
	record: IDataObject,
	message: string,
	unstated: RecordFact[],
	{ firstSentAt, provenEarlier, unclearCause }: Provenance,
): IDataObject {
	const createdAt = recordCreatedAt(plan.creates.kind, record);
	const replayed =
		provenEarlier === true || (createdAt !== undefined && createdAt < firstSentAt - CLOCK_SKEW_MS);
	const output = plan.output?.({ message, data: record }) ?? record;
	const json = Array.isArray(output) ? (output[0] ?? {}) : output;
	return {
		...json,
		replayed,
		...(!replayed && unclearCause ? { recoveredAfter: unclearCause } : {}),
		...(unstated.length > 0 ? { unconfirmed: unstated } : {}),
	};
}

/** 'only': a 422 whose sole complaint is a taken reference_no; 'amongOthers': taken, and more is wrong. */
function referenceTaken(error: ServiceError): 'only' | 'amongOthers' | undefined {
	const { status, fieldErrors } = error.failure;
	const messages = fieldErrors?.reference_no;
	if (
		status !== 422 ||
		!Array.isArray(messages) ||
		!messages.some((m) => /taken|already|used|exist|duplicate/i.test(m))
	) {
		return undefined;
	}
	return Object.keys(fieldErrors ?? {}).length === 1 ? 'only' : 'amongOthers';
}
