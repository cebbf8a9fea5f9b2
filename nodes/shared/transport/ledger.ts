/**
 * The HTTP of the payout ledger: rows of an n8n Data Table, reached through n8n's public API
 * (`/data-tables/{id}/rows`, n8n 2.7 and later) with the Payout Ledger credential's API key. Every
 * request is bounded as the service's are (limits.ts): a deadline, a size cap, no redirect. Each
 * call is one database transaction in n8n, committed before it answers, so a read sent after an
 * insert's answer sees the row. What the rows mean is the runner's (runner/dailyCap.ts).
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { classifyFailure, safeJson } from './errors';
import { bounded, readAnswer, readErrorAnswer } from './limits';
import { describeNetworkCode } from './networkCodes';
import { outcomeOf } from './outcome';
import type { CredentialContext } from './runState';
import { WITHHELD, WITHHELD_REASON, scrubText, secretsOf } from './secrets';
import { serviceUrl } from './url';

export const LEDGER_CREDENTIAL_TYPE = 'paymentGatewayLedgerApi';

/** Each ledger request's deadline: the ledger is n8n itself, close by. */
export const LEDGER_TIMEOUT_MS = 10_000;

/** n8n's largest page of rows. */
const PAGE_SIZE = 250;
/** 400 pages of 250 rows: far more payouts than one day of one credential holds. */
const MOST_PAGES = 400;

/** n8n's table IDs: 16 letters and digits. */
const TABLE_ID = /^[A-Za-z0-9]{16}$/;

/** A ledger that cannot be used: its message says what is wrong and, with the credential, what to fix. */
export class LedgerProblem extends Error {}

/** One row of the ledger as the nodes write it. */
export interface LedgerRow {
	day: string;
	scope: string;
	reference: string;
	centavos: number;
	state: string;
}

/** Where the ledger is: the table's rows URL and the API key (hidden in every message). */
export interface Ledger {
	ctx: CredentialContext;
	rowsUrl: string;
	apiKey: string;
}

/** The ledger the node's Payout Ledger credential names, or why it cannot be used. */
export async function ledgerOf(ctx: CredentialContext): Promise<Ledger> {
	const read = await outcomeOf(ctx.getCredentials(LEDGER_CREDENTIAL_TYPE));
	if ('failure' in read)
		throw new LedgerProblem('no Payout Ledger credential is selected on this node');
	const credential: ICredentialDataDecryptedObject = read.answer;
	const apiKey = String(credential.apiKey ?? '');
	const tableId = String(credential.dataTableId ?? '').trim();
	if (!TABLE_ID.test(tableId))
		throw new LedgerProblem(
			"the Payout Ledger credential's Data Table ID is not an n8n table ID (16 letters and digits)",
		);
	if (apiKey === '') throw new LedgerProblem("the Payout Ledger credential's API Key is empty");
	// The same URL rules as the service's Base URL: no user:pass@, query or fragment, http(s) only.
	const target = serviceUrl(String(credential.apiUrl ?? ''), `/data-tables/${tableId}/rows`);
	if ('problem' in target)
		throw new LedgerProblem(`the Payout Ledger credential's n8n API URL ${target.problem}`);
	return { ctx, apiKey, rowsUrl: target.url };
}

/** Rows of ids from `first` to `last`, both included. */
interface IdRange {
	first: number;
	last: number;
}

/**
 * A filter on columns, each equal to its value, as n8n's Data Table API reads it; with `afterId`,
 * only rows of a higher id; with `createdAfter` (an ISO instant), only rows n8n created after it;
 * with `ids`, only rows of ids in that range.
 */
