/**
 * The list operations of both nodes: Return All / Limit, and `listOperation` for a list fetched
 * as it is (with an optional status filter). The service documents no paging for these lists, so
 * one request fetches the list and Limit trims it.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { EndpointName } from '../transport/endpoints';
import { executionOptionsProperty } from '../descriptions/properties';
import { readExecutionOptions, type Operation } from '../runner/operation';
import { pickList, STATUSES } from '../validation/schemas';

function statusFilterProperty(what: string): INodeProperties {
	return {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'All', value: 'all', description: `Every ${what}, whatever its status` },
			{ name: 'Cancelled', value: 'cancelled' },
			{ name: 'Completed', value: 'completed' },
			{ name: 'Pending', value: 'pending' },
		],
		default: 'all',
		description: `Only return ${what}s with this status`,
	};
}

/** Return All and Limit, shown as the operation using them says (updateDisplayOptions). */
export function limitProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** The `status` query value, or undefined for "all". */
function readStatusFilter(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const status = String(ctx.getNodeParameter('status', itemIndex, 'all') ?? 'all')
		.trim()
		.toLowerCase();
	if (status === '' || status === 'all') return undefined;
	if (!(STATUSES as readonly string[]).includes(status)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Status "${status}" is not one of all, pending, completed, cancelled`,
			{ itemIndex },
		);
	}
	return status;
}

/** Picks the named list out of `data` (or `data` itself), one object per entry. */
function listEntries(node: INode, itemIndex: number, data: unknown, key: string): IDataObject[] {
	const list = pickList(data, key);
	if (!list) {
		throw new NodeOperationError(
			node,
			`The service's answer holds no "${key}" list: check the Endpoint Path option`,
			{
				itemIndex,
			},
		);
	}
	return list.map((entry) =>
		entry && typeof entry === 'object' && !Array.isArray(entry)
			? (entry as IDataObject)
			: ({ value: entry } as IDataObject),
	);
}

/**
 * How many entries to keep: all with Return All, else Limit (50 when Limit is not a number of at
 * least 1). Read while the item is prepared, applied to the answer.
 */
export function readResultLimit(
	ctx: IExecuteFunctions,
	itemIndex: number,
): <T>(entries: T[]) => T[] {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return (entries) => entries;
	const limit = Number(ctx.getNodeParameter('limit', itemIndex, 50));
	const count = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : 50;
	return (entries) => entries.slice(0, count);
}

export interface ListOperationSpec {
	show: Record<string, string[]>;
	/** An assumed path, so the Endpoint Path option is offered. */
	endpoint: EndpointName;
	/** The name of the list in the answer's `data`. */
	key: string;
	/** With a status filter: what one entry is called in its texts, e.g. 'wallet'. */
	statusFilterFor?: string;
}

/** An operation that fetches one list from the service and outputs its entries, Limit applied. */
export function listOperation(spec: ListOperationSpec): Operation {
	const description: INodeProperties[] = [
		...(spec.statusFilterFor ? [statusFilterProperty(spec.statusFilterFor)] : []),
		...limitProperties(),
		executionOptionsProperty(spec.endpoint),
	];

	return {
		description: updateDisplayOptions({ show: spec.show }, description),
		prepare(run, itemIndex) {
			const { ctx } = run;
			const status = spec.statusFilterFor ? readStatusFilter(ctx, itemIndex) : undefined;
			const { timeoutMs, endpointPath } = readExecutionOptions(run, itemIndex);
			const limit = readResultLimit(ctx, itemIndex);
			return {
				send: {
					endpoint: spec.endpoint,
					pathOverride: endpointPath,
					query: status ? { status } : undefined,
					timeoutMs,
				},
				output: ({ data }) => limit(listEntries(ctx.getNode(), itemIndex, data, spec.key)),
			};
		},
	};
}
