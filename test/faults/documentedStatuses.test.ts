/**
 * Only `pending`, `completed` and `cancelled`, exactly, are statuses (docs/endpoints.md): a service
 * answering "COMPLETED", " completed", "Completed" or "success" states a status the document does
 * not list. Served by the sandbox gateway over real HTTP through n8n's engine, such a status is
 * never final and never completed wherever a status is read (Get, Wait for Final Status,
 * Reconcile, the trigger's callback, its status filter and its Confirm With Service), and the item
 * or the refusal names the value as the service sent it.
 */
import type { SandboxGateway } from '../../sandbox';
import * as collection from '../harness/collectionRuns';
import { freshStart, gatewayPerSuite, jsonOf, run, setUp } from '../harness/disbursementRuns';
import { callbackBody, setUpPerFile, trigger } from '../harness/triggerRuns';

const PAYOUT_LOOKUP = '/v1/api/disbursement/transactions';
const COLLECTION_LOOKUP = '/v1/biller/transactions';

/** Not one of the three documented values, each close to one of them. */
const UNDOCUMENTED: Array<[string]> = [
	['COMPLETED'],
	[' completed'],
	['completed '],
	['Completed'],
	['CANCELLED'],
	['Cancelled'],
	['success'],
];

/** The service answers every look-up of `referenceNo` with one record stating `status`. */
function recordStates(gw: SandboxGateway, path: string, referenceNo: string, status: string) {
	gw.faults.add({
		method: 'GET',
		path,
		referenceNo,
		mode: 'error-before',
		status: 200,
		body: {
			message: 'OK',
			data: {
				transactions: [
					{ reference_no: referenceNo, amount: 10, subtotal_amount: 10, channel: 'GCASH', status },
				],
			},
		},
		times: 1000,
	});
}

let counter = 0;
const ref = (prefix: string) => `DS-${prefix}-${++counter}`;

const notFinal = (status: string) =>
	`The service's record states status ${JSON.stringify(status)}, which is none of pending, completed, cancelled (looked up for 0.01 minutes): whether it is final cannot be told from it; check it in the service's dashboard`;

describe('Disbursement', () => {
	const s = gatewayPerSuite(setUp, { beforeEach: freshStart });
	const wait = async (referenceNo: string) =>
		await run(s, {
			resource: 'payout',
			operation: 'waitForFinalStatus',
			referenceNo,
			timeLimitMinutes: 0.01,
			options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
		});

	test.each(UNDOCUMENTED)(
		'Wait for Final Status, status %j: never final, looked up until Give Up After, named as sent',
		async (status) => {
			const reference = ref('WAIT');
			recordStates(s.gw, PAYOUT_LOOKUP, reference, status);
			const result = await wait(reference);
			expect(result.error).toBeUndefined();
			const [item] = jsonOf(result);
			expect(item).toMatchObject({
				reference_no: reference,
				status,
				finalStatus: false,
				message: notFinal(status),
			});
			expect(item.lookUps).toBeGreaterThan(1);
		},
	);

	test.each([['completed'], ['cancelled']])(
		'Wait for Final Status, status %j as documented: final at the first look-up',
		async (status) => {
			const reference = ref('WAIT');
			recordStates(s.gw, PAYOUT_LOOKUP, reference, status);
			const [item] = jsonOf(await wait(reference));
			expect(item).toMatchObject({ status, finalStatus: true, lookUps: 1 });
		},
	);

	test.each(UNDOCUMENTED)('Get, status %j: the record as the service sent it', async (status) => {
		const reference = ref('GET');
		recordStates(s.gw, PAYOUT_LOOKUP, reference, status);
		const result = await run(s, { resource: 'payout', operation: 'get', referenceNo: reference });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({ reference_no: reference, status });
	});

	test('Reconcile: each undocumented status is named as sent, and counted as unknown, never as completed or cancelled', async () => {
		const rows = UNDOCUMENTED.map(([status]) => ({ reference_no: ref('REC'), amount: 10, status }));
		for (const row of rows) recordStates(s.gw, PAYOUT_LOOKUP, row.reference_no, row.status);
		const result = await run(
			s,
			{ resource: 'payout', operation: 'reconcile', mappingMode: 'autoMapInputData' },
			{ items: rows.map(({ reference_no, amount }) => ({ reference_no, amount })) },
		);
		expect(result.error).toBeUndefined();
		const out = jsonOf(result);
		expect(out.slice(0, -1).map((row) => row.status)).toEqual(rows.map((row) => row.status));
		expect(out[out.length - 1].byStatus).toEqual({
			completed: { rows: 0, amount: 0 },
			pending: { rows: 0, amount: 0 },
			cancelled: { rows: 0, amount: 0 },
			unknown: { rows: UNDOCUMENTED.length, amount: 10 * UNDOCUMENTED.length },
		});
	});
});

describe('Payment Collection', () => {
	const s = collection.gatewayPerSuite(async () => await collection.setUp(), {
		beforeEach: freshStart,
	});

	test.each(UNDOCUMENTED)(
		'Wait for Final Status, a transaction with status %j: never final, named as sent',
		async (status) => {
			const reference = ref('TX');
			recordStates(s.gw, COLLECTION_LOOKUP, reference, status);
			const result = await collection.run(s, {
				resource: 'transaction',
				operation: 'waitForFinalStatus',
				referenceNo: reference,
				timeLimitMinutes: 0.01,
				options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
			});
			expect(jsonOf(result)[0]).toMatchObject({
				status,
				finalStatus: false,
				message: notFinal(status),
			});
		},
	);
});

describe('the trigger', () => {
	const s = setUpPerFile();
	beforeEach(() => {
		s.gw.faults.clear();
	});

	test.each(UNDOCUMENTED)(
		'a signed callback with status %j: 400 naming it, no execution',
		async (status) => {
			const h = await trigger(s);
			const call = await h.post(callbackBody(ref('CB'), 100, status));
			expect(call.statusCode).toBe(400);
			expect(call.body).toEqual({
				message: `Bad request: status "${status}" is not one of pending, completed, cancelled`,
			});
			expect(call.executionStarted).toBe(false);
		},
	);

	test.each([['PENDING'], ['Pending'], [' pending']])(
		'the status filter: a callback with status %j is not a pending one, and starts nothing',
		async (status) => {
			const h = await trigger(s, { statuses: ['pending', 'completed', 'cancelled'] });
			const call = await h.post(callbackBody(ref('CB'), 100, status));
			expect(call.statusCode).toBe(400);
			expect(call.executionStarted).toBe(false);
		},
	);

	test.each(UNDOCUMENTED)(
		'Confirm With Service, a record stating %j: the callback is refused with 401 naming it',
		async (status) => {
			const reference = ref('CONF');
			const h = await trigger(s, { confirmWithService: true });
			recordStates(s.gw, COLLECTION_LOOKUP, reference, status);
			const call = await h.post(callbackBody(reference, 10, 'completed'));
			expect(call.statusCode).toBe(401);
			expect(call.executionStarted).toBe(false);
			const refusals = call.logs.filter((line) => line.level === 'warn');
			expect(refusals.map((line) => line.message)).toEqual([
				`Payment Gateway Trigger refused a callback (HTTP 401): the service record states status "${status}", which is none of pending, completed, cancelled`,
			]);
		},
	);
});
