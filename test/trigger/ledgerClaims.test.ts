/**
 * One execution per delivery across webhook processes, with a Payout Ledger credential on the
 * trigger (nodes/PaymentGatewayTrigger/helpers/ledgerClaims.ts). Each "process" is a trigger served
 * through n8n's webhook path with the trigger's code loaded anew (its own memory) and its own copy
 * of the workflow's static data, as two queue-mode webhook processes have; the ledger is a local
 * n8n Data Table API over HTTP on 127.0.0.1.
 */
import type { INodeCredentials, INodeParameters } from 'n8n-workflow';

import {
	CLAIMED,
	CLAIMING,
	STALE_CLAIM_MS,
} from '../../nodes/PaymentGatewayTrigger/helpers/ledgerClaims';
import { deliveryKey } from '../../nodes/PaymentGatewayTrigger/helpers/duplicates';
import { startDataTableApi, type DataTableApi, type DataTableFault } from '../harness/dataTableApi';
import { LEDGER_CREDENTIAL } from '../harness/ledgerRuns';
import { callbackBody, COLLECTION, setUpPerFile, trigger } from '../harness/triggerRuns';
import type { TriggerHarness, WebhookCall } from '../harness/webhookHarness';

const s = setUpPerFile();
let api: DataTableApi;
let ledger: INodeCredentials;

beforeAll(async () => {
	api = await startDataTableApi();
	ledger = ledgerCredentialWith({});
});
afterAll(async () => await api.close());
beforeEach(() => api.clear());

function ledgerCredentialWith(data: Record<string, string>): INodeCredentials {
	const stored = s.store.add(LEDGER_CREDENTIAL, {
		apiUrl: api.url,
		apiKey: api.apiKey,
		dataTableId: api.tableId,
		...data,
	});
	return { [LEDGER_CREDENTIAL]: { id: stored.id, name: stored.name } };
}

let workflows = 0;

/** `count` webhook processes serving the same published workflow, each with its own memory. */
async function processes(
	count: number,
	withLedger: INodeCredentials = ledger,
	parameters: INodeParameters = {},
): Promise<TriggerHarness[]> {
	const workflowId = `claims-workflow-${++workflows}`;
	const credentials: INodeCredentials = { [COLLECTION]: s.collection, ...withLedger };
	return await Promise.all(
		Array.from(
			{ length: count },
			async () =>
				await trigger(s, parameters, {
					workflowId,
					credentials,
					freshProcess: true,
					staticData: {},
				}),
		),
	);
}

const started = (calls: WebhookCall[]) => calls.filter((call) => call.executionStarted).length;
const claimRows = () => api.rows().filter((row) => String(row.scope).startsWith('callback:'));

