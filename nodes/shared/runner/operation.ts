/**
 * What an operation is, as the item runner sees it, and what it may read of the run. An operation
 * describes its parameters and, per item, `prepare` reads and checks that item (every bad value at
 * once) and says what to do with it. The runner does it; an operation that creates money says what
 * it creates, and the money-safe path (moneySafe.ts) owns everything that makes creating it safe,
 * so no operation can skip a rule. The Options collection (descriptions/properties.ts) is read
 * through options.ts.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_TIMEOUT_MS,
	type ApiInterface,
	type CallService,
	type ServiceRequest,
	type ServiceResponse,
} from '../transport/endpoints';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../descriptions/properties';
import type { DailyCap } from '../validation/days';
import type { Recipient } from '../validation/recipient';
import type { RecipientFacts, RecordKind } from '../validation/records';
import { isPerItem, runParameter } from './itemValues';
import { readSafetyLimit } from './options';
import type { RunContext } from './runContext';
import { parseDryRun, sameForEveryRow, type DryRunChoice } from './runStop';

export type ItemResult = IDataObject | IDataObject[];

/** What a money-creating request creates: the facts a replay or an answer is checked against. */
export interface MoneyIntent {
	kind: RecordKind;
	referenceNo: string;
	amount: number;
	/** The channel code sent. */
	channel: string;
	/** Who is paid (payouts), read once from the body sent (recipient.ts): a found record must pay the same. */
	recipient?: Recipient;
}

/** A definite refusal of the service, as an operation may explain it. */
export interface Refusal {
	status?: number;
	/** The service's own message, when it sent one. */
	serviceMessage?: string;
	/** What the user would read without a better explanation. */
	message: string;
}

/** A clearer message for a refusal; the runner keeps the service's status and field errors. */
export interface Explanation {
	message: string;
	description?: string;
}

/** One request to the service. */
export interface SendPlan {
	send: ServiceRequest;
	/** Set by operations that create money: the request then goes through the money-safe path. */
	creates?: MoneyIntent;
	/** The output for the service's answer (for a money create: the confirmed record). */
	output?: (answer: ServiceResponse) => ItemResult;
	/** A clearer error for a refusal this operation knows; `call` reaches the service for a look-up. */
	explain?: (
		refusal: Refusal,
		call: CallService,
	) => Explanation | undefined | Promise<Explanation | undefined>;
	/**
	 * Set by operations the service offers for testing only (their name, for the refusal): the
	 * request is sent only with a credential whose Environment is Sandbox.
	 */
	sandboxOnly?: string;
	/**
	 * An approval token (Payout > Confirm): the request is sent only when the token was signed by
	 * this node's credential, has not expired and covers exactly this request (runner/approval.ts).
	 */
	approval?: string;
}

/**
 * A payout a person approves before it is sent (Payout > Prepare): nothing is sent; the runner
 * signs exactly this request with the credential and returns a summary with the approval token.
 */
export interface ApprovePlan {
	approve: {
		send: ServiceRequest;
		creates: MoneyIntent;
		/** The form's channel type, kept in the token for Confirm's explanation of a refused channel. */
		channelType: string;
		validForMs: number;
	};
}

/** The record a reference_no names, looked up once. */
export interface LookUpPlan {
	lookUp: { kind: RecordKind; referenceNo: string; timeoutMs: number };
	/** What a reference without a record gives: an error, or no item ("On Not Found" offered by the operation). */
	onNotFound: 'fail' | 'outputNothing';
}

/** The record a reference_no names, looked up with growing pauses until its status is final or time runs out. */
export interface PollPlan {
	poll: {
		kind: RecordKind;
		referenceNo: string;
		timeoutMs: number;
		limitMs: number;
		firstMs: number;
		longestMs: number;
	};
}

/**
 * A row checked against the record its reference_no names, looked up once: the record's status and
 * every fact given in `expect` that the record does not agree on. Nothing is ever sent but the look-up.
 */
export interface ReconcilePlan {
	reconcile: {
		kind: RecordKind;
		referenceNo: string;
		timeoutMs: number;
		/** The facts the row gives (each compared when present). */
		expect: { amount?: number; channel?: string; recipient?: RecipientFacts };
	};
}

/**
 * What an operation does with one item, in the runner's words: send one request (through the
 * money-safe path when it creates money), look a record up, wait for its final status, check a row
 * against its record, or sign a payout for a person's approval. The runner carries every plan out
 * (itemRunner.ts `carryOut`), so no operation reaches the service itself.
 */
export type ItemPlan = SendPlan | LookUpPlan | PollPlan | ReconcilePlan | ApprovePlan;

