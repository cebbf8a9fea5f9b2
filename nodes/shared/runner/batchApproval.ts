/**
 * A batch approved once (Payout > Prepare and Confirm with Approval set to one for all items; the
 * token itself is validation/batchToken.ts). Prepare checks every row as Create does and, when
 * every row can be paid, signs one token over the list and gives one item: the batch in words, its
 * table (HTML and CSV) and the token. Confirm checks the token (approval.ts, as a single payout's),
 * that the list given with it is the list it binds, and that the rows are exactly that list, before
 * anything is sent; any difference refuses the batch with nothing sent, naming the rows. Then the
 * rows are paid by the item runner through the money-safe path, as Create pays them: a reference
 * already paid is a replay, so a second Confirm pays nothing twice and one after a partial failure
 * pays the rest. Its summary states the batch, its token and what was paid, refused or unclear.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	BATCH_VERSION,
	batchCsv,
	batchFigures,
	batchHtml,
	batchInWords,
	batchRowOf,
	differencesFrom,
	listDigest,
	namedDifferences,
	newBatchId,
	readApprovedRows,
	readBatchToken,
	repeatedReferences,
	tokenIdentity,
	type ApprovedRow,
	type BatchPayload,
	type BatchRow,
} from '../validation/batchToken';
import { signPayload } from '../validation/approvalToken';
import type { Recipient } from '../validation/recipient';
import { asNodeError, errorItem } from './itemErrors';
import { checkSignedToken, inListedSpelling, signingKey } from './approval';
import { dayBeforeApproval } from './dailyCap';
import { runItems } from './itemRunner';
import { runParameter } from './itemValues';
import type {
	ApprovePlan,
	BatchMode,
	MoneyIntent,
	Operation,
	RunGuards,
	SendPlan,
} from './operation';
import type { RunContext } from './runContext';

const PREPARE_AGAIN =
	'Run Payout > Prepare again on the rows to pay, have a person approve the new batch, and confirm with its item.';

type Pays = SendPlan & { creates: MoneyIntent & { recipient: Recipient } };

/** The row as sent, in the service's own spelling of its codes, and the facts a batch binds of it. */
async function listed(
	run: RunContext,
	itemIndex: number,
	plan: Pays,
): Promise<{ plan: Pays; row: BatchRow }> {
	const channelType = String(runParameter(run, 'channelType', itemIndex, 'bankTransfer'));
	const spelled = await inListedSpelling(run, plan.send, plan.creates.recipient, channelType);
	const recipient = spelled.recipient ?? plan.creates.recipient;
	const creates = { ...plan.creates, channel: recipient.channel, recipient };
	const body = spelled.send.body ?? {};
	const receiver = ((body.fields as IDataObject | undefined)?.receiver ?? {}) as IDataObject;
	const row = batchRowOf(creates.referenceNo, creates.amount, recipient, receiver.account_name);
	return { plan: { ...plan, send: spelled.send, creates }, row };
}

/**
 * Every row read and checked; when any cannot be, one error naming every such row (from 1), and
 * nothing is prepared or sent.
 */
function everyRow<T>(
	run: RunContext,
	count: number,
	read: (itemIndex: number) => T,
	nothing: string,
): T[] {
	const plans: T[] = [];
	const problems: string[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			plans.push(read(itemIndex));
		} catch (caught) {
			const message = (caught as Error).message.replace(/ \(row \d+\)$/, '');
			problems.push(`row ${itemIndex + 1}: ${message}`);
		}
	}
	if (problems.length > 0) {
		throw new NodeOperationError(
			run.ctx.getNode(),
			`${problems.length.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} rows cannot be paid, so nothing was ${nothing}: ${namedDifferences(problems)}`,
			{ description: 'Fix these rows in the sheet and run the batch again.' },
		);
	}
	return plans;
}

const pairedWithEveryRow = (run: RunContext) => run.ctx.getInputData().map((_, item) => ({ item }));