describe('one delivery, several webhook processes', () => {
	test('without a ledger: the same callback on two processes at the same moment starts two executions', async () => {
		const [a, b] = await processes(2, {});
		const body = callbackBody('CLAIM-NONE-1', 100, 'completed');
		const answers = await Promise.all([a.post(body), b.post(body)]);
		expect(answers.map((call) => call.statusCode)).toEqual([200, 200]);
		expect(started(answers)).toBe(2);
		expect(api.requests).toEqual([]);
	});

	test('with a ledger: 20 references, each posted to three processes at the same moment, start exactly 20 executions', async () => {
		const hs = await processes(3);
		const references = Array.from({ length: 20 }, (_, i) => `CLAIM-MANY-${i + 1}`);
		const answers = await Promise.all(
			references.flatMap((reference) =>
				hs.map(async (h) => await h.post(callbackBody(reference, 100, 'completed'))),
			),
		);
		expect(answers.map((call) => call.statusCode)).toEqual(answers.map(() => 200));
		const executed = answers
			.filter((call) => call.executionStarted)
			.map((call) => (call.nextStepItems?.[0]?.json as { reference_no: string }).reference_no);
		expect(executed.sort()).toEqual([...references].sort());
		// Every other request is answered as a duplicate.
		expect(answers.filter((call) => !call.executionStarted).map((call) => call.body)).toEqual(
			Array.from({ length: 40 }, () => ({ message: 'Duplicate ignored' })),
		);
		const rows = claimRows();
		expect(rows.map((row) => row.state)).toEqual(references.map(() => CLAIMED));
		expect(new Set(rows.map((row) => row.reference)).size).toBe(20);
	});

	test('a repeat on a process that never saw the delivery (a restart, another process) is a duplicate', async () => {
		const [first] = await processes(1);
		const body = callbackBody('CLAIM-LATER-1', 100, 'completed');
		expect((await first.post(body)).executionStarted).toBe(true);
		const [other] = await processes(1);
		// The same workflow: the second set of processes has another id, so serve it again.
		const again = await trigger(
			s,
			{},
			{
				workflowId: first.workflowId,
				credentials: { [COLLECTION]: s.collection, ...ledger },
				freshProcess: true,
				staticData: {},
			},
		);
		const answer = await again.post(body);
		expect(answer.body).toEqual({ message: 'Duplicate ignored' });
		expect(answer.executionStarted).toBe(false);
		// Another workflow's trigger is another scope: the same callback starts its execution there.
		expect((await other.post(body)).executionStarted).toBe(true);
	});

	test('a pending status and a final one of the same reference are two deliveries', async () => {
		const [a, b] = await processes(2, ledger, { statuses: ['pending', 'completed'] });
		const pending = callbackBody('CLAIM-STATUS-1', 100, 'pending');
		const completed = callbackBody('CLAIM-STATUS-1', 100, 'completed');
		const answers = await Promise.all([
			a.post(pending),
			b.post(pending),
			a.post(completed),
			b.post(completed),
		]);
		expect(started(answers)).toBe(2);
	});

	test('a claim still being decided by another request: this one waits, then is answered 503 and starts nothing', async () => {
		const [h] = await processes(1);
		const key = deliveryKey('collection', 'CLAIM-HELD-1', 'completed');
		await insertClaim(scopeOf(h), key);
		const answer = await h.post(callbackBody('CLAIM-HELD-1', 100, 'completed'));
		expect(answer.statusCode).toBe(503);
		expect(answer.executionStarted).toBe(false);
		// Only the other request's claim is left.
		expect(claimRows().map((row) => row.state)).toEqual([CLAIMING]);
		// Once the other request's claim holds, a new delivery is a duplicate.
		await markClaimed(key);
		const after = await h.post(callbackBody('CLAIM-HELD-1', 100, 'completed'));
		expect(after.body).toEqual({ message: 'Duplicate ignored' });
	});

	test('a claim left mid-way long ago (a process that stopped) is not waited for', async () => {
		const [h] = await processes(1);
		api.setClockOffset(-(STALE_CLAIM_MS + 5_000));
		await insertClaim(scopeOf(h), deliveryKey('collection', 'CLAIM-STALE-1', 'completed'));
		api.setClockOffset(0);
		const answer = await h.post(callbackBody('CLAIM-STALE-1', 100, 'completed'));
		expect(answer.executionStarted).toBe(true);
		// Taken over: the stopped process's claim is removed, this request's holds.
		expect(claimRows().map((row) => [row.id, row.state])).toEqual([[2, CLAIMED]]);
	});

	test('a claimer that stalls past a minute after reading its claim alone: a redelivery takes the claim over and starts; the first wakes, its mark changes no row and it starts nothing', async () => {
		const [first, second] = await processes(2);
		const body = callbackBody('CLAIM-STALLED-1', 100, 'completed');
		let redelivered: WebhookCall | undefined;
		// The first process's mark is held while n8n's clock passes a minute and the service
		// delivers the callback again, to the second process.
		api.failNext(1, {
			method: 'PATCH',
			until: async () => {
				api.setClockOffset(STALE_CLAIM_MS + 5_000);
				redelivered = await second.post(body);
			},
		});
		const woke = await first.post(body);
		expect(redelivered).toMatchObject({ statusCode: 200, executionStarted: true });
		expect(woke).toMatchObject({
			statusCode: 200,
			executionStarted: false,
			body: { message: 'Duplicate ignored' },
		});
		// The first process's claim (row 1) was taken over; only the second's (row 2) holds.
		expect(claimRows().map((row) => [row.id, row.state])).toEqual([[2, CLAIMED]]);
		const [stalledMark] = api.requests.filter((request) => request.method === 'PATCH');
		expect(JSON.stringify(stalledMark.body)).toContain(
			'{"columnName":"state","condition":"eq","value":"claiming"},{"columnName":"id","condition":"eq","value":1}',
		);
	});

	test('a stale claim its owner marks just before the take-over: the take-over removes nothing and this request starts nothing', async () => {
		const [h] = await processes(1);
		const key = deliveryKey('collection', 'CLAIM-LATE-MARK-1', 'completed');
		api.setClockOffset(-(STALE_CLAIM_MS + 5_000));
		await insertClaim(scopeOf(h), key);
		api.setClockOffset(0);
		api.failNext(1, { method: 'DELETE', until: async () => await markClaimed(key, 1) });
		const answer = await h.post(callbackBody('CLAIM-LATE-MARK-1', 100, 'completed'));
		expect(answer).toMatchObject({
			statusCode: 200,
			executionStarted: false,
			body: { message: 'Duplicate ignored' },
		});
		expect(claimRows().map((row) => [row.id, row.state])).toEqual([[1, CLAIMED]]);
	});

	test('two redeliveries on two processes find the same stale claim: exactly one takes it over and starts', async () => {
		const [a, b] = await processes(2);
		api.setClockOffset(-(STALE_CLAIM_MS + 5_000));
		await insertClaim(scopeOf(a), deliveryKey('collection', 'CLAIM-TWO-TAKERS-1', 'completed'));
		api.setClockOffset(0);
		const body = callbackBody('CLAIM-TWO-TAKERS-1', 100, 'completed');
		const answers = await Promise.all([a.post(body), b.post(body)]);
		expect(started(answers)).toBe(1);
		expect(answers.map((call) => call.statusCode)).toEqual([200, 200]);
		expect(claimRows().map((row) => row.state)).toEqual([CLAIMED]);
	});
});

