/** Look-ups by reference_no, used by the Get operations, the money-safe path and the trigger. */
import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS, INTERFACE_LABEL, type EndpointName } from './endpoints';
import { pickList } from '../validation/schemas';
import type { RecordKind } from '../validation/records';
import { ServiceError } from './errors';
import { callService, type ServiceRun } from './transport';

const LOOKUP_ENDPOINT: Record<RecordKind, EndpointName> = {
	transaction: 'getCollectionTransactions',
	payout: 'getPayouts',
};

/** The failure code of a look-up answer that proves neither a record nor its absence. */
export const UNREADABLE_LOOKUP = 'UNREADABLE_LOOKUP';
/** The failure code of a look-up answer holding more than one record for the reference. */
export const AMBIGUOUS_LOOKUP = 'AMBIGUOUS_LOOKUP';

function isRecord(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The record with exactly this reference_no, or undefined when the service says there is none: an
 * empty list (the documented "nothing matches"). An answer that shows neither (no list, `data:
 * null`, a list of other records only: a filter the service ignored) proves nothing, and "not found"
 * is what lets the money-safe path send again, so it is an unclear failure instead. Several
 * records with this reference_no (one completed, one cancelled) are ambiguous: no caller may pick
 * one, so that is a failure too.
 */
export async function findByReference(
	run: ServiceRun,
	kind: RecordKind,
	referenceNo: string,
	timeoutMs?: number,
): Promise<IDataObject | undefined> {
	const { ctx } = run;
	const endpoint = LOOKUP_ENDPOINT[kind];
	const { data } = await callService(run, {
		endpoint,
		query: { reference_no: referenceNo },
		timeoutMs,
	});
	const list =
		pickList(data, 'transactions') ??
		(isRecord(data) && 'reference_no' in data ? [data] : undefined);
	const matches =
		list?.filter(
			(entry): entry is IDataObject => isRecord(entry) && entry.reference_no === referenceNo,
		) ?? [];
	if (matches.length > 1) {
		const statuses = matches
			.map((entry) => String(entry.status ?? 'unknown').slice(0, 20))
			.join(', ');
		throw new ServiceError(
			ctx.getNode(),
			{ kind: 'unclear', networkCode: AMBIGUOUS_LOOKUP },
			`Looking reference_no "${referenceNo}" up found ${matches.length} ${kind}s with it (statuses ${statuses}), so which one it is cannot be told`,
			`The ${INTERFACE_LABEL[ENDPOINTS[endpoint].api]} service should hold one ${kind} per reference_no. Nothing was concluded from this look-up (no status taken, nothing sent again): check the reference in the service's dashboard, or ask its support which ${kind} is real.`,
		);
	}
	if (matches.length === 1 || list?.length === 0) return matches[0];
	throw new ServiceError(
		ctx.getNode(),
		{ kind: 'unclear', networkCode: UNREADABLE_LOOKUP },
		`Looking reference_no "${referenceNo}" up gave an answer that neither holds it nor says it does not exist`,
		`The ${INTERFACE_LABEL[ENDPOINTS[endpoint].api]} interface answered without a list of matches (or with other records only), so whether the ${kind} exists is unknown. Nothing was concluded from it; try again later or check the ${kind} in the service's dashboard.`,
	);
}
