/**
 * A local stand-in for the row operations of n8n 2.41.1's public Data Table API
 * (`/api/v1/data-tables/{id}/rows...`, header `X-N8N-API-KEY`), over real HTTP on 127.0.0.1, for
 * engine tests of a ledger kept in a Data Table. It holds one table and answers as n8n does, in
 * n8n's order of checks:
 *
 * 1. an unknown path: 404 `not found`; a known path with another method: 405;
 * 2. the API key: none 401 `'X-N8N-API-KEY' header required`, another 401 `unauthorized`;
 * 3. the OpenAPI request validation: 400 `request/...` (a table id not of 16 letters and digits,
 *    `limit` above 250, `filter` not JSON, a required query or body field missing, a body filter
 *    condition missing or not one of the eight the OpenAPI file allows, `data: []`);
 * 4. the key's scope (`dataTableRow:read|create|update|upsert|delete`): 403 `Forbidden`;
 * 5. the table: a well-formed id of no table 404 `Could not find the data table: '<id>'`;
 * 6. the cursor (400 `An invalid cursor was provided`), then n8n's DTOs (400 `Invalid filter
 *    fields`, `Invalid filter format`, `At least one filter condition is required for delete
 *    operations`, `data must not be empty`, the sort's messages);
 * 7. the data-table service: 400 `Validation error with data table request: ...` (an unknown
 *    column, a value that does not match its column's type, a null `gt/gte/lt/lte` value).
 *
 * Rows come back as n8n on SQLite gives them: the table's columns in their order (missing ones
 * null), then `id`, `createdAt`, `updatedAt`; ids count up from 1 and are never reused; rows are
 * ordered by id, after `sortBy` when given (n8n 2.41.1 adds `ORDER BY id` when `sortBy` is absent).
 * `answerUnordered(true)` answers a list without `sortBy` in physical order instead, as a Postgres
 * query without ORDER BY does: a row that was updated moves behind the rows that were not. Every
 * answer's `Date` header is the fake's clock (`setClockOffset`), as n8n's is its own. Numeric strings given to a number column are stored as
 * numbers, booleans as true/false, dates as ISO strings. Every request is handled one at a time,
 * as n8n on SQLite serializes every data-table operation on its one write connection, so a read
 * sent after an answer sees the change.
 *
 * The facts it follows were read from n8n 2.41.1's dist code and checked against a live instance;
 * a few edges no live run covered follow the code alone: the 405 and 415 answers, a sort on an
 * unknown column (a 500 naming the column, as SQLite's error does), the order of values where
 * `sortBy` compares a text column with numbers.
 */
import { randomBytes } from 'crypto';
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';

export type DataTableColumnType = 'string' | 'number' | 'boolean' | 'date';

export interface DataTableColumn {
	name: string;
	type: DataTableColumnType;
}

export interface RecordedDataTableRequest {
	method: string;
	/** The path without the query string, e.g. `/api/v1/data-tables/<id>/rows`. */
	path: string;
	/** The query string's parameters (the first value of a repeated one). */
	query: Record<string, string>;
	/** The JSON body as parsed; the raw text when it is not JSON; undefined when empty. */
	body: unknown;
	/** For a list answered: how many rows its page held. */
	rowsAnswered?: number;
}

export interface DataTableFault {
	/** Answer with this status (and `body`, default `{"message": <the status's reason phrase>}`). */
	status?: number;
	/** JSON, or a string sent as text/plain (a proxy's error page). */
	body?: unknown;
	/** Close the connection without an answer. */
	drop?: boolean;
	/** Headers added to the answer, e.g. `location` with a 302 status. */
	headers?: Record<string, string>;
	/** Send the answer's body one byte every this many ms (the operation applied first). */
	trickleMs?: number;
	/** Run first, before the request is handled: another writer's change just before it. */
	before?: () => void;
	/** Wait this long first; alone, the request is then handled normally. */
	delayMs?: number;
	/**
	 * Handled only once this settles (called when the request arrives): a writer that stalls while
	 * others go on, or another writer's change that lands first.
	 */
	until?: () => Promise<unknown>;
	/** Only requests with this method (any case). */
	method?: string;
	/** Only requests whose path ends so, e.g. `/rows` or `/rows/delete`. */
	pathEndsWith?: string;
	/**
	 * Apply the operation first, then fail its answer (`status` or `drop`): the row is written but
	 * the caller never learns it, as when a connection breaks after n8n's commit.
	 */
	afterApply?: boolean;
}

