/**
 * The look-ups the money-safe path makes by reference_no: after an unclear answer, and to say
 * what a taken reference belongs to.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ServiceError, stopsTheRun } from '../transport/errors';
import { AMBIGUOUS_LOOKUP, findByReference } from '../transport/lookups';
import { outcomeOf } from '../transport/transport';
import { recordAmount, recordChannel } from '../validation/records';
import type { MoneyIntent } from './operation';
import type { RunContext } from './runContext';

/** A rejection naming several fields stays a rejection; what the reference belongs to is added to it. */
export async function rejectedWithExisting(
	run: RunContext,
	itemIndex: number,
	intent: MoneyIntent,
	error: ServiceError,
	timeoutMs: number | undefined,
): Promise<ServiceError> {
	const { ctx } = run;
	const lookedUp = await outcomeOf(
		findByReference(run, intent.kind, intent.referenceNo, timeoutMs),
	);
	let found: string;
	if ('failure' in lookedUp) {
		found = `looking reference_no "${intent.referenceNo}" up failed (${(lookedUp.failure as Error).message})`;
	} else if (lookedUp.answer) {
		const existing = lookedUp.answer;
		const channel = recordChannel(existing);
		found =
			`reference_no "${intent.referenceNo}" belongs to an existing ${intent.kind} for ${String(recordAmount(intent.kind, existing) ?? 'an unknown amount')}` +
			`${channel ? ` on ${channel}` : ''}, status ${String(existing.status ?? 'unknown')}`;
	} else {
		found = `a look-up found no ${intent.kind} with reference_no "${intent.referenceNo}"`;
	}
	const rejection = new ServiceError(
		ctx.getNode(),
		error.failure,
		`${error.message}. Also, ${found}`,
		error.description ?? undefined,
	);
	rejection.context = { ...rejection.context, itemIndex };
	return rejection;
}

export async function lookUp(
	run: RunContext,
	itemIndex: number,
	intent: MoneyIntent,
	timeoutMs: number | undefined,
	cause: string | undefined,
): Promise<IDataObject | undefined> {
	const { ctx } = run;
	const lookedUp = await outcomeOf(
		findByReference(run, intent.kind, intent.referenceNo, timeoutMs),
	);
	if ('answer' in lookedUp) return lookedUp.answer;
	const lookupError = lookedUp.failure;
	// Two records for one reference: no retry or replay can be decided, the look-up's own error says so.
	if (
		lookupError instanceof ServiceError &&
		(stopsTheRun(lookupError.failure) || lookupError.failure.networkCode === AMBIGUOUS_LOOKUP)
	) {
		throw lookupError;
	}
	const reason = lookupError instanceof Error ? lookupError.message : String(lookupError);
	// Without a cause the service said the reference is taken: the record exists, only the comparison is missing.
	const what = cause
		? `Could not confirm whether the ${intent.kind} "${intent.referenceNo}" was created: ${cause}; the look-up failed too`
		: `reference_no "${intent.referenceNo}" is already used, and looking the ${intent.kind} up to compare it failed`;
	throw new NodeOperationError(ctx.getNode(), `${what} (${reason})`, {
		itemIndex,
		description:
			'Running the workflow again is safe: the same reference_no is never paid twice, and an existing one is returned as a replay.',
	});
}
