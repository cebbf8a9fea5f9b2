/**
 * The one item loop every operation uses. An operation supplies `prepare` for one item (operation.ts);
 * this owns bounded concurrency, pacing, reading ahead, input order, pairedItem, continue-on-fail
 * (which n8n would otherwise implement by passing the input through unchanged, losing the error),
 * the row number in every item's error, and stopping the run.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ServiceError } from '../transport/errors';
import { dryRunItems, totalOf } from './dryRun';
import {
	asNodeError,
	earliest,
	errorItem,
	explained,
	notSentError,
	Unexplained,
	stopsRun,
} from './itemErrors';
import { checkApproval, signedApproval } from './approval';
import { dayBeforeApproval, finishDay, planDay, withinDailyCap } from './dailyCap';
import { createOnce, repeatOfEarlierRow, type MoneyPlan } from './moneySafe';
import {
	clampConcurrency,
	type ItemPlan,
	type ItemResult,
	type Operation,
	type RunGuards,
	type SendPlan,
} from './operation';
import { DEFAULT_CONCURRENCY } from '../descriptions/properties';
import { lookUpRecord, pollUntilFinal, reconcileRow } from './recordLookUps';
import { RepeatedReferences } from './repeatedReferences';
import { stopRun, type Failed } from './runStop';
import { StartGate } from './startGate';
import { callService, credentialsFor, outcomeOf } from '../transport/transport';
import { ENDPOINTS, INTERFACE_LABEL } from '../transport/endpoints';
import type { RunContext } from './runContext';

/** How one item's plan is carried out: a look-up, a wait, the money-safe path for creates, or one request. */
export async function carryOut(
	run: RunContext,
	itemIndex: number,
	plan: ItemPlan,
): Promise<ItemResult> {
	if ('lookUp' in plan) return await lookUpRecord(run, itemIndex, plan);
	if ('poll' in plan) return await pollUntilFinal(run, itemIndex, plan);
	if ('reconcile' in plan) return await reconcileRow(run, itemIndex, plan);
	if ('approve' in plan) {
		const { dailyCap } = run;
		const day =
			dailyCap && (await dayBeforeApproval(run, itemIndex, dailyCap, plan.approve.creates));
		return await signedApproval(run, itemIndex, plan, day);
	}
	if (plan.approval) await checkApproval(run, itemIndex, { ...plan, approval: plan.approval });
	if (plan.sandboxOnly) await requireSandbox(run, itemIndex, plan);
	if (plan.creates) {
		const { dailyCap } = run;
		const pay = async () => await createOnce(run, itemIndex, plan as MoneyPlan);
		return dailyCap
			? await withinDailyCap(run, itemIndex, dailyCap, plan.creates, pay)
			: await pay();
	}
	const sent = await outcomeOf(callService(run, plan.send));
	if ('failure' in sent) {
		const { failure } = sent;
		throw failure instanceof ServiceError
			? new Unexplained(failure, async () => await explained(run, plan, failure))
			: failure;
	}
	if (plan.output) return plan.output(sent.answer);
	const { data, message } = sent.answer;
	if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
	return { data: (data ?? null) as IDataObject, message };
}

/** An operation the service offers for testing only is refused, with nothing sent, for a credential outside the sandbox. */
async function requireSandbox(run: RunContext, itemIndex: number, plan: SendPlan): Promise<void> {
	const { ctx } = run;
	const api = ENDPOINTS[plan.send.endpoint].api;
	const environment = (await credentialsFor(run, api)).environment;
	if (environment === 'sandbox') return;
	throw new NodeOperationError(
		ctx.getNode(),
		`${plan.sandboxOnly} is available in the sandbox only, and this ${INTERFACE_LABEL[api]} credential's Environment is "${String(environment ?? 'not set')}"`,
		{
			itemIndex,
			description:
				'Nothing was sent. The service offers this for testing only: use a credential whose Environment is Sandbox.',
		},
	);
}

interface ReadItem {
	itemIndex: number;
	send: () => Promise<ItemResult>;
	/** Settles when the earlier row holding this row's reference is done (repeatedReferences.ts). */
	after?: Promise<void>;
}