export interface DataTableApi {
	/** `http://127.0.0.1:<port>/api/v1`: the base a credential's API URL holds. */
	url: string;
	/** The one key accepted. */
	apiKey: string;
	/** The id (16 letters and digits) of the one table it holds. */
	tableId: string;
	columns: readonly DataTableColumn[];
	/** A copy of every row, by id, with `id`, `createdAt` and `updatedAt`. */
	rows(): Array<Record<string, unknown>>;
	/** Every request received, in order of arrival, faulted and refused ones included. */
	requests: RecordedDataTableRequest[];
	/** The next `count` matching requests fail as `how` says. */
	failNext(count: number, how: DataTableFault): void;
	/** Added to every request before it is handled. */
	setDelay(ms: number): void;
	/** Rows written from now on get `createdAt`/`updatedAt` this far from the real time. */
	setClockOffset(ms: number): void;
	/** How far the fake's clock is from the real time, in ms. */
	clockOffset(): number;
	/** Lists without `sortBy` answer in physical order (an updated row last), or by id again. */
	answerUnordered(on: boolean): void;
	/** Removes the rows `which` picks, as another writer would; returns how many. */
	removeRows(which: (row: Record<string, unknown>) => boolean): number;
	/** Forget rows (ids start again at 1), requests and pending faults. */
	clear(): void;
	close(): Promise<void>;
}

export interface DataTableApiOptions {
	/** The table's columns; default {@link LEDGER_COLUMNS}. */
	columns?: DataTableColumn[];
	/** The API key's scopes; default every data-table scope. */
	scopes?: string[];
}

/** The payout ledger's columns. */
export const LEDGER_COLUMNS: readonly DataTableColumn[] = [
	{ name: 'day', type: 'string' },
	{ name: 'scope', type: 'string' },
	{ name: 'reference', type: 'string' },
	{ name: 'centavos', type: 'number' },
	{ name: 'state', type: 'string' },
];

/** Every data-table API-key scope n8n 2.41.1 grants (@n8n/permissions). */
export const DATA_TABLE_SCOPES: readonly string[] = [
	'dataTable:create',
	'dataTable:read',
	'dataTable:update',
	'dataTable:delete',
	'dataTable:list',
	'dataTableRow:create',
	'dataTableRow:read',
	'dataTableRow:update',
	'dataTableRow:delete',
	'dataTableRow:upsert',
	'dataTableColumn:create',
	'dataTableColumn:read',
	'dataTableColumn:update',
	'dataTableColumn:delete',
];

const API_PREFIX = '/api/v1';
const MAX_LIMIT = 250;
const DEFAULT_LIMIT = 100;
const COLUMN_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const COLUMN_NAME_MAX = 63;
const COLUMN_NAME_MESSAGE =
	'Only alphabetical characters and non-leading numbers and underscores are allowed for column names, and the maximum length is 63 characters.';
const TABLE_ID = /^[A-Za-z0-9]{16}$/;
const SYSTEM_COLUMNS: readonly DataTableColumn[] = [
	{ name: 'id', type: 'number' },
	{ name: 'createdAt', type: 'date' },
	{ name: 'updatedAt', type: 'date' },
];
const CONDITIONS = [
	'eq',
	'neq',
	'like',
	'ilike',
	'gt',
	'gte',
	'lt',
	'lte',
	'isEmpty',
	'isNotEmpty',
] as const;
/** The conditions the OpenAPI file allows in a JSON body (no isEmpty/isNotEmpty). */
const BODY_CONDITIONS = CONDITIONS.slice(0, 8);
const LUXON_DOCS = 'https://moment.github.io/luxon/api-docs/index.html#datetimefromformat';

type Condition = (typeof CONDITIONS)[number];
type Row = Record<string, unknown>;
type Operation = 'list' | 'insert' | 'update' | 'upsert' | 'delete' | 'clear';

interface FilterRecord {
	columnName: string;
	condition: Condition;
	value: unknown;
}
interface Filter {
	type: 'and' | 'or';
	filters: FilterRecord[];
}
interface Answer {
	status: number;
	body: unknown;
}

const ROUTES: ReadonlyArray<{ suffix: string; method: string; operation: Operation }> = [
	{ suffix: '/rows', method: 'GET', operation: 'list' },
	{ suffix: '/rows', method: 'POST', operation: 'insert' },
	{ suffix: '/rows/update', method: 'PATCH', operation: 'update' },
	{ suffix: '/rows/upsert', method: 'POST', operation: 'upsert' },
	{ suffix: '/rows/delete', method: 'DELETE', operation: 'delete' },
	{ suffix: '/rows/clear', method: 'DELETE', operation: 'clear' },
];
const SCOPE_OF: Record<Operation, string> = {
	list: 'dataTableRow:read',
	insert: 'dataTableRow:create',
	update: 'dataTableRow:update',
	upsert: 'dataTableRow:upsert',
	delete: 'dataTableRow:delete',
	clear: 'dataTableRow:delete',
};

