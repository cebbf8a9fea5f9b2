/**
 * One execution per delivery across webhook processes: with a Payout Ledger credential on the
 * trigger, a delivery is claimed in the ledger (the n8n Data Table every process reaches,
 * nodes/shared/transport/ledger.ts) before its execution starts, and only the request whose claim
 * holds starts it. Each process's own record (duplicates.ts) cannot do this: in queue mode every webhook process
 * keeps its own memory and they save the workflow's data over each other.
 *
 * The ledger has no conditional insert, so a claim is made the way that stays safe with many
 * writers: write, then read, then keep.
 *
 * 1. This request's claim is written (a row: scope = the trigger node, reference = the delivery's
 *    key, state "claiming").
 * 2. Every claim of the same delivery is read.
 * 3. One marked "claimed" is there: a duplicate, this claim is removed. A "claiming" row written
 *    more than STALE_CLAIM_MS before this one (by n8n's clock, on both rows) was left by a process
 *    that stopped or stalled mid-claim: it is taken over, removed only while it is still
 *    "claiming". Then, this claim alone: it is marked "claimed", only while it is still
 *    "claiming", and the execution starts when n8n says it changed one row. Anything else (other
 *    claims still being decided, a take-over or a mark that changed no row): this claim is removed
 *    and tried again after a random pause.
 *
 * Why at most one execution starts, whatever the order of requests and however long a process
 * stalls between them: an execution starts only after its request's own row went from "claiming"
 * to "claimed", and no row ever goes back to "claiming". Of two requests that both started, the
 * one that wrote its row later read after the other's row was written, so it saw that row:
 * "claimed" (a duplicate), fresh "claiming" (it stepped back) or stale "claiming"; or not at all,
 * because the row was already removed, by its owner stepping back or by a take-over, and so could
 * no longer be marked. A stale row is passed over only once it is removed while still "claiming",
 * and a removed row cannot be marked: the stalled owner that wakes changes no row and starts
 * nothing (it tries again and finds the delivery claimed). A row its owner marked first cannot be
 * removed as stale: the take-over changes no row and the taker steps back. The clock decides only
 * when a claim is taken over, never whether two start. A request removes its own row only when it
 * starts nothing, so that removal never costs an execution.
 *
 * Two that saw each other both step back and meet again rarely (random pauses); after the last
 * attempt, or when the ledger cannot be reached, the request is answered 503 and the service
 * delivers again later. What remains: a process that stops after marking and before n8n takes the
 * execution leaves a "claimed" row with no execution (docs/trigger.md says how to recover).
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	createdAtOf,
	deleteRows,
	insertRow,
	LEDGER_CREDENTIAL_TYPE,
	LedgerProblem,
	ledgerOf,
	rowsWhere,
	updateRows,
	type Ledger,
} from '../../shared/transport/ledger';
import { outcomeOf } from '../../shared/transport/outcome';
import type { CredentialContext } from '../../shared/transport/runState';
import { dayIn } from '../../shared/validation/days';

export const CLAIMING = 'claiming';
export const CLAIMED = 'claimed';

const CLAIM_ATTEMPTS = 6;
const RETRY_PAUSE_MS = 100;
/** Longer than a claim can take: three ledger requests of at most LEDGER_TIMEOUT_MS each. */
export const STALE_CLAIM_MS = 60_000;

export type ClaimOutcome = 'claimed' | 'duplicate' | 'undecided';

/** Whether the node has a Payout Ledger credential selected. */
export function claimsInLedger(ctx: CredentialContext): boolean {
	return Boolean(ctx.getNode().credentials?.[LEDGER_CREDENTIAL_TYPE]);
}

/**
 * The ledger's scope of one trigger node; a payout's scope is `username@host`
 * (nodes/shared/runner/dailyCap.ts).
 */
export function claimScope(ctx: IWebhookFunctions | IHookFunctions): string {
	const node = ctx.getNode();
	return `callback:${ctx.getWorkflow().id ?? ''}:${node.id ?? node.name}`;
}

