/**
 * The run-wide checks of operations that create money: Dry Run and Maximum Total per Run. Both are
 * read once, before anything is sent, and fail closed: a limit the node cannot read stops the run.
 */
import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readOption } from '../descriptions/executionOptions';
import { readLimit } from '../validation/validation';
import { stopRun } from './runStop';

export interface RunGuards {
	/** Check every row and show what would be sent; send nothing that creates money. */
	dryRun: boolean;
	/** The largest sum of all rows' amounts this run may send, when set. */
	maxTotal?: number;
}

/** Options shared by Generate and Payout Create (added to their Options collection). */
export function moneyGuardOptions(noun: string): INodeProperties[] {
	return [
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description: `Whether to only check every row and show what would be sent, with a summary item (rows, total per channel, rows that would fail and why). Nothing that creates a ${noun} is sent.`,
		},
		{
			displayName: 'Maximum Total per Run',
			name: 'maxTotalPerRun',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: 100000,
			description: `Safety limit: the amounts of all input rows are added up before the first request, and when the sum is above this, no ${noun} is sent at all. A plain positive number (e.g. 100000); anything else stops the node. Remove the option to have no limit.`,
		},
	];
}

/**
 * A safety limit from the Options collection, or undefined when the option is not set. Whether it
 * is set is read from the stored parameters: an expression that comes out empty is a set limit
 * that cannot be read, not an absent one.
 */
export function readSafetyLimit(
	ctx: IExecuteFunctions,
	itemIndex: number,
	option: string,
	label: string,
	node: INode = ctx.getNode(),
): number | undefined {
	const options = node.parameters.options as Record<string, unknown> | undefined;
	if (options?.[option] === undefined) return undefined;
	const raw = readOption(ctx, option, itemIndex, undefined);
	const limit = readLimit(raw);
	if (limit !== undefined) return limit;
	const given = typeof raw === 'string' || typeof raw === 'number' ? String(raw).slice(0, 40) : '';
	const shown = given.trim() === '' ? 'empty' : `"${given}"`;
	throw stopRun(
		new NodeOperationError(node, `${label} is ${shown}, not a positive number: nothing was sent`, {
			itemIndex,
			description:
				'Write the limit as a plain number such as 20000 (no commas, currency signs or text), or remove the option to have no limit.',
		}),
	);
}

export function readRunGuards(ctx: IExecuteFunctions): RunGuards {
	if (ctx.getInputData().length === 0) return { dryRun: false };
	return {
		dryRun: readOption(ctx, 'dryRun', 0, false) === true,
		maxTotal: readSafetyLimit(ctx, 0, 'maxTotalPerRun', 'Maximum Total per Run'),
	};
}
