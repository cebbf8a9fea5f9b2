/**
 * The Options collection (descriptions/properties.ts) as a run reads it: one option, and a safety
 * limit that fails closed. Below both the operation contract (operation.ts) and the daily maximum
 * (dailyCap.ts), which read options the same way, so neither imports the other to do it.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runParameter } from './itemValues';
import type { RunContext } from './runContext';
import { quoted, readLimit, stopRun } from './runStop';

/** One value of the Options collection: every option is read through here (once per run unless it is an expression). */
export function readOption(
	run: RunContext,
	name: string,
	itemIndex: number,
	fallback: unknown,
): unknown {
	return runParameter(run, `options.${name}`, itemIndex, fallback);
}

/**
 * A safety limit from the Options collection, or undefined when the option is not set. Whether it
 * is set is read from the stored parameters: an expression that comes out empty is a set limit
 * that cannot be read, not an absent one. A limit that cannot be read stops the run (fails closed).
 */
export function readSafetyLimit(
	run: RunContext,
	itemIndex: number,
	option: string,
	label: string,
	node: INode = run.ctx.getNode(),
): number | undefined {
	const options = node.parameters.options as Record<string, unknown> | undefined;
	if (options?.[option] === undefined) return undefined;
	const raw = readOption(run, option, itemIndex, undefined);
	const limit = readLimit(raw);
	if (limit !== undefined) return limit;
	throw stopRun(
		new NodeOperationError(
			node,
			`${label} is ${quoted(raw)}, not a positive number: nothing was sent`,
			{
				itemIndex,
				description:
					'Write the limit as a plain number such as 20000 (no commas, currency signs or text), or remove the option to have no limit.',
			},
		),
	);
}