function filterOf(
	equal: Record<string, string | number>,
	afterId?: number,
	createdAfter?: string,
	ids?: IdRange,
): IDataObject {
	const filters: IDataObject[] = Object.entries(equal).map(([columnName, value]) => ({
		columnName,
		condition: 'eq',
		value,
	}));
	if (afterId !== undefined) filters.push({ columnName: 'id', condition: 'gt', value: afterId });
	if (createdAfter !== undefined)
		filters.push({ columnName: 'createdAt', condition: 'gt', value: createdAfter });
	if (ids?.first === ids?.last && ids)
		filters.push({ columnName: 'id', condition: 'eq', value: ids.first });
	else if (ids) {
		filters.push({ columnName: 'id', condition: 'gte', value: ids.first });
		filters.push({ columnName: 'id', condition: 'lte', value: ids.last });
	}
	return { type: 'and', filters };
}

/**
 * The ids as runs of consecutive integers: a range filter then matches these ids and no other
 * row (a row of another writer between two of them splits the run).
 */
export function idRanges(ids: number[]): IdRange[] {
	const sorted = [...new Set(ids)].sort((a, b) => a - b);
	const ranges: IdRange[] = [];
	for (const id of sorted) {
		const last = ranges[ranges.length - 1];
		if (last && id === last.last + 1) last.last = id;
		else ranges.push({ first: id, last: id });
	}
	return ranges;
}

/** One request to the table's rows: the method, the path after `/rows`, the query, the body. */
interface Request {
	method: IHttpRequestMethods;
	path?: string;
	qs?: IDataObject;
	body?: IDataObject;
}

/** An answer of n8n: its body, and the instant its `Date` header states (n8n's clock), if any. */
interface Answered {
	body: unknown;
	date?: number;
}

async function call(ledger: Ledger, what: string, request: Request): Promise<unknown> {
	return (await answered(ledger, what, request)).body;
}

async function answered(ledger: Ledger, what: string, request: Request): Promise<Answered> {
	const { ctx } = ledger;
	const deadline = AbortSignal.timeout(LEDGER_TIMEOUT_MS);
	const options: IHttpRequestOptions = bounded(
		{
			method: request.method,
			url: `${ledger.rowsUrl}${request.path ?? ''}`,
			headers: { Accept: 'application/json' },
			json: true,
			disableFollowRedirect: true,
		},
		deadline,
	);
	if (request.qs) options.qs = request.qs;
	if (request.body) options.body = request.body;
	const hidden = secretsOf({}, ledger.apiKey);
	const sent = await outcomeOf(
		ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			LEDGER_CREDENTIAL_TYPE,
			options,
		) as Promise<{
			body: unknown;
			headers?: Record<string, unknown>;
		}>,
	);
	if ('failure' in sent) {
		const limit = await readErrorAnswer(sent.failure, deadline);
		const failure = classifyFailure(sent.failure);
		// n8n's answer may quote the key: scrubbed whole, then cut (a cut key is not recognised).
		const said = failure.serviceMessage ? scrubText(failure.serviceMessage, hidden) : undefined;
		const quoted =
			said === undefined ? '' : ` (${said === WITHHELD ? WITHHELD_REASON : said.slice(0, 200)})`;
		const answered =
			failure.status !== undefined
				? `n8n answered HTTP ${failure.status}${quoted}`
				: `no complete answer came (${describeNetworkCode(limit ?? failure.networkCode)})`;
		throw new LedgerProblem(`${what} failed: ${answered}`);
	}
	const answer = await readAnswer(sent.answer.body, sent.answer.headers, deadline);
	if ('failure' in answer)
		throw new LedgerProblem(
			`${what} failed: no complete answer came (${describeNetworkCode(answer.failure)})`,
		);
	const body = safeJson(answer.text);
	if (body === undefined) throw new LedgerProblem(`${what} failed: n8n's answer is not JSON`);
	const date = Date.parse(String(sent.answer.headers?.date ?? ''));
	return { body, ...(Number.isNaN(date) ? {} : { date }) };
}

/**
 * The instant n8n set as a row's `createdAt`, in ms; undefined when it states none. n8n answers
 * ISO text; on SQLite a stored time may come back as `YYYY-MM-DD HH:MM:SS.SSS`, which is UTC.
 */
export function createdAtOf(row: IDataObject): number | undefined {
	const value = row.createdAt;
	if (typeof value !== 'string') return undefined;
	const text = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?$/.test(value)
		? `${value.replace(' ', 'T')}Z`
		: value;
	const instant = Date.parse(text);
	return Number.isNaN(instant) ? undefined : instant;
}

