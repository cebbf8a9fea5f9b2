/**
 * The harness's own proof: a test-only node runs inside n8n's engine against the sandbox gateway
 * over real HTTP on 127.0.0.1, with credentials, token fetching and refresh handled the way n8n's
 * server handles them, and every result scanned for secrets. Also the proof of the stand-in for
 * n8n's public Data Table API (`harness/dataTableApi.ts`): each endpoint and error over HTTP.
 */
import { existsSync } from 'fs';
import { join } from 'path';

import { SANDBOX_CREDENTIALS, startSandboxGateway, type SandboxGateway } from '../sandbox';
import { EchoAuthorized } from './harness/fixtures/EchoAuthorized.node';
import {
	CredentialStore,
	MANUAL_TRIGGER_TYPE,
	PACKAGE_NAME,
	PACKAGE_NODES,
	SecretLeakError,
	defaultNodeTypes,
	listSearch,
	loadOptions,
	runNode,
	runWorkflow,
	scannedCount,
	secretsOf,
	testCredential,
} from './harness';
import { report } from './harness/report';
import { startDataTableApi, type DataTableApi } from './harness/dataTableApi';

const COLLECTION = 'paymentCollectionApi';
const echo = new EchoAuthorized();
const items = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ reference_no: `REF-${index + 1}` }));

let gw: SandboxGateway;
const tokenRequests = () => gw.stats().tokenRequests.collection;

/** A store holding one Payment Collection credential pointed at the gateway. */
function storeWith(password = SANDBOX_CREDENTIALS.collection.password): CredentialStore {
	const store = new CredentialStore();
	store.add(COLLECTION, {
		environment: 'sandbox',
		baseUrl: gw.url,
		username: SANDBOX_CREDENTIALS.collection.username,
		password,
		signingSecret: SANDBOX_CREDENTIALS.signingSecret,
	});
	return store;
}

// A fresh gateway per test: token.ts remembers recent tokens per base URL for 30 s, and a new
// port keeps one test's token from serving the next.
beforeEach(async () => {
	gw = await startSandboxGateway();
});
afterEach(async () => {
	await gw.close();
});

describe('node types', () => {
	it('holds the Manual Trigger stub and registers test-only nodes by their type name', () => {
		const nodeTypes = defaultNodeTypes();
		expect(nodeTypes.has(MANUAL_TRIGGER_TYPE)).toBe(true);
		expect(nodeTypes.register(echo)).toBe('harness.echoAuthorized');
		expect(nodeTypes.getByNameAndVersion('harness.echoAuthorized', 1)).toBe(echo);
	});

	it.each(PACKAGE_NODES.map((node) => [node.name, node.file] as const))(
		'registers our %s node as n8n names it, once its file exists',
		(name, file) => {
			const typeName = `${PACKAGE_NAME}.${name}`;
			const nodeTypes = defaultNodeTypes();
			expect(nodeTypes.has(typeName)).toBe(existsSync(join(__dirname, '..', `${file}.ts`)));
			if (nodeTypes.has(typeName))
				expect(nodeTypes.getByName(typeName).description.name).toBe(name);
		},
	);
});

