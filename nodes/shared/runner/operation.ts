/**
 * The one shape of every operation. An operation describes its parameters and, per item, `prepare`
 * reads and checks that item (every bad field at once) and says what to do with it. The item runner
 * does it; an operation that creates money says what it creates, and the money-safe path
 * (moneySafe.ts) owns everything that makes creating it safe, so no operation can skip a rule.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ServiceError } from '../transport/errors';
import type { RecordKind } from '../transport/lookups';
import type { RunGuards } from './moneyGuards';
import type { ServiceRequest, ServiceResponse } from '../transport/transport';

export type ItemResult = IDataObject | IDataObject[];

/** What a money-creating request creates: the facts a replay or an answer is checked against. */
export interface MoneyIntent {
	/** 'transaction' (a payment link) or 'payout'. */
	kind: RecordKind;
	referenceNo: string;
	amount: number;
	/** The channel code sent. */
	channel: string;
	/** Who is paid, masked (payouts), for a dry run's preview. */
	payee?: string;
}

/** One request to the service. */
export interface SendPlan {
	send: ServiceRequest;
	/** Set by operations that create money: the request then goes through the money-safe path. */
	creates?: MoneyIntent;
	/** The output for the service's answer (for a money create: the confirmed record). */
	output?: (answer: ServiceResponse) => ItemResult;
	/** A clearer error for a failure this operation knows (a 404 for a code, a 429 for a repost). */
	explain?: (error: ServiceError) => ServiceError | undefined | Promise<ServiceError | undefined>;
}

/** Read-only work that is more than one request (look-ups by reference, filtered lists). */
export interface ReadPlan {
	read: () => Promise<ItemResult>;
}

export type ItemPlan = SendPlan | ReadPlan;

export interface Operation {
	description: INodeProperties[];
	/**
	 * Reads and checks one item; throws one error listing every problem. Called for the next item
	 * while earlier items' requests are out, and never for an item after the run stopped.
	 */
	prepare(ctx: IExecuteFunctions, itemIndex: number): ItemPlan;
	/**
	 * Checks made once before anything is sent (safety limits), and the run-wide guards of
	 * operations that create money: an error here stops the node with nothing sent, whatever the
	 * node's error setting.
	 */
	checkRun?(ctx: IExecuteFunctions): RunGuards | void;
}