describe('a ledger that fails: 503, nothing starts, nothing is lost', () => {
	test.each<[string, DataTableFault]>([
		['the claim cannot be written', { method: 'POST', status: 500 }],
		[
			'the claim is written but its answer is lost',
			{ method: 'POST', drop: true, afterApply: true },
		],
		['the claims cannot be read', { method: 'GET', status: 503 }],
		['the claim cannot be marked', { method: 'PATCH', drop: true }],
		['the ledger redirects', { method: 'POST', status: 302, headers: { location: '/elsewhere' } }],
		[
			'the claims are read as a body larger than any',
			{ method: 'GET', status: 200, body: 'x'.repeat(2 * 1024 * 1024) },
		],
	])('%s: answered 503; the service delivers again and one execution starts', async (_, fault) => {
		const [h] = await processes(1);
		const body = callbackBody(`CLAIM-FAIL-${fault.method}`, 100, 'completed');
		api.failNext(1, fault);
		const refused = await h.post(body);
		expect(refused.statusCode).toBe(503);
		expect(refused.executionStarted).toBe(false);
		expect(JSON.stringify(refused.logs)).not.toContain(api.apiKey);
		// A claim whose answer was lost stays behind: it holds the delivery until it is stale.
		if (fault.afterApply) api.setClockOffset(STALE_CLAIM_MS + 5_000);
		const again = await h.post(body);
		expect(again.statusCode).toBe(200);
		expect(again.executionStarted).toBe(true);
		expect(await h.post(body)).toMatchObject({ executionStarted: false, statusCode: 200 });
	});

	test("the claim is marked but the answer is lost: the claim holds and this request's execution starts", async () => {
		const [h, other] = await processes(2);
		const body = callbackBody('CLAIM-MARKED-1', 100, 'completed');
		api.failNext(1, { method: 'PATCH', drop: true, afterApply: true });
		const first = await h.post(body);
		expect([first.statusCode, first.executionStarted]).toEqual([200, true]);
		expect(claimRows().map((row) => row.state)).toEqual([CLAIMED]);
		expect((await other.post(body)).body).toEqual({ message: 'Duplicate ignored' });
	});

	test('a wrong API key: 503 naming the ledger, the key in no log', async () => {
		const [h] = await processes(1, ledgerCredentialWith({ apiKey: 'n8n_api_wrong-key-123456' }));
		const answer = await h.post(callbackBody('CLAIM-KEY-1', 100, 'completed'));
		expect(answer.statusCode).toBe(503);
		const logged = JSON.stringify(answer.logs);
		expect(logged).toMatch(/payout ledger failed: n8n answered HTTP 401/);
		expect(logged).not.toContain('wrong-key-123456');
	});

	test("the editor's test URL claims nothing in the ledger", async () => {
		const h = await trigger(
			s,
			{},
			{ credentials: { [COLLECTION]: s.collection, ...ledger }, mode: 'manual' },
		);
		expect((await h.post(callbackBody('CLAIM-TEST-1', 100, 'completed'))).executionStarted).toBe(
			true,
		);
		expect(api.requests).toEqual([]);
	});
});

