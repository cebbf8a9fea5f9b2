/** Picks the operation and hands it to the one shared item loop. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runBatch } from './batchApproval';
import { runItems } from './itemRunner';
import { readExecutionOptions, type Operation } from './operation';
import { startRun, type RunContext } from './runContext';
import { runsAsTool, toolAnswerFor } from './toolMode';
import { outcomeOf } from '../transport/transport';
import { simplifyOutput } from './simplifyOutput';
import { SUMMARY_OUTPUT } from '../descriptions/versions';
import { checkSendAndWait, sentFactsOf, sendsAndWaits, waitForCallback } from './sendAndWait';
import type { SentFacts } from '../validation/waitingItem';

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
	const ran = await outcomeOf(runAndWait(run, handler, concurrency));
	if ('answer' in ran) return ran.answer;
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

/**
 * The item loop, its output simplified as the node says; with Send and Wait for Final Status,
 * checked first and parked after the send, and never simplified: the item after a wait is the
 * record in full either way (docs/waiting.md).
 */
async function runAndWait(
	run: RunContext,
	operation: Operation,
	concurrency: number,
): Promise<INodeExecutionData[][]> {
	const batch = operation.batch?.(run);
	if (batch) return outputsOf(run.ctx, await runBatch(run, operation, batch, concurrency));
	const waitsFor =
		operation.waitsFor !== undefined && sendsAndWaits(run) ? operation.waitsFor : undefined;
	if (!waitsFor)
		return simplifyOutput(run.ctx, outputsOf(run.ctx, await runItems(run, operation, concurrency)));
	await checkSendAndWait(run, waitsFor);
	// What the one item sends, read once from its plan: the wait compares everything with it.
	let sent: SentFacts | undefined;
	const watched: Operation = {
		...operation,
		prepare(itemRun, itemIndex) {
			const plan = operation.prepare(itemRun, itemIndex);
			if ('creates' in plan && plan.creates) sent = sentFactsOf(plan.creates);
			return plan;
		},
	};
	const output = outputsOf(run.ctx, await runItems(run, watched, concurrency));
	return await waitForCallback(run, output, sent);
}

/** The rows and the run's summary as the node's outputs: apart, or the summary after the rows. */
function outputsOf(
	ctx: IExecuteFunctions,
	[rows, summary = []]: INodeExecutionData[][],
): INodeExecutionData[][] {
	return hasSummaryOutput(ctx) ? [rows, summary] : [[...rows, ...summary]];
}
