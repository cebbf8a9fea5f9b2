/** Reading a collection transaction back from the service, and comparing it with an item. */
import type { IDataObject, INode } from 'n8n-workflow';

import { ServiceError } from '../../shared/errors';
import { tolerantTransactionSchema } from '../../shared/schemas';

/**
 * The data of a Generate Transaction answer. Only reference_no and status are insisted on (the
 * rest is passed through untouched, absent optional fields included). An answer without them, or
 * for another reference, proves nothing about what was created: it is treated as an unclear
 * failure so the money-safe logic looks the reference up. Takes the context, not the node: n8n
 * copies the node on every getNode call, which only a failure needs.
 */
export function generatedTransaction(ctx: { getNode(): INode }, data: unknown, referenceNo: string): IDataObject {
	const parsed = tolerantTransactionSchema.safeParse(data);
	if (!parsed.success || parsed.data.reference_no !== referenceNo) {
		throw new ServiceError(
			ctx.getNode(),
			{ kind: 'unclear', networkCode: 'UNEXPECTED_BODY' },
			'The service answered Generate Transaction without the transaction',
		);
	}
	return data as IDataObject;
}

/** The amount the transaction was created for: subtotal_amount (2.2), or amount when given. */
function amountOf(transaction: IDataObject): number | undefined {
	for (const key of ['subtotal_amount', 'amount']) {
		const value = transaction[key];
		const amount = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof amount === 'number' && Number.isFinite(amount)) return amount;
	}
	return undefined;
}

/** The channel code of a transaction: channel.code (2.4), or a flat channel_code/channel. */
function channelCodeOf(transaction: IDataObject): string | undefined {
	const channel = transaction.channel;
	if (channel && typeof channel === 'object' && typeof (channel as IDataObject).code === 'string') {
		return (channel as IDataObject).code as string;
	}
	if (typeof transaction.channel_code === 'string') return transaction.channel_code;
	if (typeof channel === 'string') return channel;
	return undefined;
}

/**
 * Why an existing transaction is not the one this item asks for, or undefined when it is. A field
 * the look-up does not show cannot contradict the item, so only values that are present count.
 */
export function describeConflict(
	existing: IDataObject,
	amount: number,
	channelCode: string,
): string | undefined {
	const problems: string[] = [];
	const existingAmount = amountOf(existing);
	if (existingAmount !== undefined && Math.round(existingAmount * 100) !== Math.round(amount * 100)) {
		problems.push(`it was created for amount ${existingAmount}, not ${amount}`);
	}
	const existingChannel = channelCodeOf(existing);
	if (existingChannel !== undefined && existingChannel !== channelCode) {
		problems.push(`it was created for channel ${existingChannel}, not ${channelCode}`);
	}
	return problems.length ? problems.join(' and ') : undefined;
}