/** A row added, with the instant n8n created it (its `createdAt`, by n8n's clock). */
export interface AddedRow {
	id: number;
	createdAt: number;
}

/**
 * Adds the rows in one request (one transaction in n8n); resolves with each one's id and the
 * instant n8n gave it (`createdAt`), in the order given.
 */
export async function insertStampedRows(ledger: Ledger, rows: LedgerRow[]): Promise<AddedRow[]> {
	const what = 'Writing to the payout ledger';
	const answer = await call(ledger, what, {
		method: 'POST',
		body: { data: rows.map((row) => ({ ...row })), returnType: 'all' },
	});
	if (!Array.isArray(answer) || answer.length !== rows.length)
		throw new LedgerProblem(`${what} did not give back the rows written`);
	return answer.map((added: unknown) => {
		const id = isRecord(added) ? added.id : undefined;
		if (typeof id !== 'number' || !Number.isSafeInteger(id))
			throw new LedgerProblem(`${what} gave no row id`);
		const createdAt = createdAtOf(added as IDataObject);
		if (createdAt === undefined)
			throw new LedgerProblem(`${what} gave no time n8n created the row at (createdAt)`);
		return { id, createdAt };
	});
}

/** n8n's clock: the instant of the `Date` header of a one-row read of these rows. */
export async function ledgerTime(
	ledger: Ledger,
	equal: Record<string, string | number>,
): Promise<number> {
	const what = 'Reading the payout ledger';
	const { date } = await answered(ledger, what, {
		method: 'GET',
		qs: { filter: JSON.stringify(filterOf(equal)), limit: 1 },
	});
	if (date === undefined) throw new LedgerProblem(`${what} gave no time of n8n (a Date header)`);
	return date;
}

const isRecord = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** Adds a row; resolves with its id. */
export async function insertRow(ledger: Ledger, row: LedgerRow): Promise<number> {
	const what = 'Writing to the payout ledger';
	const answer = await call(ledger, what, {
		method: 'POST',
		body: { data: [{ ...row }], returnType: 'id' },
	});
	const id = Array.isArray(answer) && isRecord(answer[0]) ? answer[0].id : undefined;
	if (typeof id !== 'number' || !Number.isSafeInteger(id))
		throw new LedgerProblem(`${what} gave no row id`);
	return id;
}

/**
 * Every row whose columns equal these values (with `createdAfter`, created after that instant;
 * with `startAfterId`, of a higher id), page by page in order of id. Each page asks for the
 * ids after the last one read, never for an offset: a row removed while the pages are read (a
 * reservation given back) would shift an offset and skip a row of the next page, and so count the
 * day short. A page whose ids do not rise is an answer that cannot be followed.
 */
export async function rowsWhere(
	ledger: Ledger,
	equal: Record<string, string | number>,
	createdAfter?: string,
	startAfterId = 0,
): Promise<IDataObject[]> {
	const what = 'Reading the payout ledger';
	const rows: IDataObject[] = [];
	let afterId = startAfterId;
	for (let page = 0; page < MOST_PAGES; page++) {
		// n8n orders rows only when asked (without sortBy, Postgres answers in physical order, where
		// an updated row moves behind higher ids): ask for the order the pages follow.
		const qs: IDataObject = {
			filter: JSON.stringify(filterOf(equal, afterId, createdAfter)),
			sortBy: 'id:asc',
			limit: PAGE_SIZE,
		};
		const answer = await call(ledger, what, { method: 'GET', qs });
		if (!isRecord(answer) || !Array.isArray(answer.data))
			throw new LedgerProblem(`${what} gave an answer without a list of rows`);
		const found = answer.data.filter(isRecord);
		for (const row of found) {
			if (typeof row.id !== 'number' || !Number.isSafeInteger(row.id) || row.id <= afterId)
				throw new LedgerProblem(`${what} gave rows whose ids cannot be followed`);
			afterId = row.id;
		}
		rows.push(...found);
		if (answer.nextCursor === null || answer.nextCursor === undefined) return rows;
		if (found.length === 0)
			throw new LedgerProblem(`${what} gave an answer whose next page cannot be followed`);
	}
	throw new LedgerProblem(`${what} found more than ${MOST_PAGES * PAGE_SIZE} rows for one day`);
}