class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}
const badRequest = (message: string) => new ApiError(400, message);
const validation = (message: string) =>
	badRequest(`Validation error with data table request: ${message}`);

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** n8n-workflow's getValueDescription. */
function describeValue(value: unknown): string {
	if (typeof value === 'object') {
		if (value === null) return "'null'";
		return Array.isArray(value) ? 'array' : 'object';
	}
	return `'${String(value)}'`;
}

function newId(length: number): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** n8n-workflow's tryToParseBoolean. */
function parseBoolean(value: unknown): boolean {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string' && ['true', 'false'].includes(value.toLowerCase()))
		return value.toLowerCase() === 'true';
	if (!(typeof value === 'string' && value.trim() === '')) {
		const number = Number(value);
		if (number === 0) return false;
		if (number === 1) return true;
	}
	throw new Error('not a boolean');
}

/**
 * A cell as the data-table service checks and stores it (validateFieldType with strict: false,
 * parseStrings: false): numbers through Number(), so '17' is 17 and '' is 0; text as given.
 */
function cellValue(value: unknown, column: DataTableColumn): unknown {
	if (value === null || value === undefined) return null;
	const expected = column.type === 'date' ? 'dateTime' : column.type;
	const mismatch = (detail: string) =>
		validation(`value '${String(value)}' does not match column type '${column.type}': ${detail}`);
	const generic = `'${column.name}' expects a ${expected} but we got ${describeValue(value)}`;
	switch (column.type) {
		case 'string':
			// SQLite's TEXT affinity keeps a number as its text.
			return typeof value === 'string' ? value : String(value);
		case 'number':
			if (isNaN(Number(value))) throw mismatch(generic);
			return Number(value);
		case 'boolean':
			try {
				return parseBoolean(value);
			} catch {
				throw mismatch(generic);
			}
		case 'date': {
			const time = typeof value === 'string' ? Date.parse(value.trim()) : NaN;
			if (isNaN(time))
				throw mismatch(
					`${generic} <br/><br/> Consider using <a href="${LUXON_DOCS}" target="_blank"><code>DateTime.fromFormat</code></a> to work with custom date formats.`,
				);
			return new Date(time).toISOString();
		}
	}
}

/** dataTableFilterSchema (zod): the defaults applied, or undefined when it does not parse. */
function parseFilterSchema(parsed: unknown): Filter | undefined {
	if (!isObject(parsed)) return undefined;
	const type = parsed.type ?? 'and';
	if (type !== 'and' && type !== 'or') return undefined;
	const filters = parsed.filters ?? [];
	if (!Array.isArray(filters)) return undefined;
	const records: FilterRecord[] = [];
	for (const record of filters) {
		if (!isObject(record) || typeof record.columnName !== 'string') return undefined;
		const columnName = record.columnName.trim();
		if (!COLUMN_NAME.test(columnName) || columnName.length > COLUMN_NAME_MAX) return undefined;
		const condition = record.condition ?? 'eq';
		if (!CONDITIONS.includes(condition as Condition)) return undefined;
		const value = record.value;
		if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) return undefined;
		records.push({ columnName, condition: condition as Condition, value });
	}
	return { type, filters: records };
}

/** A filter from the query string (list, delete): the DTO's messages. */
function queryFilter(text: string): Filter {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw badRequest('Invalid filter format');
	}
	const filter = parseFilterSchema(parsed);
	if (!filter) throw badRequest('Invalid filter fields');
	return filter;
}

function likeMatcher(pattern: string, caseInsensitive: boolean): RegExp {
	const source = pattern
		.split('%')
		.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
		.join('.*');
	return new RegExp(`^${source}$`, caseInsensitive ? 'si' : 's');
}

function compare(left: unknown, right: unknown): number {
	if (typeof left === 'number' && typeof right === 'number') return left - right;
	const a = String(left);
	const b = String(right);
	return a < b ? -1 : a > b ? 1 : 0;
}

/** The query-string parameters the OpenAPI file declares as boolean. */
function queryBoolean(query: Record<string, string>, name: string): boolean {
	const value = query[name];
	if (value === undefined) return false;
	if (value !== 'true' && value !== 'false')
		throw badRequest(`request/query/${name} must be boolean`);
	return value === 'true';
}

