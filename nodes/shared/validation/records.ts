/** Reading the facts a money check compares out of the service's records, in one place each. */
import type { IDataObject } from 'n8n-workflow';

import type { RecordKind } from '../transport/endpoints';

/** Where each kind of record states its amount: a transaction's subtotal is what was asked for (docs/endpoints.md, Answers). */
const AMOUNT_FIELDS: Record<RecordKind, string[]> = {
	transaction: ['subtotal_amount', 'amount'],
	payout: ['amount'],
};

/** The amount a record states, read as amounts are read everywhere; undefined when it states none. */
export function recordAmount(kind: RecordKind, record: IDataObject): unknown {
	for (const field of AMOUNT_FIELDS[kind]) {
		if (record[field] !== undefined && record[field] !== null) return record[field];
	}
	return undefined;
}

/** The channel code of a record: channel.code (documented), or a flat channel_code / channel. */
export function recordChannel(record: IDataObject | undefined): string | undefined {
	const channel = record?.channel;
	if (channel && typeof channel === 'object' && typeof (channel as IDataObject).code === 'string') {
		return (channel as IDataObject).code as string;
	}
	if (typeof record?.channel_code === 'string') return record.channel_code;
	if (typeof channel === 'string') return channel;
	return undefined;
}