/** Payout > Prepare on the whole input: one item, the batch a person approves. */
async function prepareBatch(run: RunContext, operation: Operation): Promise<INodeExecutionData[]> {
	const { ctx } = run;
	const count = ctx.getInputData().length;
	const plans = everyRow(run, count, (i) => operation.prepare(run, i) as ApprovePlan, 'prepared');
	const rows: ApprovedRow[] = [];
	for (const [itemIndex, { approve }] of plans.entries()) {
		const { row } = await listed(run, itemIndex, {
			send: approve.send,
			creates: approve.creates,
		} as Pays);
		rows.push({ row: itemIndex + 1, ...row });
	}
	const repeated = repeatedReferences(rows);
	if (repeated.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`A batch pays each reference once, and ${namedDifferences(repeated)}: nothing was prepared`,
			{ description: 'Give every row its own reference_no, or remove the rows pasted twice.' },
		);
	}
	const { key, fingerprint, binding } = await signingKey(run, 0, 'createPayout');
	const batchId = newBatchId();
	const figures = batchFigures(rows);
	const { dailyCap } = run;
	// The day's figures for the whole batch, as for one payout: advisory, Confirm counts again.
	const dailyTotal =
		dailyCap &&
		(await dayBeforeApproval(run, 0, dailyCap, {
			kind: 'payout',
			referenceNo: batchId,
			amount: figures.total,
			channel: '',
		}));
	const preparedAt = Date.now();
	const payload: BatchPayload = {
		batchId,
		...figures,
		digest: listDigest(rows),
		preparedAt,
		expiresAt: preparedAt + Math.min(...plans.map(({ approve }) => approve.validForMs)),
		environment: binding.environment,
		baseUrl: binding.baseUrl,
		credential: fingerprint,
		...(dailyTotal ? { dailyTotal } : {}),
	};
	const words = batchInWords(payload);
	const json: IDataObject = {
		sent: false,
		batchId,
		summary: words,
		payoutCount: payload.count,
		total: payload.total,
		byChannel: payload.byChannel as unknown as IDataObject[],
		largest: payload.largest,
		environment: binding.environment,
		...(dailyTotal ? { dailyTotal } : {}),
		preparedAt: new Date(preparedAt).toISOString(),
		expiresAt: new Date(payload.expiresAt).toISOString(),
		html: batchHtml(words, rows),
		csv: batchCsv(rows),
		payouts: rows as unknown as IDataObject[],
		approvalToken: `${words} [${signPayload(key, payload, BATCH_VERSION)}]`,
	};
	return [{ json, pairedItem: pairedWithEveryRow(run) }];
}

/** The batch Confirm is given: Prepare's item, as an object or its JSON text. */
function readApprovedBatch(value: unknown): { token: unknown; payouts: unknown } {
	let batch = value;
	if (typeof batch === 'string') {
		try {
			batch = JSON.parse(batch) as unknown;
		} catch {
			batch = undefined;
		}
	}
	if (!batch || typeof batch !== 'object') return { token: undefined, payouts: undefined };
	const { approvalToken, payouts } = batch as IDataObject;
	return { token: approvalToken, payouts };
}

/** The outcome of each row of a paid batch, for its summary. */
type Outcome = 'paid' | 'replayed' | 'refused' | 'unclear' | 'notSent';

function outcomeOfItem(json: IDataObject): Outcome {
	if (typeof json.error !== 'string') return json.replayed === true ? 'replayed' : 'paid';
	if (/ is not known yet: /.test(json.error)) return 'unclear';
	return /^Not sent, because the run stopped/.test(json.error) ? 'notSent' : 'refused';
}

/** Confirm's summary: the batch, its token, when, and what each row came to. */
function confirmSummary(
	token: NonNullable<ReturnType<typeof readBatchToken>>,
	confirmedAt: number,
	rows: BatchRow[],
	items: INodeExecutionData[],
): IDataObject {
	const { payload } = token;
	const tally: Record<Outcome, { payouts: number; centavos: number; rows: IDataObject[] }> = {
		paid: { payouts: 0, centavos: 0, rows: [] },
		replayed: { payouts: 0, centavos: 0, rows: [] },
		refused: { payouts: 0, centavos: 0, rows: [] },
		unclear: { payouts: 0, centavos: 0, rows: [] },
		notSent: { payouts: 0, centavos: 0, rows: [] },
	};
	for (const item of items) {
		const itemIndex = (item.pairedItem as { item: number }).item;
		const row = rows[itemIndex];
		const outcome = outcomeOfItem(item.json);
		tally[outcome].payouts += 1;
		tally[outcome].centavos += Math.round(row.amount * 100);
		if (outcome !== 'paid' && outcome !== 'replayed')
			tally[outcome].rows.push({
				row: itemIndex + 1,
				reference_no: row.reference_no,
				error: item.json.error as string,
			});
	}
	const figures = (outcome: Outcome, withRows = false) => ({
		payouts: tally[outcome].payouts,
		total: tally[outcome].centavos / 100,
		...(withRows ? { rows: tally[outcome].rows } : {}),
	});
	const done = tally.paid.payouts + tally.replayed.payouts;
	return {
		batchId: payload.batchId,
		token: tokenIdentity(token),
		environment: payload.environment,
		preparedAt: new Date(payload.preparedAt).toISOString(),
		confirmedAt: new Date(confirmedAt).toISOString(),
		approved: { payouts: payload.count, total: payload.total },
		paid: figures('paid'),
		replayed: figures('replayed'),
		refused: figures('refused', true),
		unclear: figures('unclear', true),
		notSent: figures('notSent', true),
		complete: done === payload.count,
	};
}

