/**
 * Applying the "Simplify" option (shared/descriptions/simplify.ts) to a node's output: the
 * handful of fields a person or an AI agent acts on, instead of the full record (a generated
 * transaction alone has about twenty fields, one a Markdown text).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { recordChannel } from '../validation/records';
import { isPerItem } from './itemValues';

/** The fields kept, in this order, when the record has them. */
const KEPT = [
	'reference_no',
	'status',
	'amount',
	'channel',
	'web_payment_url',
	'expires_at',
	'id',
	'replayed',
	'unconfirmed',
	'dailyTotal',
] as const;

/**
 * A payment link or payout cut down to reference_no, status, amount, channel (its code), the
 * payment link and its expiry (collection), the record's id (when the service gives one),
 * replayed and, when the record leaves facts of the row out, unconfirmed; with Maximum Total per
 * Day, the day's figures (dailyTotal). A collection transaction's amount is its subtotal (what was asked for, before fees).
 */
export function simplifyRecord(record: IDataObject): IDataObject {
	const source: IDataObject = {
		...record,
		amount: record.amount ?? record.subtotal_amount,
		channel: recordChannel(record),
	};
	const simple: IDataObject = {};
	for (const key of KEPT) if (source[key] !== undefined) simple[key] = source[key];
	return simple;
}

/** An item the item runner made from a failure, or a dry run's row or summary: left as it is. */
function isErrorItem(item: INodeExecutionData): boolean {
	return 'error' in item.json || 'dryRun' in item.json;
}

function itemIndexOf(item: INodeExecutionData): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : (paired?.item ?? 0);
}

/** Applies the option to a node's main output; operations without it are passed through. */
export function simplifyOutput(
	ctx: IExecuteFunctions,
	outputs: INodeExecutionData[][],
): INodeExecutionData[][] {
	const [main, ...rest] = outputs;
	if (!main || main.length === 0) return outputs;
	// A fixed setting is read once; an expression is read for each item it may differ for.
	const perItem = isPerItem(ctx, 'simplify');
	const fixed = perItem ? undefined : ctx.getNodeParameter('simplify', 0, false) === true;
	if (fixed === false) return outputs;
	const simplified = main.map((item) => {
		if (isErrorItem(item)) return item;
		const wanted = fixed ?? ctx.getNodeParameter('simplify', itemIndexOf(item), false) === true;
		return wanted ? { ...item, json: simplifyRecord(item.json) } : item;
	});
	return [simplified, ...rest];
}