/** Another claim left mid-way by a process that stopped: written long before this one. */
function isStale(row: IDataObject, mine: IDataObject | undefined): boolean {
	const theirs = createdAtOf(row);
	const ours = mine && createdAtOf(mine);
	return (
		row.state === CLAIMING &&
		theirs !== undefined &&
		ours !== undefined &&
		ours - theirs > STALE_CLAIM_MS
	);
}

/** Whether this request's claim is marked claimed; false also when that cannot be read. */
async function isMarked(ledger: Ledger, scope: string, key: string, id: number): Promise<boolean> {
	const read = await outcomeOf(rowsWhere(ledger, { scope, reference: key }));
	return 'answer' in read && read.answer.some((row) => row.id === id && row.state === CLAIMED);
}

/** Takes over every stale claim; false when one changed meanwhile (marked, or removed by its owner). */
async function tookOver(ledger: Ledger, stale: IDataObject[]): Promise<boolean> {
	for (const row of stale)
		if ((await deleteRows(ledger, [Number(row.id)], { state: CLAIMING })).length !== 1)
			return false;
	return true;
}

async function claimOnce(
	ledger: Ledger,
	scope: string,
	key: string,
): Promise<ClaimOutcome | 'contended'> {
	const day = dayIn('UTC', new Date());
	const id = await insertRow(ledger, { day, scope, reference: key, centavos: 0, state: CLAIMING });
	const read = await outcomeOf(rowsWhere(ledger, { scope, reference: key }));
	if ('failure' in read) {
		await outcomeOf(deleteRows(ledger, [id], {}));
		throw read.failure;
	}
	const mine = read.answer.find((row) => row.id === id);
	const others = read.answer.filter((row) => row.id !== id);
	// A row of any other state (edited by hand, say) counts as a claim that holds.
	if (others.some((row) => row.state !== CLAIMING)) {
		await outcomeOf(deleteRows(ledger, [id], {}));
		return 'duplicate';
	}
	const stale = others.filter((row) => isStale(row, mine));
	const taken = await outcomeOf(tookOver(ledger, stale));
	if ('failure' in taken) {
		await outcomeOf(deleteRows(ledger, [id], {}));
		throw taken.failure;
	}
	if (taken.answer && others.length === stale.length) {
		const marked = await outcomeOf(
			updateRows(ledger, [id], { state: CLAIMED }, { state: CLAIMING }),
		);
		if ('answer' in marked && marked.answer.length === 1) return 'claimed';
		if ('failure' in marked) {
			// The change may have been made with its answer lost: then the claim holds, and removing
			// it would leave the delivery with no execution should the removal be answered wrongly too.
			if (await isMarked(ledger, scope, key, id)) return 'claimed';
			await outcomeOf(deleteRows(ledger, [id], {}));
			throw marked.failure;
		}
		// No row changed: this claim was taken over while this request stalled.
	}
	// Stepping back must succeed: a claim left here would make the others wait for it.
	await deleteRows(ledger, [id], {});
	return 'contended';
}

/**
 * Claims the delivery `key` of the trigger node `scope` in the node's ledger. Throws a
 * LedgerProblem when the ledger cannot be used (the caller answers 503: nothing starts, the
 * service delivers again).
 */
export async function claimDelivery(
	ctx: CredentialContext,
	scope: string,
	key: string,
): Promise<ClaimOutcome> {
	const ledger = await ledgerOf(ctx);
	for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
		const outcome = await claimOnce(ledger, scope, key);
		if (outcome !== 'contended') return outcome;
		if (attempt < CLAIM_ATTEMPTS) await sleep(RETRY_PAUSE_MS * attempt * (0.5 + Math.random()));
	}
	return 'undecided';
}

/** On activation: the ledger's rows can be read with this credential, or why not. */
export async function ledgerProblem(
	ctx: CredentialContext,
	scope: string,
): Promise<string | undefined> {
	// A key no delivery has (delivery keys have 22 characters): one small read.
	const checked = await outcomeOf(
		ledgerOf(ctx).then(async (ledger) => await rowsWhere(ledger, { scope, reference: '-' })),
	);
	if ('answer' in checked) return undefined;
	const { failure } = checked;
	if (failure instanceof LedgerProblem) return failure.message;
	throw failure;
}