describe('tokens through n8n-core with the server-like credentials helper', () => {
	it('makes ONE token request for 50 parallel items, none on the next run, one after the gateway expires tokens', async () => {
		const store = storeWith();

		const first = await runNode({ type: echo, parameters: {}, items: items(50), store });
		expect(first.error).toBeUndefined();
		expect(first.outputs[0]).toHaveLength(50);
		expect(first.outputs[0][49].pairedItem).toEqual({ item: 49 });
		expect(tokenRequests()).toBe(1);
		// Each of the 50 requests found the stored token empty and asked; token.ts shared one fetch.
		expect(store.stats(COLLECTION).preAuthentications).toBe(50);
		const token = store.data(COLLECTION).sessionToken;
		expect(typeof token === 'string' && token.length > 0).toBe(true);

		store.resetStats();
		const second = await runNode({ type: echo, parameters: {}, items: items(50), store });
		expect(second.error).toBeUndefined();
		expect(tokenRequests()).toBe(1);
		expect(store.stats(COLLECTION)).toEqual({ preAuthentications: 0, updates: 0 });

		gw.expireTokens();
		const third = await runNode({ type: echo, parameters: {}, items: items(50), store });
		expect(third.error).toBeUndefined();
		expect(third.outputs[0]).toHaveLength(50);
		expect(tokenRequests()).toBe(2);
		expect(store.data(COLLECTION).sessionToken).not.toBe(token);
		expect(secretsOf(store).tokens).toBe(2);
	});

	it('runs preAuthentication again when the stored token is blanked', async () => {
		const store = storeWith();
		await runNode({ type: echo, parameters: {}, items: items(1), store });
		store.expireStoredToken(COLLECTION);
		expect(store.data(COLLECTION).sessionToken).toBe('');

		store.resetStats();
		const result = await runNode({ type: echo, parameters: {}, items: items(1), store });
		expect(result.error).toBeUndefined();
		expect(store.stats(COLLECTION).preAuthentications).toBe(1);
		expect(store.data(COLLECTION).sessionToken).not.toBe('');
	});

	it('fails with a message that points at the credential and holds no password', async () => {
		const wrong = 'definitely-not-the-Pa55word';
		const store = storeWith(wrong);
		const result = await runNode({ type: echo, parameters: {}, items: items(3), store });
		expect(result.outputs).toEqual([]);
		expect(result.error?.message).toMatch(/credential was refused: check Username and Password/);
		expect(JSON.stringify(result.error?.error)).not.toContain(wrong);
		expect(result.run.runError).toBeDefined();
	});

	it('with continue-on-fail puts one error item per input item, paired, on the chosen output', async () => {
		const store = storeWith('wrong-password-123');
		const regular = await runNode({
			type: echo,
			parameters: {},
			items: items(2),
			store,
			onError: 'continueRegularOutput',
		});
		expect(regular.error).toBeUndefined();
		expect(regular.outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(String(regular.outputs[0][0].json.error)).toMatch(/check Username and Password/);

		const split = await runNode({
			type: echo,
			parameters: {},
			items: items(2),
			store,
			onError: 'continueErrorOutput',
		});
		expect(split.outputs[0]).toEqual([]);
		expect(split.outputs[1]).toHaveLength(2);
	});
});

describe('credential test (the editor\'s "Test" button)', () => {
	it('answers OK for good credentials and stores the token it fetched', async () => {
		const store = storeWith();
		await expect(testCredential(store, COLLECTION)).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(tokenRequests()).toBe(1);
		expect(store.data(COLLECTION).sessionToken).not.toBe('');

		// As on n8n's server, a test fetches a token even when one is stored.
		await testCredential(store, COLLECTION);
		expect(store.stats(COLLECTION).preAuthentications).toBe(2);
	});

	it('answers Error with a human message and no password for a wrong password', async () => {
		const wrong = 'another-wrong-Pa55word';
		const store = storeWith(wrong);
		const result = await testCredential(store, COLLECTION);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/check Username and Password/);
		expect(result.message).not.toContain(wrong);
	});
});

describe('loadOptions and listSearch through LoadOptionsContext', () => {
	it('fetch a token once and reuse it', async () => {
		const store = storeWith();
		const options = await loadOptions({ type: echo, method: 'getReferences', store });
		expect(options).toHaveLength(1);
		const found = await listSearch({
			type: echo,
			method: 'searchReferences',
			store,
			filter: 'REF-1',
		});
		expect(found.results[0].value).toBe('REF-1');
		expect(tokenRequests()).toBe(1);
	});
});

describe('runWorkflow', () => {
	it('runs a hand-written workflow and exposes outputs per node', async () => {
		const store = storeWith();
		const result = await runWorkflow({
			store,
			extraNodeTypes: [echo],
			nodes: [
				{ name: 'Start', type: MANUAL_TRIGGER_TYPE, parameters: {} },
				{
					name: 'Echo',
					type: 'harness.echoAuthorized',
					parameters: {},
					credentials: { [COLLECTION]: store.firstOf(COLLECTION)! },
				},
			],
			connections: { Start: { main: [[{ node: 'Echo', type: 'main', index: 0 }]] } },
		});
		expect(result.runError).toBeUndefined();
		expect(result.executedNodes).toEqual(['Start', 'Echo']);
		expect(result.outputOf('Echo')[0]).toHaveLength(1);
		expect(result.errorOf('Echo')).toBeUndefined();
	});
});

