/**
 * How a failed item looks: its error names the row as a spreadsheet user counts it (from 1), and
 * some errors stop the whole run, whatever the node's error setting.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS, type CallService } from '../transport/endpoints';
import { ServiceError, stopsTheRun } from '../transport/errors';
import { callService } from '../transport/transport';
import type { SendPlan } from './operation';
import { isRunStopper, type Failed } from './runStop';
import type { RunContext } from './runContext';

export function stopsRun(error: unknown): boolean {
	if (error instanceof ServiceError && stopsTheRun(error.failure)) return true;
	return isRunStopper(error);
}

export function earliest<T extends { itemIndex: number }>(current: T | undefined, candidate: T): T {
	return current && current.itemIndex < candidate.itemIndex ? current : candidate;
}

/**
 * A failure of the service still to be explained (a money create's definite refusal, any failure
 * of one request). Explaining may look things up, so the runner first stops the run, then explains.
 */
export class Unexplained extends Error {
	constructor(
		readonly failure: ServiceError,
		readonly explain: () => Promise<Error>,
	) {
		super(failure.message);
	}
}

/**
 * The operation's explanation of a refusal (SendPlan.explain), keeping the service's status and
 * field errors; the refusal itself when the operation has none.
 */
export async function explained(
	run: RunContext,
	plan: SendPlan,
	error: ServiceError,
): Promise<ServiceError> {
	const { ctx } = run;
	const { status, serviceMessage } = error.failure;
	const call = readOnly(ctx.getNode(), async (request) => await callService(run, request));
	const better = await plan.explain?.({ status, serviceMessage, message: error.message }, call);
	return better
		? new ServiceError(ctx.getNode(), error.failure, better.message, better.description)
		: error;
}

/** Look-ups only: explaining a refusal must never create, repost or fetch a token. */
export function readOnly(node: INode, call: CallService): CallService {
	return async (request) => {
		if (ENDPOINTS[request.endpoint].method !== 'GET') {
			throw new NodeOperationError(
				node,
				`Explaining a refusal may only read from the service, not call ${request.endpoint}`,
			);
		}
		return await call(request);
	};
}

/** The error as n8n shows it, its message naming the row. */
export function asNodeError(
	ctx: IExecuteFunctions,
	caught: unknown,
	itemIndex: number | undefined,
): Error {
	let error: NodeApiError | NodeOperationError;
	if (caught instanceof NodeApiError || caught instanceof NodeOperationError) {
		error = caught;
		if (itemIndex !== undefined) error.context = { ...error.context, itemIndex };
	} else {
		const message = caught instanceof Error ? caught.message : String(caught);
		error = new NodeOperationError(
			ctx.getNode(),
			message,
			itemIndex === undefined ? {} : { itemIndex },
		);
	}
	return itemIndex === undefined ? error : withRow(error, itemIndex);
}

function withRow<T extends Error>(error: T, itemIndex: number): T {
	const row = ` (row ${itemIndex + 1})`;
	if (!error.message.endsWith(row)) error.message += row;
	return error;
}

/** Every item a stop kept from being sent says so, so nothing looks done that was not. */
export function notSentError(ctx: IExecuteFunctions, itemIndex: number, stopper: Failed): Error {
	const reason = stopper.error.message.replace(/ \(row \d+\)$/, '');
	const error = new NodeOperationError(
		ctx.getNode(),
		`Not sent, because the run stopped: ${reason}`,
		{
			itemIndex,
			description:
				'Nothing was sent for this row. Fix the cause and run the workflow again: rows already done are returned as replays, never paid twice.',
		},
	);
	return withRow(error, itemIndex);
}

/** What an item that failed looks like on the output (or the error output) of the node. */
export function errorItem(error: Error, itemIndex: number): IDataObject {
	const item: IDataObject = { error: error.message, itemIndex };
	const description = (error as { description?: string | null }).description;
	if (description) item.errorDetails = description;
	if (error instanceof ServiceError) {
		if (error.failure.status) item.httpCode = error.failure.status;
		if (error.failure.fieldErrors) item.fieldErrors = error.failure.fieldErrors;
	}
	return item;
}
