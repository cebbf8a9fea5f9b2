/**
 * Everything one run holds, in one object. The runner makes it where a run starts
 * (`routeToOperation`, router.ts) and hands it down explicitly: to each operation's `prepare` and
 * `checkRun`, to the item runner and, as the transport's `ServiceRun` it extends, to every request.
 * Nothing of a run is kept at module level; what outlives runs (the session token, shared token
 * requests) stays with n8n's credential and in transport/token.ts.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Ledger } from '../transport/ledger';
import { serviceRun, type ServiceRun } from '../transport/runState';
import type { ApprovalBinding } from '../validation/approvalToken';
import type { PayoutChannel } from '../validation/channels';
import type { CountedDay, DailyCap } from '../validation/days';
import type { Bank } from '../validation/schemas';
import type { Waves } from './waves';

/** The node's parameters as read in this run (itemValues.ts `runParameter`). */
export interface RunParameters {
	/** The node's stored parameters (n8n copies the node on every getNode()). */
	stored: unknown;
	/** Values of parameters without an expression, read once: by path and fallback. */
	values: Map<string, unknown>;
	/** Parameter paths whose stored value holds an expression. */
	perItem: Map<string, boolean>;
	/** Per parameter path, the column its expression only reads (null: any other expression). */
	columns: Map<string, string | null>;
	/** The node's input items, which `$json` reads (a node with one main input). */
	items?: Array<{ json: IDataObject }>;
}

/** The approval key of the node's credential (approval.ts). */
export interface SigningKey {
	key: Buffer;
	fingerprint: string;
	binding: ApprovalBinding;
}

export interface RunContext extends ServiceRun<IExecuteFunctions> {
	/** Parameters read once per run unless an expression makes them differ per item. */
	readonly parameters: RunParameters;
	/** The node's version, which decides the form (Disbursement's formVersions.ts). */
	readonly nodeVersion: number;
	/** The approval key, derived once per run on first use: scrypt is slow on purpose (approval.ts). */
	signingKey?: Promise<SigningKey>;
	/** The bank list, read at most once per run for the codes and names in Prepare's summaries (approval.ts). */
	bankList?: Promise<Bank[] | undefined>;
	/** The account's payout channels, read once: on Prepare's first row (approval.ts) or the first refused payout. */
	payoutChannels?: Promise<PayoutChannel[] | undefined>;
	/** Maximum Total per Day, read once by the operation's run checks (dailyCap.ts). */
	dailyCap?: DailyCap;
	/** The payout ledger of the node's Payout Ledger credential, read on the first payout (dailyCap.ts). */
	ledger?: Promise<Ledger>;
	/** What the run has counted of each day it reserved in, by scope, time zone and day (dailyCap.ts). */
	countedDays?: Map<string, CountedDay>;
	/** The run's payouts reserved in waves under Maximum Total per Day (dailyCap.ts `planDay`). */
	dayWaves?: Waves<unknown, unknown>;
}

/** A run's context, made once where the run starts. */
export function startRun(ctx: IExecuteFunctions): RunContext {
	const node = ctx.getNode();
	return {
		...serviceRun(ctx),
		parameters: {
			stored: node.parameters,
			values: new Map(),
			perItem: new Map(),
			columns: new Map(),
		},
		nodeVersion: node.typeVersion,
	};
}