describe('secret guard', () => {
	it('fails a run whose output holds the bearer token, naming the kind of secret only', async () => {
		const store = storeWith();
		const leaking = runNode({
			type: echo,
			parameters: { leak: 'requestOptions' },
			items: items(1),
			store,
		});
		await expect(leaking).rejects.toThrow(SecretLeakError);
		const message = await leaking.catch((error: Error) => error.message);
		expect(message).toMatch(
			/session token of a paymentCollectionApi credential appears in output 0 item 0 of "Node"/,
		);
		expect(message).not.toContain(String(store.data(COLLECTION).sessionToken));
	});

	it("fails a run that writes the credential into n8n's log", async () => {
		const store = storeWith();
		const leaking = runNode({
			type: echo,
			parameters: { leak: 'credentialLog' },
			items: items(1),
			store,
		});
		await expect(leaking).rejects.toThrow(
			/the password of a paymentCollectionApi credential appears in a "debug" log line/,
		);
	});

	it('has scanned outputs, errors and log lines for every kind of secret', async () => {
		const store = storeWith();
		await runNode({ type: echo, parameters: {}, items: items(5), store });
		expect(secretsOf(store)).toEqual({ passwords: 1, signingSecrets: 1, tokens: 1, total: 3 });
		expect(scannedCount()).toBeGreaterThan(100);
		report(
			`secret guard: ${scannedCount()} texts scanned in this file; secrets per store: ${JSON.stringify(secretsOf(store))}`,
		);
	});
});