/** The OpenAPI validation of the body filter of update and upsert. */
function checkBodyFilter(filter: unknown): void {
	if (!isObject(filter)) throw badRequest('request/body/filter must be object');
	if (filter.type !== undefined && filter.type !== 'and' && filter.type !== 'or')
		throw badRequest(
			'request/body/filter/type must be equal to one of the allowed values: and, or',
		);
	if (!('filters' in filter))
		throw badRequest("request/body/filter must have required property 'filters'");
	if (!Array.isArray(filter.filters)) throw badRequest('request/body/filter/filters must be array');
	if (filter.filters.length === 0)
		throw badRequest('request/body/filter/filters must NOT have fewer than 1 items');
	filter.filters.forEach((record: unknown, index: number) => {
		const at = `request/body/filter/filters/${index}`;
		if (!isObject(record)) throw badRequest(`${at} must be object`);
		for (const field of ['columnName', 'condition', 'value'])
			if (!(field in record)) throw badRequest(`${at} must have required property '${field}'`);
		if (typeof record.columnName !== 'string') throw badRequest(`${at}/columnName must be string`);
		if (!(BODY_CONDITIONS as readonly unknown[]).includes(record.condition))
			throw badRequest(
				`${at}/condition must be equal to one of the allowed values: ${BODY_CONDITIONS.join(', ')}`,
			);
	});
}