export async function runItems(
	run: RunContext,
	operation: Operation,
	concurrency = DEFAULT_CONCURRENCY,
): Promise<INodeExecutionData[][]> {
	const { ctx } = run;
	const itemCount = ctx.getInputData().length;
	const results: INodeExecutionData[][] = new Array(itemCount);
	/** Each row's own output, for the operation's summary (a row that failed has none). */
	const outputs: Array<IDataObject | undefined> = new Array(itemCount);
	const continueOnFail = ctx.continueOnFail();
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	const workers = Math.max(1, Math.min(clampConcurrency(concurrency), itemCount));
	const stop: { first?: Failed; stopper?: Failed } = {};
	let next = 0;

	const fail = (itemIndex: number, error: Error): INodeExecutionData[] => [
		{
			json: toErrorOutput ? { error: error.message } : errorItem(error, itemIndex),
			pairedItem: { item: itemIndex },
		},
	];

	let guards: RunGuards | void = undefined;
	try {
		guards = operation.checkRun?.(run);
		if (guards) run.dailyCap = guards.dailyCap;
	} catch (caught) {
		stop.stopper = { itemIndex: 0, error: asNodeError(ctx, caught, undefined) };
		next = itemCount;
	}
	if (guards?.dryRun) return dryRunItems(run, operation, guards.maxTotal);

	// Without continue-on-fail, nothing after the first failed item is sent; what comes before it
	// is sent even if it was read later, as it would have been one item at a time. After an error
	// that stops the run, nothing more is sent at all.
	const maySend = (itemIndex: number) =>
		!stop.stopper && (!stop.first || itemIndex < stop.first.itemIndex);
	const gate = new StartGate(workers);
	const repeats = new RepeatedReferences();

	/** Records the stop a failed row causes; a later call for the same row replaces its error. */
	const recordStop = (itemIndex: number, caught: unknown, error: Error) => {
		if (stopsRun(caught)) stop.stopper = earliest(stop.stopper, { itemIndex, error });
		if (!continueOnFail) stop.first = earliest(stop.first, { itemIndex, error });
	};
	/** A failure stops the run the moment it arrives, before it is explained (which may look things up). */
	const settleFailure = async (itemIndex: number, caught: unknown) => {
		if (caught instanceof Unexplained) recordStop(itemIndex, caught.failure, caught.failure);
		const explanation =
			caught instanceof Unexplained ? await outcomeOf(caught.explain()) : { failure: caught };
		settle(itemIndex, {
			caught: 'answer' in explanation ? explanation.answer : explanation.failure,
		});
	};
	const settle = (itemIndex: number, outcome: { produced: ItemResult } | { caught: unknown }) => {
		repeats.finished(itemIndex);
		if ('produced' in outcome) {
			const { produced } = outcome;
			if (!Array.isArray(produced)) outputs[itemIndex] = produced;
			results[itemIndex] = (Array.isArray(produced) ? produced : [produced]).map((json) => ({
				json,
				pairedItem: { item: itemIndex },
			}));
			return;
		}
		const error = asNodeError(ctx, outcome.caught, itemIndex);
		recordStop(itemIndex, outcome.caught, error);
		if (!continueOnFail) return;
		// For the error output n8n recognises an item whose json is exactly `{error}` and merges
		// it into the input row it is paired with, so users get the failed row back with the
		// reason. (An item carrying an `error` object would instead be cut down to the message.)
		results[itemIndex] = fail(itemIndex, error);
	};

	const prepare = (itemIndex: number): ItemPlan | undefined => {
		try {
			const plan = operation.prepare(run, itemIndex);
			repeats.claim(ctx.getNode(), itemIndex, plan);
			return plan;
		} catch (caught) {
			settle(itemIndex, { caught });
			return undefined;
		}
	};
	// With Maximum Total per Run every row is prepared first: the sum is known before any request.
	// With Maximum Total per Day too: the payouts are reserved in the ledger in waves, in row order.
	const prepared =
		(guards?.maxTotal !== undefined || run.dailyCap) && !stop.stopper
			? prepareAll(run, itemCount, guards?.maxTotal, prepare, stop, repeats)
			: undefined;
	if (prepared && run.dailyCap && !stop.stopper) {
		// A row after the first that failed is never sent; a row to approve is reserved once approved.
		const payouts = prepared.flatMap((plan, itemIndex) =>
			plan && 'send' in plan && plan.creates && !plan.approval && !repeats.earlierRow(itemIndex)
				? [{ itemIndex, intent: plan.creates }]
				: [],
		);
		planDay(
			run,
			run.dailyCap,
			payouts.filter(({ itemIndex }) => !stop.first || itemIndex < stop.first.itemIndex),
		);
	}

	/** Takes the next item and reads it; an item that cannot be read is settled here. */
	const readNext = (): ReadItem | undefined => {
		while (next < itemCount && !stop.first && !stop.stopper) {
			const itemIndex = next++;
			const plan = prepared ? prepared[itemIndex] : prepare(itemIndex);
			const earlier = repeats.earlierRow(itemIndex);
			if (plan && earlier) {
				return {
					itemIndex,
					after: earlier.done,
					send: async () =>
						await repeatOfEarlierRow(run, itemIndex, plan as MoneyPlan, earlier.itemIndex),
				};
			}
			if (plan) return { itemIndex, send: async () => await carryOut(run, itemIndex, plan) };
		}
		return undefined;
	};

	const work = async () => {
		let ready = readNext();
		while (ready && maySend(ready.itemIndex)) {
			await ready.after;
			const leave = await gate.enter();
			if (!maySend(ready.itemIndex)) {
				leave();
				break;
			}
			const { itemIndex, send } = ready;
			const sent = send().then(
				(produced) => settle(itemIndex, { produced }),
				async (caught: unknown) => await settleFailure(itemIndex, caught),
			);
			void sent.finally(leave);
			// Let the request leave before spending the CPU on reading the next item.
			await gate.nextTurn();
			ready = readNext();
			await sent;
		}
		// A row read but not sent: rows repeating its reference must not wait for it.
		if (ready) repeats.finished(ready.itemIndex);
	};
	try {
		if (itemCount > 0 && next < itemCount) await Promise.all(Array.from({ length: workers }, work));
	} finally {
		await finishDay(run);
	}
	// A stop found before anything was sent (a limit) wins over a bad row found at the same time.
	const failed =
		stop.first && stop.stopper ? earliest(stop.first, stop.stopper) : (stop.first ?? stop.stopper);
	if (!continueOnFail && failed) throw failed.error;
	if (stop.stopper) {
		for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
			if (!results[itemIndex])
				results[itemIndex] = fail(itemIndex, notSentError(ctx, itemIndex, stop.stopper));
		}
	}
	if (!operation.summarize) return [results.flat()];
	// The summary comes apart from the rows: the router puts it on its own output or after them.
	const rows = Array.from({ length: itemCount }, (_, item) => ({ item }));
	const summary = operation.summarize(Array.from(outputs));
	return [results.flat(), [{ json: summary, pairedItem: rows }]];
}