describe('publishing a trigger with a ledger', () => {
	test('a ledger whose rows can be read: the workflow activates', async () => {
		const [h] = await processes(1);
		expect(await h.lifecycle('checkExists')).toMatchObject({ result: true });
	});

	test.each([
		['an n8n without the Data Table API (1.x answers 404)', {}, { status: 404 }],
		['a wrong API key', { apiKey: 'n8n_api_refused-key-98765' }, undefined],
		['a Data Table ID that is not one', { dataTableId: 'ledger' }, undefined],
	])('%s: activation fails and says what to fix', async (_, data, fault) => {
		const [h] = await processes(1, ledgerCredentialWith(data));
		if (fault) api.failNext(1, fault);
		const outcome = await h.lifecycle('checkExists');
		expect(outcome.error?.message).toMatch(
			/^Cannot activate "Payment Gateway Trigger": its Payout Ledger cannot be used \(.+\)\. The ledger is an n8n Data Table .*\(n8n 2\.7 or later\)/,
		);
		expect((outcome.error as { description?: string }).description).toMatch(/n8n 2\.7 or later/);
		expect(JSON.stringify(outcome)).not.toContain('refused-key-98765');
	});
});

const scopeOf = (h: TriggerHarness) => `callback:${h.workflowId}:${h.node.id}`;

async function rowsApi(method: string, path: string, body: unknown): Promise<void> {
	const res = await fetch(`${api.url}/data-tables/${api.tableId}/rows${path}`, {
		method,
		headers: { 'content-type': 'application/json', 'x-n8n-api-key': api.apiKey },
		body: JSON.stringify(body),
	});
	expect(res.status).toBe(200);
}

/** A claim written straight to the ledger, as another process mid-claim leaves it. */
async function insertClaim(scope: string, key: string): Promise<void> {
	await rowsApi('POST', '', {
		data: [{ day: '2026-01-01', scope, reference: key, centavos: 0, state: CLAIMING }],
	});
}

/** Marks the claims of this delivery (only the row of `id`, when given), as their owner does. */
async function markClaimed(key: string, id?: number): Promise<void> {
	const filters = [{ columnName: 'reference', condition: 'eq', value: key }];
	if (id !== undefined) filters.push({ columnName: 'id', condition: 'eq', value: String(id) });
	await rowsApi('PATCH', '/update', { filter: { type: 'and', filters }, data: { state: CLAIMED } });
}
