/**
 * The one item loop every operation uses. An operation supplies what it does for one item; this
 * owns bounded concurrency, pacing, reading ahead, input order, pairedItem, and continue-on-fail
 * (which n8n would otherwise implement by passing the input through unchanged, losing the error).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { ServiceError } from './errors';

export type ItemResult = IDataObject | IDataObject[];
export type ItemHandler = (ctx: IExecuteFunctions, itemIndex: number) => Promise<ItemResult>;

/**
 * An operation in two steps: `read` takes the item's parameters and checks them (n8n evaluates
 * every expression then, the larger part of an item's CPU) and returns `send`, which talks to the
 * service. The runner reads an item while the one before it is out, so a request leaves as soon
 * as a slot frees up.
 */
export interface ReadThenSend {
	read: (ctx: IExecuteFunctions, itemIndex: number) => () => Promise<ItemResult>;
}

export type ItemOperation = ItemHandler | ReadThenSend;

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 100;

interface ReadItem {
	itemIndex: number;
	send: () => Promise<ItemResult>;
}

export async function runItems(
	ctx: IExecuteFunctions,
	operation: ItemOperation,
	concurrency = DEFAULT_CONCURRENCY,
): Promise<INodeExecutionData[][]> {
	const itemCount = ctx.getInputData().length;
	const results: INodeExecutionData[][] = new Array(itemCount);
	const continueOnFail = ctx.continueOnFail();
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, MAX_CONCURRENCY, itemCount));
	const read =
		typeof operation === 'function'
			? (itemIndex: number) => async () => await operation(ctx, itemIndex)
			: (itemIndex: number) => operation.read(ctx, itemIndex);
	let next = 0;
	const stop: { first?: { itemIndex: number; error: Error } } = {};
	// Without continue-on-fail, nothing after the first failed item is sent; what comes before it
	// is sent even if it was read later, as it would have been one item at a time.
	const maySend = (itemIndex: number) => !stop.first || itemIndex < stop.first.itemIndex;
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
		if (!continueOnFail) {
			stop.first = earliest(stop.first, { itemIndex, error });
			return;
		}
		// For the error output n8n recognises an item whose json is exactly `{error}` and merges
		// it into the input row it is paired with, so users get the failed row back with the
		// reason. (An item carrying an `error` object would instead be cut down to the message.)
		const json = toErrorOutput ? { error: error.message } : errorItem(error, itemIndex);
		results[itemIndex] = [{ json, pairedItem: { item: itemIndex } }];
	};

	/** Takes the next item and reads it; an item that cannot be read is settled here. */
	const readNext = (): ReadItem | undefined => {
		while (next < itemCount && !stop.first) {
			const itemIndex = next++;
			try {
				return { itemIndex, send: read(itemIndex) };
			} catch (caught) {
				settle(itemIndex, { caught });
			}
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
	await Promise.all(Array.from({ length: workers }, work));
	if (stop.first) throw stop.first.error;
	return [results.flat()];
}

/**
 * Paces the sends over event-loop turns. A request's connection is only handled in a later turn,
 * after everything already waiting, so requests started back to back leave together, come back
 * together, and the run moves in bursts (measured at 16 in flight, 20 ms latency, 10,000 payouts:
 * 432 items/s unpaced, about 680 paced).
 *
 * One item starts per turn, except when at least a quarter of the slots are waiting (the run is
 * short of CPU, not waiting on the service): then more start, until 1 ms has passed since the
 * turn's first start. A few sends together cost less CPU per item than one per turn (measured at
 * 64 in flight: 0.8 against 1.2 ms). An item that settles within its turn does not count.
 */
class StartGate {
	private static readonly BATCH_WINDOW_MS = 1;

	private startsThisTurn = 0;
	private turnStartedAt = 0;
	private waiting = 0;
	private turn = 0;
	private turnEnd: Promise<void> | undefined;

	constructor(private readonly slots: number) {}

	/** Waits until this turn may start one more item; returns what to call once the item has settled. */
	async enter(): Promise<() => void> {
		this.waiting++;
		while (!this.mayStart()) await this.nextTurn();
		this.waiting--;
		if (this.startsThisTurn++ === 0) this.turnStartedAt = performance.now();
		const turn = this.turn;
		void this.nextTurn();
		return () => {
			if (this.turn === turn) this.startsThisTurn--;
		};
	}

	private mayStart(): boolean {
		if (this.startsThisTurn === 0) return true;
		return (
			this.waiting * 4 >= this.slots &&
			performance.now() - this.turnStartedAt < StartGate.BATCH_WINDOW_MS
		);
	}

	nextTurn(): Promise<void> {
		this.turnEnd ??= sleep(0).then(() => {
			this.turnEnd = undefined;
			this.turn++;
			this.startsThisTurn = 0;
		});
		return this.turnEnd;
	}
}

function earliest<T extends { itemIndex: number }>(current: T | undefined, candidate: T): T {
	return current && current.itemIndex < candidate.itemIndex ? current : candidate;
}

function asNodeError(ctx: IExecuteFunctions, caught: unknown, itemIndex: number): Error {
	if (caught instanceof NodeApiError || caught instanceof NodeOperationError) {
		caught.context = { ...caught.context, itemIndex };
		return caught;
	}
	const message = caught instanceof Error ? caught.message : String(caught);
	return new NodeOperationError(ctx.getNode(), message, { itemIndex });
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
