/** Look-ups by reference_no, used by the Get operations, the money-safe path and the trigger. */
import type { IDataObject } from 'n8n-workflow';

import { pickList, type EndpointName, type RecordKind } from './endpoints';
import { callService, type ServiceContext } from './transport';

const LOOKUP_ENDPOINT: Record<RecordKind, EndpointName> = {
	transaction: 'getCollectionTransactions',
	payout: 'getPayouts',
};

export async function findByReference(
	ctx: ServiceContext,
	kind: RecordKind,
	referenceNo: string,
	timeoutMs?: number,
): Promise<IDataObject | undefined> {
	const { data } = await callService(ctx, {
		endpoint: LOOKUP_ENDPOINT[kind],
		query: { reference_no: referenceNo },
		timeoutMs,
	});
	const list = pickList(data, 'transactions') ?? (data && typeof data === 'object' ? [data] : []);
	// Only an exact match counts: a service that ignored the filter must not return someone else's.
	return list.find(
		(entry): entry is IDataObject =>
			!!entry && typeof entry === 'object' && (entry as IDataObject).reference_no === referenceNo,
	);
}