/**
 * How an operation takes all its items as one batch (runner/batchApproval.ts): Prepare signs one
 * approval over the list; Confirm pays exactly the approved list, given Prepare's item for it.
 */
export type BatchMode = { approve: true } | { confirm: unknown };

export interface Operation {
	description: INodeProperties[];
	/** Set by operations that may take their items as one batch: how this run does, or undefined. */
	batch?(run: RunContext): BatchMode | undefined;
	/**
	 * Reads and checks one item; throws one error listing every problem. Called for the next item
	 * while earlier items' requests are out, and never for an item after the run stopped.
	 */
	prepare(run: RunContext, itemIndex: number): ItemPlan;
	/**
	 * Checks made once before anything is sent (safety limits), and the run-wide guards of
	 * operations that create money: an error here stops the node with nothing sent, whatever the
	 * node's error setting.
	 */
	checkRun?(run: RunContext): RunGuards | void;
	/**
	 * One item added after every row's item, made from each row's output (undefined for a row that
	 * failed): Reconcile's totals.
	 */
	summarize?(outputs: Array<IDataObject | undefined>): IDataObject;
	/**
	 * Set by operations offering Send and Wait for Final Status: the interface whose callback
	 * resumes the execution (sendAndWait.ts).
	 */
	waitsFor?: ApiInterface;
}

/** A whole number from 1 to MAX_CONCURRENCY; a value that cannot be read is the default. */
export function clampConcurrency(value: unknown): number {
	const concurrency = Math.floor(Number(value ?? DEFAULT_CONCURRENCY));
	if (!Number.isFinite(concurrency) || concurrency < 1) return DEFAULT_CONCURRENCY;
	return Math.min(concurrency, MAX_CONCURRENCY);
}

export interface ExecutionOptions {
	concurrency: number;
	timeoutMs: number;
	endpointPath?: string;
}

export function readExecutionOptions(run: RunContext, itemIndex = 0): ExecutionOptions {
	const raw = runParameter(run, 'options', itemIndex, {}) as {
		concurrency?: number;
		timeoutSeconds?: number;
		endpointPath?: string;
	};
	const timeoutSeconds = Number(raw.timeoutSeconds ?? DEFAULT_TIMEOUT_MS / 1000);
	return {
		concurrency: clampConcurrency(raw.concurrency),
		timeoutMs:
			Number.isFinite(timeoutSeconds) && timeoutSeconds > 0
				? timeoutSeconds * 1000
				: DEFAULT_TIMEOUT_MS,
		endpointPath: raw.endpointPath?.trim() || undefined,
	};
}

/** The run-wide guards of operations that create money, read once before anything is sent. */
export interface RunGuards {
	/** Check every row and show what would be sent; send nothing that creates money. */
	dryRun: boolean;
	/** The largest sum of all rows' amounts this run may send, when set. */
	maxTotal?: number;
	/** Maximum Total per Day, when set: every payout is reserved in the ledger first (dailyCap.ts). */
	dailyCap?: DailyCap;
}

/**
 * Where an operation's Dry Run is set: the parameter path and its value when unset, and for a
 * choice that stands for it (rather than the Dry Run switch) its name and values.
 */
export interface DryRunSetting {
	path: string;
	fallback: unknown;
	choice?: DryRunChoice;
}

/** Dry Run in the Options collection (`moneyGuardOptions`). */
export const DRY_RUN_OPTION: DryRunSetting = { path: 'options.dryRun', fallback: false };

/**
 * Dry Run and Maximum Total per Run (options added by `moneyGuardOptions`): one value each for the
 * run, read from the first row, or from every row when an expression sets it (runStop.ts). Dry Run
 * is read where the operation keeps it (`dryRun`), fail-closed wherever that is.
 */
export function readRunGuards(run: RunContext, dryRun: DryRunSetting = DRY_RUN_OPTION): RunGuards {
	const { ctx } = run;
	const itemCount = ctx.getInputData().length;
	if (itemCount === 0) return { dryRun: false };
	const node = ctx.getNode();
	const runWide = <T>(path: string, label: string, read: (itemIndex: number) => T): T => {
		return isPerItem(ctx, path) ? sameForEveryRow(node, itemCount, label, read) : read(0);
	};
	return {
		dryRun: runWide(dryRun.path, dryRun.choice?.label ?? 'Dry Run', (itemIndex) =>
			parseDryRun(
				node,
				itemIndex,
				runParameter(run, dryRun.path, itemIndex, dryRun.fallback),
				dryRun.choice,
			),
		),
		maxTotal: runWide('options.maxTotalPerRun', 'Maximum Total per Run', (itemIndex) =>
			readSafetyLimit(run, itemIndex, 'maxTotalPerRun', 'Maximum Total per Run', node),
		),
	};
}