/** A query string's longest filter: well inside what n8n and any proxy before it accept. */
const MOST_FILTER_CHARS = 6_000;

/**
 * The rows of these references, in one read per some dozens of references (the filter matches
 * any of them: n8n's `or`); a read that would need a second page is made again reference by
 * reference, in pages of ids, so no row is skipped. Rows of every scope come back.
 */
export async function rowsOfReferences(
	ledger: Ledger,
	references: string[],
): Promise<IDataObject[]> {
	const what = 'Reading the payout ledger';
	const rows: IDataObject[] = [];
	const condition = (value: string) => ({ columnName: 'reference', condition: 'eq', value });
	let chunk: string[] = [];
	const read = async () => {
		if (chunk.length === 0) return;
		const filter = { type: 'or', filters: chunk.map(condition) };
		const qs = { filter: JSON.stringify(filter), sortBy: 'id:asc', limit: PAGE_SIZE };
		const answer = await call(ledger, what, { method: 'GET', qs });
		if (!isRecord(answer) || !Array.isArray(answer.data))
			throw new LedgerProblem(`${what} gave an answer without a list of rows`);
		if (answer.nextCursor === null || answer.nextCursor === undefined)
			rows.push(...answer.data.filter(isRecord));
		else for (const reference of chunk) rows.push(...(await rowsWhere(ledger, { reference })));
		chunk = [];
	};
	let chars = 0;
	for (const reference of references) {
		const size = encodeURIComponent(JSON.stringify(condition(reference))).length + 3;
		if (chars + size > MOST_FILTER_CHARS) {
			await read();
			chars = 0;
		}
		chunk.push(reference);
		chars += size;
	}
	await read();
	return rows;
}

/** The ids of the rows n8n says a change touched: the rows it answers with (`returnData`). */
function changedIds(what: string, answer: unknown): number[] {
	if (!Array.isArray(answer)) throw new LedgerProblem(`${what} gave no list of the rows changed`);
	return answer.map((row: unknown) => (isRecord(row) ? Number(row.id) : NaN));
}

/** One change per run of consecutive ids (`requestOf` its filter); the ids n8n says it changed. */
async function changeRuns(
	ledger: Ledger,
	what: string,
	ids: number[],
	when: Record<string, string | number>,
	requestOf: (filter: IDataObject) => Request,
): Promise<number[]> {
	const changed: number[] = [];
	for (const range of idRanges(ids)) {
		const filter = filterOf(when, undefined, undefined, range);
		changed.push(...changedIds(what, await call(ledger, what, requestOf(filter))));
	}
	return changed;
}

/**
 * Removes the rows of these ids whose columns still hold `when` (the state they were read in),
 * one request per run of consecutive ids; resolves with the ids n8n removed.
 */
export async function deleteRows(
	ledger: Ledger,
	ids: number[],
	when: Record<string, string | number>,
): Promise<number[]> {
	return await changeRuns(ledger, 'Removing rows from the payout ledger', ids, when, (filter) => ({
		method: 'DELETE',
		path: '/delete',
		qs: { filter: JSON.stringify(filter), returnData: true },
	}));
}

/**
 * Changes columns of the rows of these ids whose columns still hold `when`, one request per run
 * of consecutive ids; resolves with the ids n8n changed.
 */
export async function updateRows(
	ledger: Ledger,
	ids: number[],
	data: IDataObject,
	when: Record<string, string | number>,
): Promise<number[]> {
	return await changeRuns(ledger, 'Updating the payout ledger', ids, when, (filter) => ({
		method: 'PATCH',
		path: '/update',
		body: { filter, data, returnData: true },
	}));
}
