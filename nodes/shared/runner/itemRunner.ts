/**
 * The one item loop every operation uses. An operation supplies `prepare` for one item (operation.ts);
 * this owns bounded concurrency, pacing, reading ahead, input order, pairedItem, continue-on-fail
 * (which n8n would otherwise implement by passing the input through unchanged, losing the error),
 * the row number in every item's error, and stopping the run.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ServiceError, stopsTheRun } from '../transport/errors';
import { createOnce, type MoneyPlan } from './moneySafe';
import { dryRunItems, totalOf } from './dryRun';
import type { RunGuards } from './moneyGuards';
import type { ItemPlan, ItemResult, Operation } from './operation';
import { StartGate } from './startGate';
import { callService, outcomeOf } from '../transport/transport';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 100;

/** Errors after which nothing more is sent, whatever the node's error setting (invalid safety limits). */
const runStoppers = new WeakSet<Error>();

/** Marks an error as one that stops the run: no item is sent after it, even with continue-on-fail. */
export function stopRun<T extends Error>(error: T): T {
	runStoppers.add(error);
	return error;
}

function stopsRun(error: unknown): boolean {
	if (error instanceof ServiceError && stopsTheRun(error.failure)) return true;
	return error instanceof Error && runStoppers.has(error);
}

/** How one item's plan is carried out: the money-safe path for creates, one request, or a read. */
export async function carryOut(ctx: IExecuteFunctions, itemIndex: number, plan: ItemPlan): Promise<ItemResult> {
	if ('read' in plan) return await plan.read();
	if (plan.creates) return await createOnce(ctx, itemIndex, plan as MoneyPlan);
	const sent = await outcomeOf(callService(ctx, plan.send));
	if ('failure' in sent) {
		const { failure } = sent;
		throw (failure instanceof ServiceError && (await plan.explain?.(failure))) || failure;
	}
	if (plan.output) return plan.output(sent.answer);
	const { data, message } = sent.answer;
	if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
	return { data: (data ?? null) as IDataObject, message };
}

interface ReadItem {
	itemIndex: number;
	send: () => Promise<ItemResult>;
}

interface Failed {
	itemIndex: number;
	error: Error;
}

export async function runItems(
	ctx: IExecuteFunctions,
	operation: Operation,
	concurrency = DEFAULT_CONCURRENCY,
): Promise<INodeExecutionData[][]> {
	const itemCount = ctx.getInputData().length;
	const results: INodeExecutionData[][] = new Array(itemCount);
	const continueOnFail = ctx.continueOnFail();
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, MAX_CONCURRENCY, itemCount));
	const stop: { first?: Failed; stopper?: Failed } = {};
	let next = 0;

	const fail = (itemIndex: number, error: Error): INodeExecutionData[] => [
		{ json: toErrorOutput ? { error: error.message } : errorItem(error, itemIndex), pairedItem: { item: itemIndex } },
	];

	let guards: RunGuards | void = undefined;
	try {
		guards = operation.checkRun?.(ctx);
	} catch (caught) {
		stop.stopper = { itemIndex: 0, error: asNodeError(ctx, caught, undefined) };
		next = itemCount;
	}
	if (guards?.dryRun) return dryRunItems(ctx, operation, guards.maxTotal);

	// Without continue-on-fail, nothing after the first failed item is sent; what comes before it
	// is sent even if it was read later, as it would have been one item at a time. After an error
	// that stops the run, nothing more is sent at all.
	const maySend = (itemIndex: number) => !stop.stopper && (!stop.first || itemIndex < stop.first.itemIndex);
	const gate = new StartGate(workers);

	const settle = (itemIndex: number, outcome: { produced: ItemResult } | { caught: unknown }) => {
		if ('produced' in outcome) {
			const { produced } = outcome;
			results[itemIndex] = (Array.isArray(produced) ? produced : [produced]).map((json) => ({
				json,
				pairedItem: { item: itemIndex },
			}));
			return;
		}
		const error = asNodeError(ctx, outcome.caught, itemIndex);
		if (stopsRun(outcome.caught)) stop.stopper = earliest(stop.stopper, { itemIndex, error });
		if (!continueOnFail) {
			stop.first = earliest(stop.first, { itemIndex, error });
			return;
		}
		// For the error output n8n recognises an item whose json is exactly `{error}` and merges
		// it into the input row it is paired with, so users get the failed row back with the
		// reason. (An item carrying an `error` object would instead be cut down to the message.)
		results[itemIndex] = fail(itemIndex, error);
	};

	const prepare = (itemIndex: number): ItemPlan | undefined => {
		try {
			return operation.prepare(ctx, itemIndex);
		} catch (caught) {
			settle(itemIndex, { caught });
			return undefined;
		}
	};
	// With Maximum Total per Run every row is prepared first: the sum is known before any request.
	const prepared = guards?.maxTotal !== undefined && !stop.stopper ? prepareAll(ctx, itemCount, guards.maxTotal, prepare, stop) : undefined;

	/** Takes the next item and reads it; an item that cannot be read is settled here. */
	const readNext = (): ReadItem | undefined => {
		while (next < itemCount && !stop.first && !stop.stopper) {
			const itemIndex = next++;
			const plan = prepared ? prepared[itemIndex] : prepare(itemIndex);
			if (plan) return { itemIndex, send: async () => await carryOut(ctx, itemIndex, plan) };
		}
		return undefined;
	};

	const work = async () => {
		let ready = readNext();
		while (ready && maySend(ready.itemIndex)) {
			const leave = await gate.enter();
			if (!maySend(ready.itemIndex)) {
				leave();
				break;
			}
			const { itemIndex, send } = ready;
			const sent = send().then(
				(produced) => settle(itemIndex, { produced }),
				(caught: unknown) => settle(itemIndex, { caught }),
			);
			void sent.finally(leave);
			// Let the request leave before spending the CPU on reading the next item.
			await gate.nextTurn();
			ready = readNext();
			await sent;
		}
	};
	if (itemCount > 0 && next < itemCount) await Promise.all(Array.from({ length: workers }, work));
	// A stop found before anything was sent (a limit) wins over a bad row found at the same time.
	const failed = stop.first && stop.stopper ? earliest(stop.first, stop.stopper) : (stop.first ?? stop.stopper);
	if (!continueOnFail && failed) throw failed.error;
	if (stop.stopper) {
		// Every item the stop kept from being sent says so, so nothing looks done that was not.
		const reason = stop.stopper.error.message.replace(/ \(row \d+\)$/, '');
		for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
			if (results[itemIndex]) continue;
			const error = new NodeOperationError(ctx.getNode(), `Not sent, because the run stopped: ${reason}`, {
				itemIndex,
				description: 'Nothing was sent for this row. Fix the cause and run the workflow again: rows already done are returned as replays, never paid twice.',
			});
			results[itemIndex] = fail(itemIndex, withRow(error, itemIndex));
		}
	}
	return [results.flat()];
}

