/** Picks the operation and hands it to the one shared item loop. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runItems } from './itemRunner';
import { readExecutionOptions, type Operation } from './operation';
import { startRun } from './runContext';
import { runsAsTool, toolAnswerFor } from './toolMode';
import { outcomeOf } from '../transport/transport';
import { simplifyOutput } from './simplifyOutput';
import { SUMMARY_OUTPUT } from '../descriptions/versions';

export type OperationTable = Record<string, Record<string, Operation>>;

export async function routeToOperation(
	ctx: IExecuteFunctions,
	operations: OperationTable,
): Promise<INodeExecutionData[][]> {
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const handler = operations[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" is not supported for the resource "${resource}"`,
		);
	}
	// The run starts here: everything it holds is made once and handed down (runContext.ts).
	const run = startRun(ctx);
	// Concurrency is one setting for the whole run, so it is read from the first item.
	const { concurrency } = readExecutionOptions(run, 0);
	const ran = await outcomeOf(runItems(run, handler, concurrency));
	if ('answer' in ran) {
		const [rows, summary = []] = ran.answer;
		return simplifyOutput(ctx, hasSummaryOutput(ctx) ? [rows, summary] : [[...rows, ...summary]]);
	}
	// An agent reads a refusal as the tool's answer and can tell the user; a crash tells it nothing.
	if (!runsAsTool(ctx)) throw ran.failure;
	return [
		[{ json: toolAnswerFor(ran.failure, ctx.getInputData().length), pairedItem: { item: 0 } }],
	];
}

/**
 * Whether the node, as configured, declares an output for the run's summary (a version that does,
 * descriptions/versions.ts `summaryOutputs`); otherwise the summary follows the rows on the one
 * output, as earlier versions and a tool's answer have it.
 */
function hasSummaryOutput(ctx: IExecuteFunctions): boolean {
	// An agent reads one list, whatever output the node would give a workflow.
	if (runsAsTool(ctx)) return false;
	return ctx.getNodeOutputs().some((output) => output.displayName === SUMMARY_OUTPUT);
}