describe("the Data Table API stand-in (n8n 2.41.1's public API, rows of one table)", () => {
	let api: DataTableApi;
	beforeAll(async () => {
		api = await startDataTableApi();
	});
	afterAll(async () => {
		await api.close();
	});
	beforeEach(() => api.clear());

	type Row = Record<string, unknown>;
	/** An answer's JSON read loosely: a page of rows, a list of rows, or a message. */
	type AnswerBody = Row[] & { data: Row[]; nextCursor: string | null; message?: string };
	type Call = {
		method?: string;
		query?: Record<string, string>;
		body?: unknown;
		key?: string | null;
	};
	/** One call over HTTP: the status and the parsed JSON answer. */
	async function call(
		path: string,
		{ method = 'GET', query, body, key }: Call = {},
		on: DataTableApi = api,
	): Promise<{ status: number; body: AnswerBody }> {
		const search = query ? `?${new URLSearchParams(query).toString()}` : '';
		const headers: Record<string, string> = {};
		if (key !== null) headers['X-N8N-API-KEY'] = key ?? on.apiKey;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const res = await fetch(`${on.url}${path}${search}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		return { status: res.status, body: text ? JSON.parse(text) : undefined };
	}
	const rowsPath = (on: DataTableApi = api) => `/data-tables/${on.tableId}/rows`;
	const filterOf = (...filters: object[]) => JSON.stringify({ type: 'and', filters });
	const insert = (data: object[], returnType?: string) =>
		call(rowsPath(), { method: 'POST', body: { data, returnType } });
	const ledgerRow = (day: string, reference: string, centavos: number, state = 'reserved') => ({
		day,
		scope: 'payout',
		reference,
		centavos,
		state,
	});

	it('serves http://127.0.0.1:<port>/api/v1 with a 16-character table id', () => {
		expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
		expect(api.tableId).toMatch(/^[A-Za-z0-9]{16}$/);
	});

	it('inserts rows and answers as returnType says, missing columns null, ids from 1', async () => {
		await expect(insert([ledgerRow('2026-11-27', 'A', 1250)])).resolves.toEqual({
			status: 200,
			body: { success: true, insertedRows: 1 },
		});
		await expect(insert([{ day: '2026-11-27', centavos: '17' }], 'id')).resolves.toEqual({
			status: 200,
			body: [{ id: 2 }],
		});
		const all = await insert([{ state: 'settled', day: '2026-11-28' }], 'all');
		expect(all.status).toBe(200);
		expect(Object.keys(all.body[0])).toEqual([
			'day',
			'scope',
			'reference',
			'centavos',
			'state',
			'id',
			'createdAt',
			'updatedAt',
		]);
		expect(all.body[0]).toMatchObject({
			day: '2026-11-28',
			reference: null,
			centavos: null,
			id: 3,
		});
		expect(new Date(String(all.body[0].createdAt)).toISOString()).toBe(all.body[0].createdAt);
		expect(all.body[0].updatedAt).toBe(all.body[0].createdAt);
		// A numeric string in a number column is stored as a number.
		expect(api.rows().map((row) => [row.id, row.centavos])).toEqual([
			[1, 1250],
			[2, 17],
			[3, null],
		]);
	});

	it('refuses an unknown column, a non-number in a number column and an empty data array, writing nothing', async () => {
		await expect(insert([ledgerRow('d', 'A', 1), { dayz: 'x' }])).resolves.toEqual({
			status: 400,
			body: { message: "Validation error with data table request: unknown column name 'dayz'" },
		});
		await expect(insert([{ centavos: 'abc' }])).resolves.toEqual({
			status: 400,
			body: {
				message:
					"Validation error with data table request: value 'abc' does not match column type 'number': 'centavos' expects a number but we got 'abc'",
			},
		});
		await expect(insert([])).resolves.toEqual({
			status: 400,
			body: { message: 'request/body/data must NOT have fewer than 1 items' },
		});
		await expect(call(rowsPath(), { method: 'POST', body: {} })).resolves.toEqual({
			status: 400,
			body: { message: "request/body must have required property 'data'" },
		});
		await expect(insert([{ day: 'x' }], 'rows')).resolves.toMatchObject({ status: 400 });
		expect(api.rows()).toEqual([]);
	});

	it('lists rows by id with and/or filters, neq matching null, and filtering on id', async () => {
		await insert([
			ledgerRow('2026-11-27', 'A', 1250),
			ledgerRow('2026-11-27', 'B', 500, 'settled'),
			ledgerRow('2026-11-28', 'C', 700),
			{ day: '2026-11-28', reference: 'D' },
		]);
		const refs = async (query: Record<string, string>) => {
			const answer = await call(rowsPath(), { query });
			expect(answer.status).toBe(200);
			expect(answer.body.nextCursor).toBeNull();
			return answer.body.data.map((row) => row.reference);
		};
		await expect(refs({})).resolves.toEqual(['A', 'B', 'C', 'D']);
		await expect(
			refs({ filter: filterOf({ columnName: 'day', condition: 'eq', value: '2026-11-27' }) }),
		).resolves.toEqual(['A', 'B']);
		// type and condition default to and/eq in the query string.
		await expect(
			refs({ filter: JSON.stringify({ filters: [{ columnName: 'id', value: 3 }] }) }),
		).resolves.toEqual(['C']);
		await expect(
			refs({
				filter: JSON.stringify({
					type: 'or',
					filters: [
						{ columnName: 'centavos', condition: 'gt', value: 1000 },
						{ columnName: 'state', condition: 'eq', value: 'settled' },
					],
				}),
			}),
		).resolves.toEqual(['A', 'B']);
		await expect(
			refs({ filter: filterOf({ columnName: 'state', condition: 'neq', value: 'settled' }) }),
		).resolves.toEqual(['A', 'C', 'D']);
		await expect(
			refs({
				filter: filterOf(
					{ columnName: 'centavos', condition: 'gte', value: 500 },
					{ columnName: 'centavos', condition: 'lte', value: 700 },
				),
			}),
		).resolves.toEqual(['B', 'C']);
		await expect(
			refs({ filter: filterOf({ columnName: 'centavos', condition: 'lt', value: 600 }) }),
		).resolves.toEqual(['B']);
		await expect(refs({ sortBy: 'centavos:desc' })).resolves.toEqual(['A', 'C', 'B', 'D']);
	});

	it('refuses an unknown filter column, bad JSON, a bad condition and a limit above 250', async () => {
		const list = (query: Record<string, string>) => call(rowsPath(), { query });
		await expect(
			list({ filter: filterOf({ columnName: 'nope', condition: 'eq', value: 1 }) }),
		).resolves.toEqual({
			status: 400,
			body: { message: "Validation error with data table request: unknown column name 'nope'" },
		});
		await expect(list({ filter: '{not json' })).resolves.toEqual({
			status: 400,
			body: { message: 'request/query/filter must match format "jsonString"' },
		});
		await expect(
			list({ filter: filterOf({ columnName: 'day', condition: 'near', value: 1 }) }),
		).resolves.toEqual({ status: 400, body: { message: 'Invalid filter fields' } });
		await expect(list({ limit: '251' })).resolves.toEqual({
			status: 400,
			body: { message: 'request/query/limit must be <= 250' },
		});
		await expect(list({ cursor: 'not-a-cursor' })).resolves.toEqual({
			status: 400,
			body: { message: 'An invalid cursor was provided' },
		});
	});

	it('pages 300 rows by cursor: 100 by default, 250 at most, null after the last page', async () => {
		const all = Array.from({ length: 300 }, (_, index) => ledgerRow('d', `R${index + 1}`, index));
		await expect(insert(all)).resolves.toMatchObject({ body: { insertedRows: 300 } });

		const first = await call(rowsPath());
		expect(first.body.data).toHaveLength(100);
		expect(JSON.parse(Buffer.from(String(first.body.nextCursor), 'base64').toString())).toEqual({
			limit: 100,
			offset: 100,
		});

		const ids: number[] = [];
		let cursor: string | null = null;
		let pages = 0;
		do {
			const query: Record<string, string> = cursor ? { cursor } : { limit: '250' };
			const page = await call(rowsPath(), { query });
			expect(page.status).toBe(200);
			ids.push(...page.body.data.map((row) => Number(row.id)));
			cursor = page.body.nextCursor;
			pages++;
		} while (cursor);
		expect(pages).toBe(2);
		expect(ids).toEqual(Array.from({ length: 300 }, (_, index) => index + 1));

		const exact = await call(rowsPath(), { query: { limit: '150', offset: '150' } });
		expect(exact.body.data).toHaveLength(150);
		expect(exact.body.nextCursor).toBeNull();
	});

	it('updates rows by a body filter: true, or the updated rows; the condition is required', async () => {
		await insert([ledgerRow('d', 'A', 1), ledgerRow('d', 'B', 2)]);
		const update = (body: unknown) => call(`${rowsPath()}/update`, { method: 'PATCH', body });
		const byRef = {
			type: 'and',
			filters: [{ columnName: 'reference', condition: 'eq', value: 'B' }],
		};
		const before = api.rows()[1];
		await new Promise((resolve) => setTimeout(resolve, 5));

		await expect(update({ filter: byRef, data: { state: 'settled' } })).resolves.toEqual({
			status: 200,
			body: true,
		});
		const returned = await update({ filter: byRef, data: { centavos: 3 }, returnData: true });
		expect(returned.body).toEqual([{ ...api.rows()[1] }]);
		expect(returned.body[0]).toMatchObject({ state: 'settled', centavos: 3, id: 2 });
		expect(returned.body[0].createdAt).toBe(before.createdAt);
		expect(String(returned.body[0].updatedAt) > String(before.updatedAt)).toBe(true);
		expect(api.rows()[0].state).toBe('reserved');

		const none = {
			type: 'and',
			filters: [{ columnName: 'reference', condition: 'eq', value: 'Z' }],
		};
		await expect(update({ filter: none, data: { state: 'x' } })).resolves.toEqual({
			status: 200,
			body: true,
		});
		await expect(
			update({
				filter: { filters: [{ columnName: 'reference', value: 'B' }] },
				data: { state: 'x' },
			}),
		).resolves.toEqual({
			status: 400,
			body: { message: "request/body/filter/filters/0 must have required property 'condition'" },
		});
		await expect(
			update({ filter: { type: 'and', filters: [] }, data: { state: 'x' } }),
		).resolves.toEqual({
			status: 400,
			body: { message: 'request/body/filter/filters must NOT have fewer than 1 items' },
		});
		await expect(update({ filter: byRef, data: { nope: 1 } })).resolves.toEqual({
			status: 400,
			body: { message: "Validation error with data table request: unknown column name 'nope'" },
		});
		expect(api.rows()[1].state).toBe('settled');
	});

	it('deletes rows by a query filter: true, the deleted rows, [] for none; a filter is required', async () => {
		await insert([ledgerRow('d', 'A', 1), ledgerRow('d', 'B', 2), ledgerRow('d', 'C', 3)]);
		const del = (query: Record<string, string>) =>
			call(`${rowsPath()}/delete`, { method: 'DELETE', query });
		const refIs = (value: string) => filterOf({ columnName: 'reference', condition: 'eq', value });

		await expect(del({ filter: refIs('A') })).resolves.toEqual({ status: 200, body: true });
		const returned = await del({ filter: refIs('B'), returnData: 'true' });
		expect(returned.body).toEqual([expect.objectContaining({ reference: 'B', id: 2 })]);
		await expect(del({ filter: refIs('B'), returnData: 'true' })).resolves.toEqual({
			status: 200,
			body: [],
		});
		await expect(del({ filter: refIs('B') })).resolves.toEqual({ status: 200, body: true });
		await expect(del({})).resolves.toEqual({
			status: 400,
			body: { message: "request/query must have required property 'filter'" },
		});
		await expect(del({ filter: JSON.stringify({ type: 'and', filters: [] }) })).resolves.toEqual({
			status: 400,
			body: { message: 'At least one filter condition is required for delete operations' },
		});
		const dry = await del({ filter: refIs('C'), dryRun: 'true', returnData: 'true' });
		expect(dry.body.map((row) => [row.dryRunState, row.id])).toEqual([
			['before', 3],
			['after', null],
		]);
		expect(api.rows().map((row) => row.reference)).toEqual(['C']);
	});

	it('upserts (update every match, else insert) and clears', async () => {
		const upsert = (body: unknown) => call(`${rowsPath()}/upsert`, { method: 'POST', body });
		const onDay = { type: 'and', filters: [{ columnName: 'day', condition: 'eq', value: 'x' }] };
		const inserted = await upsert({
			filter: onDay,
			data: { day: 'x', centavos: 1 },
			returnData: true,
		});
		expect(inserted.body).toEqual([expect.objectContaining({ day: 'x', centavos: 1, id: 1 })]);
		await expect(upsert({ filter: onDay, data: { centavos: 2 } })).resolves.toEqual({
			status: 200,
			body: true,
		});
		expect(api.rows().map((row) => row.centavos)).toEqual([2]);
		const dry = await upsert({ filter: onDay, data: { centavos: 9 }, dryRun: true });
		expect(dry.body.map((row) => [row.dryRunState, row.centavos])).toEqual([
			['before', 2],
			['after', 9],
		]);
		expect(api.rows().map((row) => row.centavos)).toEqual([2]);
		await expect(call(`${rowsPath()}/clear`, { method: 'DELETE' })).resolves.toEqual({
			status: 200,
			body: { deletedCount: 1 },
		});
		expect(api.rows()).toEqual([]);
		// Ids are not reused after a delete.
		await expect(insert([{ day: 'y' }], 'id')).resolves.toEqual({ status: 200, body: [{ id: 2 }] });
	});

	it('answers 401 without a key or with another, 404 for an unknown table, 400 for a malformed id', async () => {
		await expect(call(rowsPath(), { key: null })).resolves.toEqual({
			status: 401,
			body: { message: "'X-N8N-API-KEY' header required" },
		});
		await expect(call(rowsPath(), { key: 'someone-else' })).resolves.toEqual({
			status: 401,
			body: { message: 'unauthorized' },
		});
		await expect(call('/data-tables/AAAAAAAAAAAAAAAA/rows')).resolves.toEqual({
			status: 404,
			body: { message: "Could not find the data table: 'AAAAAAAAAAAAAAAA'" },
		});
		await expect(call('/data-tables/short/rows')).resolves.toEqual({
			status: 400,
			body: { message: 'request/params/dataTableId must match format "nanoid"' },
		});
		await expect(call(`/data-tables/${api.tableId}/nothing`)).resolves.toMatchObject({
			status: 404,
		});
	});

	it('answers 403 for an operation the key has no scope for', async () => {
		const readOnly = await startDataTableApi({ scopes: ['dataTableRow:read'] });
		try {
			await expect(call(rowsPath(readOnly), {}, readOnly)).resolves.toMatchObject({ status: 200 });
			const forbidden = { status: 403, body: { message: 'Forbidden' } };
			await expect(
				call(rowsPath(readOnly), { method: 'POST', body: { data: [{ day: 'd' }] } }, readOnly),
			).resolves.toEqual(forbidden);
			await expect(
				call(
					`${rowsPath(readOnly)}/delete`,
					{ method: 'DELETE', query: { filter: filterOf({ columnName: 'id', value: 1 }) } },
					readOnly,
				),
			).resolves.toEqual(forbidden);
			await expect(
				call(
					`${rowsPath(readOnly)}/update`,
					{
						method: 'PATCH',
						body: {
							filter: { filters: [{ columnName: 'id', condition: 'eq', value: 1 }] },
							data: { day: 'e' },
						},
					},
					readOnly,
				),
			).resolves.toEqual(forbidden);
			expect(readOnly.rows()).toEqual([]);
		} finally {
			await readOnly.close();
		}
	});

	it('handles one request at a time: 20 concurrent inserts get 20 distinct ids, and a read after a write sees it', async () => {
		api.setDelay(5);
		try {
			const answers = await Promise.all(
				Array.from({ length: 20 }, (_, index) =>
					insert([ledgerRow('d', `P${index}`, index)], 'id'),
				),
			);
			const ids = answers.map((answer) => answer.body[0].id as number);
			expect(new Set(ids).size).toBe(20);
			expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
			const reads = await Promise.all(
				ids.map((id) =>
					call(rowsPath(), { query: { filter: filterOf({ columnName: 'id', value: id }) } }),
				),
			);
			expect(reads.every((read) => read.body.data.length === 1)).toBe(true);
		} finally {
			api.setDelay(0);
		}
	});

	it('records requests and injects faults: a status, a dropped connection, a loss after the write', async () => {
		api.failNext(1, { status: 503, method: 'POST', pathEndsWith: '/rows' });
		await expect(call(rowsPath())).resolves.toMatchObject({ status: 200 });
		await expect(insert([{ day: 'a' }])).resolves.toEqual({
			status: 503,
			body: { message: 'Service Unavailable' },
		});
		expect(api.rows()).toEqual([]);

		api.failNext(1, { drop: true });
		await expect(insert([{ day: 'b' }])).rejects.toThrow();
		expect(api.rows()).toEqual([]);

		api.failNext(1, { drop: true, afterApply: true });
		await expect(insert([{ day: 'c' }])).rejects.toThrow();
		expect(api.rows().map((row) => row.day)).toEqual(['c']);

		api.failNext(1, { status: 502, body: '<html>Bad Gateway</html>' });
		const res = await fetch(`${api.url}${rowsPath()}`, {
			headers: { 'X-N8N-API-KEY': api.apiKey },
		});
		expect([res.status, await res.text()]).toEqual([502, '<html>Bad Gateway</html>']);

		api.failNext(1, { delayMs: 50 });
		const started = Date.now();
		await expect(call(rowsPath())).resolves.toMatchObject({ status: 200 });
		expect(Date.now() - started).toBeGreaterThanOrEqual(45);

		expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /api/v1${rowsPath()}`,
			...Array(3).fill(`POST /api/v1${rowsPath()}`),
			...Array(2).fill(`GET /api/v1${rowsPath()}`),
		]);
		expect(api.requests[1].body).toEqual({ data: [{ day: 'a' }] });
		api.clear();
		expect(api.requests).toEqual([]);
	});
});
