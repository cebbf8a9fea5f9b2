/** Look-ups by reference_no, used by the Get operations, the money-safe path and the trigger. */
import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS, INTERFACE_LABEL, pickList, type EndpointName, type RecordKind } from './endpoints';
import { ServiceError } from './errors';
import { callService, type ServiceContext } from './transport';

const LOOKUP_ENDPOINT: Record<RecordKind, EndpointName> = {
	transaction: 'getCollectionTransactions',
	payout: 'getPayouts',
};

/** The failure code of a look-up answer that proves neither a record nor its absence. */
export const UNREADABLE_LOOKUP = 'UNREADABLE_LOOKUP';

function isRecord(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The record with exactly this reference_no, or undefined when the service says there is none: an
 * empty list (the documented "nothing matches"). An answer that shows neither (no list, `data:
 * null`, a list of other records only: a filter the service ignored) proves nothing, and "not found"
 * is what lets the money-safe path send again, so it is an unclear failure instead.
 */
export async function findByReference(
	ctx: ServiceContext,
	kind: RecordKind,
	referenceNo: string,
	timeoutMs?: number,
): Promise<IDataObject | undefined> {
	const endpoint = LOOKUP_ENDPOINT[kind];
	const { data } = await callService(ctx, { endpoint, query: { reference_no: referenceNo }, timeoutMs });
	const list = pickList(data, 'transactions') ?? (isRecord(data) && 'reference_no' in data ? [data] : undefined);
	const match = list?.find((entry): entry is IDataObject => isRecord(entry) && entry.reference_no === referenceNo);
	if (match || list?.length === 0) return match;
	throw new ServiceError(
		ctx.getNode(),
		{ kind: 'unclear', networkCode: UNREADABLE_LOOKUP },
		`Looking reference_no "${referenceNo}" up gave an answer that neither holds it nor says it does not exist`,
		`The ${INTERFACE_LABEL[ENDPOINTS[endpoint].api]} interface answered without a list of matches (or with other records only), so whether the ${kind} exists is unknown. Nothing was concluded from it; try again later or check the ${kind} in the service's dashboard.`,
	);
}