/** Payout > Confirm on the whole input: the approved list paid exactly, or nothing sent. */
async function confirmBatch(
	run: RunContext,
	operation: Operation,
	given: unknown,
	guards: RunGuards | void,
	concurrency: number,
): Promise<INodeExecutionData[][]> {
	const { ctx } = run;
	const refuse = (what: string, todo = PREPARE_AGAIN) =>
		new NodeOperationError(ctx.getNode(), `The batch ${what}: nothing was sent`, {
			description: todo,
		});
	const { token: text, payouts } = readApprovedBatch(given);
	const token = readBatchToken(text);
	if (!token) {
		throw refuse(
			"is not one Payout > Prepare gave: Approved Batch must be Prepare's item for the batch, with its approvalToken and payouts",
			"Set Approved Batch to Prepare's item, for example {{ $('Prepare Payroll').first().json }}.",
		);
	}
	const tokenRefusal = (what: string, todo: string) => refuse(`token ${what}`, todo);
	await checkSignedToken(run, 0, token, batchInWords(token.payload), tokenRefusal, PREPARE_AGAIN);
	const approved = readApprovedRows(payouts);
	if (
		!approved ||
		approved.length !== token.payload.count ||
		listDigest(approved) !== token.payload.digest
	)
		throw refuse(
			'list given with the token is not the list it approved (its payouts were changed)',
		);
	const count = ctx.getInputData().length;
	const read = everyRow(run, count, (i) => operation.prepare(run, i) as Pays, 'sent');
	const plans: Pays[] = [];
	const rows: BatchRow[] = [];
	for (const [itemIndex, plan] of read.entries()) {
		const spelled = await listed(run, itemIndex, plan);
		plans.push(spelled.plan);
		rows.push(spelled.row);
	}
	const differences = differencesFrom(approved, rows);
	if (differences.length > 0) {
		throw refuse(
			`differs from the approved list in ${differences.length.toLocaleString('en-US')} place${differences.length === 1 ? '' : 's'}: ${namedDifferences(differences)}`,
			`Only the approved list is paid. Put the rows back as approved, or prepare the changed list as a new batch. ${PREPARE_AGAIN}`,
		);
	}
	const confirmedAt = Date.now();
	const paying: Operation = {
		description: [],
		checkRun: () => guards,
		prepare: (_, itemIndex) => plans[itemIndex],
	};
	const [items] = await runItems(run, paying, concurrency);
	const summary = confirmSummary(token, confirmedAt, rows, items);
	return [items, [{ json: summary, pairedItem: pairedWithEveryRow(run) }]];
}

/**
 * The operation's items as one batch. A refusal sends nothing; with the node's continue-on-fail it
 * is one error item paired with every row, never the input passed through as if done.
 */
export async function runBatch(
	run: RunContext,
	operation: Operation,
	mode: BatchMode,
	concurrency: number,
): Promise<INodeExecutionData[][]> {
	const { ctx } = run;
	try {
		const guards = operation.checkRun?.(run);
		if (guards) run.dailyCap = guards.dailyCap;
		if (ctx.getInputData().length === 0) return [[]];
		return 'approve' in mode
			? [await prepareBatch(run, operation)]
			: await confirmBatch(run, operation, mode.confirm, guards, concurrency);
	} catch (caught) {
		const error = asNodeError(ctx, caught, undefined);
		if (!ctx.continueOnFail()) throw error;
		const json =
			ctx.getNode().onError === 'continueErrorOutput'
				? { error: error.message }
				: errorItem(error, 0);
		return [[{ json, pairedItem: pairedWithEveryRow(run) }]];
	}
}