function earliest<T extends { itemIndex: number }>(current: T | undefined, candidate: T): T {
	return current && current.itemIndex < candidate.itemIndex ? current : candidate;
}

/**
 * Prepares every row and adds up what they would create; above the limit, the run stops with
 * nothing sent. Rows that cannot be prepared are settled (and counted out of the sum) as usual.
 */
function prepareAll(
	ctx: IExecuteFunctions,
	itemCount: number,
	maxTotal: number,
	prepare: (itemIndex: number) => ItemPlan | undefined,
	stop: { stopper?: Failed },
): Array<ItemPlan | undefined> {
	const plans = Array.from({ length: itemCount }, (_, itemIndex) => prepare(itemIndex));
	const total = totalOf(plans.flatMap((plan) => (plan && 'send' in plan && plan.creates ? [plan.creates.amount] : [])));
	if (total > maxTotal) {
		const shown = (amount: number) => amount.toLocaleString('en-US', { maximumFractionDigits: 2 });
		const error = new NodeOperationError(
			ctx.getNode(),
			`The rows add up to ${shown(total)}, above the Maximum Total per Run (${shown(maxTotal)}): nothing was sent`,
			{ description: 'Check the sheet for a wrong amount or rows pasted twice (a Dry Run shows every row and the totals), or raise the limit if this total is intended.' },
		);
		stop.stopper = { itemIndex: 0, error: stopRun(error) };
	}
	return plans;
}

/** The error as n8n shows it, its message naming the row as a spreadsheet user counts it (from 1). */
function asNodeError(ctx: IExecuteFunctions, caught: unknown, itemIndex: number | undefined): Error {
	let error: NodeApiError | NodeOperationError;
	if (caught instanceof NodeApiError || caught instanceof NodeOperationError) {
		error = caught;
		if (itemIndex !== undefined) error.context = { ...error.context, itemIndex };
	} else {
		const message = caught instanceof Error ? caught.message : String(caught);
		error = new NodeOperationError(ctx.getNode(), message, itemIndex === undefined ? {} : { itemIndex });
	}
	return itemIndex === undefined ? error : withRow(error, itemIndex);
}

function withRow<T extends Error>(error: T, itemIndex: number): T {
	const row = ` (row ${itemIndex + 1})`;
	if (!error.message.endsWith(row)) error.message += row;
	return error;
}

/** What an item that failed looks like on the output (or the error output) of the node. */
function errorItem(error: Error, itemIndex: number): IDataObject {
	const item: IDataObject = { error: error.message, itemIndex };
	const description = (error as { description?: string | null }).description;
	if (description) item.errorDetails = description;
	if (error instanceof ServiceError) {
		if (error.failure.status) item.httpCode = error.failure.status;
		if (error.failure.fieldErrors) item.fieldErrors = error.failure.fieldErrors;
	}
	return item;
}
