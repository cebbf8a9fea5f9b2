/**
 * Money-moving calls (Generate Transaction, Process Disbursement) are made at most once per
 * reference_no, the caller's idempotency key, following the service's own guidance: after an
 * unclear failure (time-out, dropped connection, 5xx, unreadable body) look the reference up and
 * return what exists; resend with the SAME reference_no only when the look-up finds nothing. A
 * definite 4xx is final. A reference that already exists (a re-run workflow, a retried item) is
 * returned as a replay when it matches, and refused when it is a different transaction.
 */
import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { ServiceError } from './errors';

export interface MoneySafeSubmission<T> {
	referenceNo: string;
	/** What is being created, for messages: 'transaction' or 'payout'. */
	noun: string;
	create(): Promise<T>;
	lookup(): Promise<T | undefined>;
	/** Why an existing record is not the one this item asks for, or undefined when it is. */
	conflict(existing: T): string | undefined;
	maxAttempts?: number;
	retryDelayMs?: number;
}

export interface SubmissionOutcome<T> {
	record: T;
	/**
	 * True when the service said the reference was already taken before any request of this item
	 * could have created it (a re-run or a retried item); false when this item created the record,
	 * including when the answer was lost and the look-up found it.
	 */
	replayed: boolean;
	attempts: number;
}

export const DEFAULT_MAX_ATTEMPTS = 3;

export async function submitOnce<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	submission: MoneySafeSubmission<T>,
): Promise<SubmissionOutcome<T>> {
	const maxAttempts = submission.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
	const { referenceNo, noun } = submission;
	let sentUnclear = false;
	let lastError: ServiceError | undefined;

	for (let attempt = 1; attempt <= maxAttempts; attempt++) {
		try {
			return { record: await submission.create(), replayed: false, attempts: attempt };
		} catch (error) {
			if (!(error instanceof ServiceError)) {
				throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
			}
			const taken = isReferenceTaken(error);
			// A definite rejection is final. (NodeApiError hands back a NodeApiError it is given.)
			if (error.failure.kind === 'rejected' && !taken) {
				throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
			}

			const existing = await lookupOrExplain(ctx, itemIndex, submission, error, taken);
			if (existing !== undefined) {
				const conflict = submission.conflict(existing);
				if (conflict) {
					throw new NodeOperationError(
						ctx.getNode(),
						`reference_no "${referenceNo}" is already used for a different ${noun}: ${conflict}`,
						{
							itemIndex,
							description:
								'Each reference_no can be used once. Use a new reference_no for a new ' +
								noun +
								', or the same amount and channel to get the existing one back.',
						},
					);
				}
				// Only the service's "already taken" proves the record predates this item. When the
				// answer was lost instead, the record found is, as far as anyone can tell, this item's own.
				return { record: existing, replayed: taken && !sentUnclear, attempts: attempt };
			}
			if (taken) {
				throw new NodeOperationError(
					ctx.getNode(),
					`reference_no "${referenceNo}" is already used, but the ${noun} could not be found by looking it up`,
					{ itemIndex, description: 'Use a new reference_no, or check the reference with the service.' },
				);
			}
			// Unclear, and the look-up proves nothing was created: resending the same reference is safe.
			sentUnclear = true;
			lastError = error;
			if (attempt < maxAttempts) await sleep((submission.retryDelayMs ?? 250) * attempt);
		}
	}
	throw new NodeOperationError(
		ctx.getNode(),
		`The ${noun} "${referenceNo}" was not created after ${maxAttempts} attempts: ${lastError?.message ?? 'no answer'}`,
		{
			itemIndex,
			description: `A look-up after each attempt confirmed that no ${noun} exists for this reference_no, so running the workflow again is safe.`,
		},
	);
}

function isReferenceTaken(error: ServiceError): boolean {
	const messages = error.failure.fieldErrors?.reference_no;
	return (
		error.failure.status === 422 &&
		Array.isArray(messages) &&
		messages.some((m) => /taken|already|used|exist|duplicate/i.test(m))
	);
}

async function lookupOrExplain<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	submission: MoneySafeSubmission<T>,
	cause: ServiceError,
	taken: boolean,
): Promise<T | undefined> {
	try {
		return await submission.lookup();
	} catch (lookupError) {
		const reason = lookupError instanceof Error ? lookupError.message : String(lookupError);
		const { noun, referenceNo } = submission;
		// After "already taken" the record surely exists; only the comparison with it is missing.
		const what = taken
			? `reference_no "${referenceNo}" is already used, and looking the ${noun} up to compare it failed`
			: `Could not confirm whether the ${noun} "${referenceNo}" was created: ${cause.message}; the look-up failed too`;
		throw new NodeOperationError(
			ctx.getNode(),
			`${what} (${reason})`,
			{
				itemIndex,
				description:
					'Running the workflow again is safe: the same reference_no is never paid twice, and an existing one is returned as a replay.',
			},
		);
	}
}