export async function startDataTableApi(options: DataTableApiOptions = {}): Promise<DataTableApi> {
	const columns: readonly DataTableColumn[] = (options.columns ?? LEDGER_COLUMNS).map((column) => ({
		...column,
	}));
	for (const column of columns) {
		if (!COLUMN_NAME.test(column.name) || column.name.length > COLUMN_NAME_MAX)
			throw new Error(`column name '${column.name}': ${COLUMN_NAME_MESSAGE}`);
		if (SYSTEM_COLUMNS.some((system) => system.name === column.name))
			throw new Error(`column name '${column.name}' is a system column`);
	}
	if (new Set(columns.map((column) => column.name)).size !== columns.length)
		throw new Error('column names must be unique');
	const scopes = new Set(options.scopes ?? DATA_TABLE_SCOPES);
	const tableId = newId(16);
	const apiKey = `n8n_api_${randomBytes(24).toString('hex')}`;
	const columnOf = new Map(
		[...SYSTEM_COLUMNS, ...columns].map((column) => [column.name, column] as const),
	);

	let rows: Row[] = [];
	let nextId = 1;
	const requests: RecordedDataTableRequest[] = [];
	let faults: Array<DataTableFault & { remaining: number }> = [];
	let delayMs = 0;
	let clockOffsetMs = 0;
	let unordered = false;
	const stamp = () => new Date(Date.now() + clockOffsetMs).toISOString();

	// One operation at a time, as on n8n's SQLite write connection.
	let tail: Promise<unknown> = Promise.resolve();
	function serialized<T>(work: () => T): Promise<T> {
		const run = tail.then(work);
		tail = run.catch(() => undefined);
		return run;
	}

	const byId = (list: Row[]) => [...list].sort((a, b) => Number(a.id) - Number(b.id));

	/** A stored row as n8n returns it: the columns in order, then the system columns. */
	function shown(row: Row): Row {
		const out: Row = {};
		for (const column of columns) out[column.name] = row[column.name] ?? null;
		out.id = row.id;
		out.createdAt = row.createdAt;
		out.updatedAt = row.updatedAt;
		return out;
	}

	/** validateAndTransformRows: unknown columns and values by type. */
	function checkedRow(data: Record<string, unknown>, withSystemColumns: boolean): Row {
		const out: Row = {};
		for (const [key, value] of Object.entries(data)) {
			const column = columnOf.get(key);
			if (!column || (!withSystemColumns && SYSTEM_COLUMNS.includes(column)))
				throw validation(`unknown column name '${key}'`);
			out[key] = cellValue(value, column);
		}
		return out;
	}

	/** validateAndTransformFilters: the values checked and converted as the columns' cells. */
	function checkedFilter(filter: Filter): Filter {
		return {
			type: filter.type,
			filters: filter.filters.map((record) => {
				const value = checkedRow({ [record.columnName]: record.value }, true)[record.columnName];
				const type = columnOf.get(record.columnName)!.type;
				if (type !== 'string' && record.condition === 'isEmpty')
					return { ...record, condition: 'eq', value: null };
				if (type !== 'string' && record.condition === 'isNotEmpty')
					return { ...record, condition: 'neq', value: null };
				const name = record.condition.toUpperCase();
				if (['like', 'ilike'].includes(record.condition)) {
					if (value === null) throw validation(`${name} filter value cannot be null or undefined`);
					if (typeof value !== 'string') throw validation(`${name} filter value must be a string`);
					return { ...record, value: value.includes('%') ? value : `%${value}%` };
				}
				if (['gt', 'gte', 'lt', 'lte'].includes(record.condition) && value === null)
					throw validation(`${name} filter value cannot be null or undefined`);
				return { ...record, value };
			}),
		};
	}

	function matches(row: Row, filter: Filter): boolean {
		if (filter.filters.length === 0) return true;
		const test = ({ columnName, condition, value }: FilterRecord): boolean => {
			const stored = row[columnName] ?? null;
			switch (condition) {
				case 'isEmpty':
					return stored === null || stored === '';
				case 'isNotEmpty':
					return stored !== null && stored !== '';
				case 'eq':
					return value === null ? stored === null : stored !== null && compare(stored, value) === 0;
				case 'neq':
					return value === null ? stored !== null : stored === null || compare(stored, value) !== 0;
				case 'gt':
					return stored !== null && compare(stored, value) > 0;
				case 'gte':
					return stored !== null && compare(stored, value) >= 0;
				case 'lt':
					return stored !== null && compare(stored, value) < 0;
				case 'lte':
					return stored !== null && compare(stored, value) <= 0;
				case 'like':
				case 'ilike':
					return (
						stored !== null &&
						likeMatcher(String(value), condition === 'ilike').test(String(stored))
					);
			}
		};
		return filter.type === 'or' ? filter.filters.some(test) : filter.filters.every(test);
	}

	/** The all-null row a dry run shows for a row that is not there. */
	function emptyRow(): Row {
		return Object.fromEntries([...columns, ...SYSTEM_COLUMNS].map((column) => [column.name, null]));
	}

	function insert(data: Row): Row {
		const now = stamp();
		const row: Row = { ...data, id: nextId++, createdAt: now, updatedAt: now };
		rows.push(row);
		return row;
	}

	function applyUpdate(filter: Filter, data: Row): Row[] {
		const now = stamp();
		const updated = rows.filter((row) => matches(row, filter));
		for (const row of updated) Object.assign(row, data, { updatedAt: now });
		// `rows` is the physical order: an updated row is written anew behind the others.
		rows = [...rows.filter((row) => !updated.includes(row)), ...updated];
		return updated.map(shown);
	}

	/** The body of update and upsert: OpenAPI, the DTO, then the service. */
	function updateParams(body: unknown): {
		filter: Filter;
		data: Row;
		returnData: boolean;
		dryRun: boolean;
	} {
		if (!isObject(body)) throw badRequest('request/body must be object');
		for (const field of ['filter', 'data'])
			if (!(field in body)) throw badRequest(`request/body must have required property '${field}'`);
		checkBodyFilter(body.filter);
		if (!isObject(body.data)) throw badRequest('request/body/data must be object');
		for (const field of ['returnData', 'dryRun'])
			if (body[field] !== undefined && typeof body[field] !== 'boolean')
				throw badRequest(`request/body/${field} must be boolean`);
		for (const record of (body.filter as { filters: Array<{ columnName: string }> }).filters)
			if (
				!COLUMN_NAME.test(record.columnName.trim()) ||
				record.columnName.trim().length > COLUMN_NAME_MAX
			)
				throw badRequest(COLUMN_NAME_MESSAGE);
		const filter = parseFilterSchema(body.filter);
		if (!filter) throw badRequest('Invalid request body');
		if (Object.keys(body.data).length === 0) throw badRequest('data must not be empty');
		checkDtoRecord(body.data);
		return {
			data: checkedRow(body.data, false),
			filter: checkedFilter(filter),
			returnData: body.returnData === true,
			dryRun: body.dryRun === true,
		};
	}

	/** The DTO's record of column names to values. */
	function checkDtoRecord(data: Record<string, unknown>): void {
		for (const [key, value] of Object.entries(data)) {
			if (!COLUMN_NAME.test(key.trim()) || key.trim().length > COLUMN_NAME_MAX)
				throw badRequest(COLUMN_NAME_MESSAGE);
			if (value !== null && !['string', 'number', 'boolean'].includes(typeof value))
				throw badRequest('Invalid input');
		}
	}

	function list(query: Record<string, string>): Answer {
		let limit = query.limit === undefined ? DEFAULT_LIMIT : parseInt(query.limit, 10);
		let offset = query.offset ? parseInt(query.offset, 10) : 0;
		if (query.cursor) {
			let decoded: unknown;
			try {
				decoded = JSON.parse(Buffer.from(query.cursor, 'base64').toString());
			} catch {
				throw badRequest('An invalid cursor was provided');
			}
			if (isObject(decoded) && 'offset' in decoded) {
				offset = Number(decoded.offset);
				limit = Number(decoded.limit);
			}
		}
		if (isNaN(offset) || !Number.isInteger(offset))
			throw badRequest('Param `offset` must be a valid integer');
		if (offset < 0) throw badRequest('Param `offset` must be a non-negative integer');
		if (isNaN(limit) || !Number.isInteger(limit))
			throw badRequest('Param `limit` must be a valid integer');
		if (limit < 0) throw badRequest('Param `limit` must be a non-negative integer');
		limit = Math.min(limit, MAX_LIMIT);
		const filter = query.filter ? queryFilter(query.filter) : undefined;
		const sort = query.sortBy === undefined ? undefined : sortOf(query.sortBy);
		const checked = filter ? checkedFilter(filter) : undefined;
		let found = (unordered ? rows : byId(rows)).filter((row) => !checked || matches(row, checked));
		if (query.search !== undefined && query.search !== '') {
			const term = query.search.toUpperCase();
			found = found.filter((row) =>
				columns.some(
					(column) =>
						row[column.name] !== null &&
						row[column.name] !== undefined &&
						String(row[column.name]).toUpperCase().includes(term),
				),
			);
		}
		if (sort) {
			const [field, direction] = sort;
			if (!columnOf.has(field))
				throw new ApiError(500, `SQLITE_ERROR: no such column: dataTable.${field}`);
			const sign = direction === 'ASC' ? 1 : -1;
			found = [...found].sort((a, b) => {
				const left = a[field] ?? null;
				const right = b[field] ?? null;
				// SQLite puts NULL first ascending, last descending; then id ascending.
				const order =
					left === null || right === null
						? (left === null ? -1 : 0) - (right === null ? -1 : 0)
						: compare(left, right);
				return order * sign || Number(a.id) - Number(b.id);
			});
		}
		const page = limit ? found.slice(offset, offset + limit) : found.slice(offset);
		const nextCursor =
			found.length > offset + limit
				? Buffer.from(JSON.stringify({ limit, offset: offset + limit })).toString('base64')
				: null;
		return { status: 200, body: { data: page.map(shown), nextCursor } };
	}

	function sortOf(text: string): [string, 'ASC' | 'DESC'] {
		if (!text.includes(':'))
			throw badRequest('Invalid sort format, expected <columnName>:<asc/desc>');
		const [rawColumn, rawDirection] = text.split(':');
		const column = rawColumn.trim();
		if (!column) throw badRequest('String must contain at least 1 character(s)');
		if (!COLUMN_NAME.test(column) || column.length > COLUMN_NAME_MAX)
			throw badRequest(COLUMN_NAME_MESSAGE);
		const direction = rawDirection?.toUpperCase();
		if (direction !== 'ASC' && direction !== 'DESC') throw badRequest('Invalid sort direction');
		return [column, direction];
	}

	function insertRows(body: unknown): Answer {
		if (!isObject(body)) throw badRequest('request/body must be object');
		if (!('data' in body)) throw badRequest("request/body must have required property 'data'");
		if (!Array.isArray(body.data)) throw badRequest('request/body/data must be array');
		if (body.data.length === 0)
			throw badRequest('request/body/data must NOT have fewer than 1 items');
		body.data.forEach((item: unknown, index: number) => {
			if (!isObject(item)) throw badRequest(`request/body/data/${index} must be object`);
		});
		const returnType = body.returnType ?? 'count';
		if (returnType !== 'count' && returnType !== 'id' && returnType !== 'all')
			throw badRequest(
				'request/body/returnType must be equal to one of the allowed values: count, id, all',
			);
		const data = body.data as Array<Record<string, unknown>>;
		data.forEach(checkDtoRecord);
		// One transaction: every row is checked before any is written.
		const checked = data.map((item) => checkedRow(item, false));
		const inserted = checked.map(insert);
		if (returnType === 'count')
			return { status: 200, body: { success: true, insertedRows: inserted.length } };
		if (returnType === 'id') return { status: 200, body: inserted.map((row) => ({ id: row.id })) };
		return { status: 200, body: inserted.map(shown) };
	}

	function updateRows(body: unknown): Answer {
		const { filter, data, returnData, dryRun } = updateParams(body);
		if (dryRun) {
			const pairs = rows
				.filter((row) => matches(row, filter))
				.flatMap((row) => [
					{ ...shown(row), dryRunState: 'before' },
					{ ...shown({ ...row, ...data }), dryRunState: 'after' },
				]);
			return { status: 200, body: pairs };
		}
		const updated = applyUpdate(filter, data);
		return { status: 200, body: returnData ? updated : true };
	}

	function upsertRow(body: unknown): Answer {
		const { filter, data, returnData, dryRun } = updateParams(body);
		if (dryRun) {
			const matched = rows.filter((row) => matches(row, filter));
			const pairs = matched.length
				? matched.map((row) => [shown(row), shown({ ...row, ...data })])
				: [[shown(emptyRow()), shown({ ...emptyRow(), ...data })]];
			return {
				status: 200,
				body: pairs.flatMap(([before, after]) => [
					{ ...before, dryRunState: 'before' },
					{ ...after, dryRunState: 'after' },
				]),
			};
		}
		const updated = applyUpdate(filter, data);
		if (updated.length > 0) return { status: 200, body: returnData ? updated : true };
		const row = insert(data);
		return { status: 200, body: returnData ? [shown(row)] : true };
	}

	function deleteRows(query: Record<string, string>): Answer {
		const returnData = queryBoolean(query, 'returnData');
		const dryRun = queryBoolean(query, 'dryRun');
		if (!query.filter) throw badRequest('Filter is required for delete operations');
		const filter = queryFilter(query.filter);
		if (filter.filters.length === 0)
			throw badRequest('At least one filter condition is required for delete operations');
		const checked = checkedFilter(filter);
		const matched = rows.filter((row) => matches(row, checked));
		if (dryRun) {
			const empty = emptyRow();
			return {
				status: 200,
				body: matched.flatMap((row) => [
					{ ...shown(row), dryRunState: 'before' },
					{ ...shown(empty), dryRunState: 'after' },
				]),
			};
		}
		rows = rows.filter((row) => !matched.includes(row));
		return { status: 200, body: returnData ? matched.map(shown) : true };
	}

	/** Everything after the OpenAPI checks that need no state: scope, table, the operation. */
	function operate(
		operation: Operation,
		id: string,
		query: Record<string, string>,
		body: unknown,
	): Answer {
		if (!scopes.has(SCOPE_OF[operation])) throw new ApiError(403, 'Forbidden');
		if (id !== tableId) throw new ApiError(404, `Could not find the data table: '${id}'`);
		switch (operation) {
			case 'list':
				return list(query);
			case 'insert':
				return insertRows(body);
			case 'update':
				return updateRows(body);
			case 'upsert':
				return upsertRow(body);
			case 'delete':
				return deleteRows(query);
			case 'clear': {
				const deletedCount = rows.length;
				rows = [];
				return { status: 200, body: { deletedCount } };
			}
		}
	}

	/** Routing, the key and the stateless OpenAPI checks, then the operation in the queue. */
	async function answer(
		method: string,
		path: string,
		query: Record<string, string>,
		headers: http.IncomingHttpHeaders,
		body: { value: unknown; error?: string; contentType?: string },
	): Promise<Answer> {
		const match = /^\/api\/v1\/data-tables\/([^/]+)(\/rows(?:\/[^/]+)?)$/.exec(path);
		const routes = match ? ROUTES.filter((route) => route.suffix === match[2]) : [];
		if (!match || routes.length === 0) return { status: 404, body: { message: 'not found' } };
		const route = routes.find((candidate) => candidate.method === method);
		if (!route) return { status: 405, body: { message: `${method} method not allowed` } };
		const key = headers['x-n8n-api-key'];
		if (key === undefined)
			return { status: 401, body: { message: "'X-N8N-API-KEY' header required" } };
		if (key !== apiKey) return { status: 401, body: { message: 'unauthorized' } };
		try {
			if (body.error) throw badRequest(body.error);
			if (body.contentType !== undefined && !body.contentType.includes('json'))
				throw new ApiError(415, `unsupported media type ${body.contentType.split(';')[0]}`);
			const id = decodeURIComponent(match[1]);
			if (!TABLE_ID.test(id))
				throw badRequest('request/params/dataTableId must match format "nanoid"');
			if (route.operation === 'list' && query.limit !== undefined) {
				if (query.limit.trim() === '' || isNaN(Number(query.limit)))
					throw badRequest('request/query/limit must be number');
				if (Number(query.limit) > MAX_LIMIT)
					throw badRequest(`request/query/limit must be <= ${MAX_LIMIT}`);
			}
			if (route.operation === 'delete' && !('filter' in query))
				throw badRequest("request/query must have required property 'filter'");
			if ((route.operation === 'list' || route.operation === 'delete') && 'filter' in query) {
				try {
					JSON.parse(query.filter);
				} catch {
					throw badRequest('request/query/filter must match format "jsonString"');
				}
			}
			return await serialized(() => operate(route.operation, id, query, body.value));
		} catch (error) {
			if (error instanceof ApiError)
				return { status: error.status, body: { message: error.message } };
			return { status: 500, body: { message: (error as Error).message } };
		}
	}

	function takeFault(method: string, path: string): DataTableFault | undefined {
		const fault = faults.find(
			(candidate) =>
				candidate.remaining > 0 &&
				(!candidate.method || candidate.method.toUpperCase() === method) &&
				(!candidate.pathEndsWith || path.endsWith(candidate.pathEndsWith)),
		);
		if (!fault) return undefined;
		fault.remaining--;
		faults = faults.filter((candidate) => candidate.remaining > 0);
		return fault;
	}

	function send(
		res: http.ServerResponse,
		status: number,
		body: unknown,
		how: Pick<DataTableFault, 'headers' | 'trickleMs'> = {},
	): void {
		if (res.destroyed) return;
		const text = typeof body === 'string' ? body : JSON.stringify(body);
		res.writeHead(status, {
			'content-type':
				typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
			'content-length': Buffer.byteLength(text),
			date: new Date(Date.now() + clockOffsetMs).toUTCString(),
			...how.headers,
		});
		if (!how.trickleMs) {
			res.end(text);
			return;
		}
		const bytes = Buffer.from(text);
		let sent = 0;
		const timer = setInterval(() => {
			if (res.destroyed || sent >= bytes.length) {
				clearInterval(timer);
				res.end();
				return;
			}
			res.write(bytes.subarray(sent, ++sent));
		}, how.trickleMs);
		res.on('close', () => clearInterval(timer));
	}

	function sendFault(req: http.IncomingMessage, res: http.ServerResponse, fault: DataTableFault) {
		if (fault.drop) {
			req.socket.destroy();
			return;
		}
		const status = fault.status ?? 500;
		send(res, status, fault.body ?? { message: http.STATUS_CODES[status] ?? 'Error' }, fault);
	}

	async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks).toString('utf8');
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const method = (req.method ?? 'GET').toUpperCase();
		const query: Record<string, string> = {};
		for (const [name, value] of url.searchParams) if (!(name in query)) query[name] = value;
		const body: { value: unknown; error?: string; contentType?: string } = { value: undefined };
		if (raw.length > 0) {
			body.contentType = req.headers['content-type'] ?? 'text/plain';
			try {
				body.value = JSON.parse(raw);
			} catch (error) {
				body.value = raw;
				if (body.contentType.includes('json')) body.error = (error as Error).message;
			}
		}
		const recorded: RecordedDataTableRequest = {
			method,
			path: url.pathname,
			query: { ...query },
			body: body.value,
		};
		requests.push(recorded);

		const fault = takeFault(method, url.pathname);
		const wait = delayMs + (fault?.delayMs ?? 0);
		if (wait > 0) await sleep(wait);
		if (fault?.until) await fault.until();
		fault?.before?.();
		const fails = fault && (fault.drop || fault.status !== undefined);
		if (fault && fails && !fault.afterApply) return sendFault(req, res, fault);
		const result = await answer(method, url.pathname, query, req.headers, body);
		const page = isObject(result.body) ? result.body.data : undefined;
		if (method === 'GET' && Array.isArray(page)) recorded.rowsAnswered = page.length;
		if (fault && fails) return sendFault(req, res, fault);
		send(res, result.status, result.body, fault);
	}

	const sockets = new Set<Socket>();
	const server = http.createServer((req, res) => {
		handle(req, res).catch((error: Error) => send(res, 500, { message: error.message }));
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}${API_PREFIX}`,
		apiKey,
		tableId,
		columns,
		rows: () => byId(rows).map((row) => structuredClone(shown(row))),
		requests,
		failNext(count, how) {
			faults.push({ ...how, remaining: count });
		},
		setDelay(ms) {
			delayMs = ms;
		},
		setClockOffset(ms) {
			clockOffsetMs = ms;
		},
		clockOffset: () => clockOffsetMs,
		answerUnordered(on) {
			unordered = on;
		},
		removeRows(which) {
			const before = rows.length;
			rows = rows.filter((row) => !which(shown(row)));
			return before - rows.length;
		},
		clear() {
			clockOffsetMs = 0;
			unordered = false;
			rows = [];
			nextId = 1;
			requests.length = 0;
			faults = [];
		},
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}