/**
 * Prepares every row and adds up what they would create; above the limit, the run stops with
 * nothing sent. Rows that cannot be prepared are settled (and counted out of the sum) as usual.
 */
function prepareAll(
	run: RunContext,
	itemCount: number,
	maxTotal: number | undefined,
	prepare: (itemIndex: number) => ItemPlan | undefined,
	stop: { stopper?: Failed },
	repeats: RepeatedReferences,
): Array<ItemPlan | undefined> {
	const { ctx } = run;
	const plans = Array.from({ length: itemCount }, (_, itemIndex) => prepare(itemIndex));
	if (maxTotal === undefined) return plans;
	// A row repeating an earlier row's reference never creates anything: counted once.
	const creating = plans.filter(
		(plan, itemIndex) => !repeats.earlierRow(itemIndex) && plan && 'send' in plan && plan.creates,
	);
	const total = totalOf(creating.map((plan) => (plan as MoneyPlan).creates.amount));
	if (maxTotal !== undefined && total > maxTotal) {
		const shown = (amount: number) => amount.toLocaleString('en-US', { maximumFractionDigits: 2 });
		const error = new NodeOperationError(
			ctx.getNode(),
			`The rows add up to ${shown(total)}, above the Maximum Total per Run (${shown(maxTotal)}): nothing was sent`,
			{
				description:
					'Check the sheet for a wrong amount or rows pasted twice (a Dry Run shows every row and the totals), or raise the limit if this total is intended.',
			},
		);
		stop.stopper = { itemIndex: 0, error: stopRun(error) };
	}
	return plans;
}
