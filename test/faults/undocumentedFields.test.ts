/**
 * Every read of a field the interface document does not show (docs/endpoints.md, Fields read
 * beyond the document), with that field absent, null or of another type, served by the sandbox
 * gateway over real HTTP through n8n's engine: each path gives a clear message or a degraded
 * answer, never a crash, a false failure or a false success.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { loadOptions } from '../harness';
import * as collection from '../harness/collectionRuns';
import {
	NODE_TYPE,
	bankRow,
	bankTransferParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	loadBanks,
	run,
	setUp,
	type Setup,
} from '../harness/disbursementRuns';
import { PAYOUT_PROCESS_KEY } from '../harness/servicePaths';
import { callbackBody, trigger, setUpPerFile } from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

const BANKS = '/v1/api/banks';
const WALLETS = '/v1/api/wallets';
const WALLET_TRANSACTIONS = '/v1/api/wallets/transactions';
const PAYOUT_CHANNELS = '/v1/api/disbursement/channels';
const PAYOUT_LOOKUP = '/v1/api/disbursement/transactions';
const COLLECTION_CHANNELS = '/v1/biller/channels';
const COLLECTION_LOOKUP = '/v1/biller/transactions';

/** The service answers `body` (HTTP 200) to the next matching request, `times` times. */
function answers(
	gw: Setup['gw'],
	method: string,
	path: string,
	body: unknown,
	{ times = 1, referenceNo }: { times?: number; referenceNo?: string } = {},
) {
	gw.faults.add({ method, path, referenceNo, mode: 'error-before', status: 200, body, times });
}

let counter = 0;
const ref = (prefix: string) => `UF-${prefix}-${++counter}`;

describe('Disbursement', () => {
	const s = gatewayPerSuite(setUp, { beforeEach: freshStart });
	const list = (resource: string, operation: string, extra: INodeParameters = {}) =>
		run(
			s,
			{ resource, operation, returnAll: true, ...extra },
			{ onError: 'continueRegularOutput' },
		);

	describe('lists: only the list itself is read, each entry passed on as it is', () => {
		test.each([
			['wallet', 'getMany', WALLETS, 'wallets'],
			['wallet', 'getTransactions', WALLET_TRANSACTIONS, 'transactions'],
			['bank', 'getMany', BANKS, 'banks'],
		])(
			'%s > %s: an answer without its list fails the item and says so',
			async (resource, operation, path, key) => {
				answers(s.gw, 'GET', path, { message: 'OK', data: { items: [{ id: 1 }] } });
				const result = await list(resource, operation);
				expect(jsonOf(result)).toHaveLength(1);
				expect(jsonOf(result)[0]).toMatchObject({
					error: `The service's answer holds no "${key}" list: check the Endpoint Path option (row 1)`,
				});
			},
		);

		test.each([
			['wallet', 'getMany', WALLETS, 'wallets'],
			['wallet', 'getTransactions', WALLET_TRANSACTIONS, 'transactions'],
			['bank', 'getMany', BANKS, 'banks'],
		])(
			'%s > %s: entries without the usual fields, or not objects, come out as they are',
			async (resource, operation, path, key) => {
				answers(s.gw, 'GET', path, { data: { [key]: [{ id: 'X-1' }, {}, 'X-2', null] } });
				const result = await list(resource, operation);
				expect(jsonOf(result)).toEqual([{ id: 'X-1' }, {}, { value: 'X-2' }, { value: null }]);
			},
		);
	});

	describe('the bank dropdown and the bank names of Prepare', () => {
		test('a bank without a name is listed by its code, one without a text code left out', async () => {
			answers(s.gw, 'GET', BANKS, {
				data: {
					banks: [
						{ code: 'BPI', name: 'Bank of the Philippine Islands' },
						{ code: 'BDO', name: null },
						{ code: ' MBTC ' },
						{ code: 42, name: 'A numeric code' },
						{ name: 'No code' },
					],
				},
			});
			expect(await loadBanks(s)).toEqual([
				{ name: 'Bank of the Philippine Islands', value: 'BPI', description: 'Bank code BPI' },
				{
					name: 'BDO',
					value: 'BDO',
					description: 'Bank code BDO (the service does not name it)',
				},
				{
					name: 'MBTC',
					value: 'MBTC',
					description: 'Bank code MBTC (the service does not name it)',
				},
			]);
		});

		test.each([
			['entries named otherwise', { banks: [{ bank_code: 'BDO', bank_name: 'BDO Unibank' }] }],
			['an empty list', { banks: [] }],
		])('%s: a message, not an empty dropdown', async (_name, data) => {
			answers(s.gw, 'GET', BANKS, { data });
			await expect(loadBanks(s)).rejects.toThrow(
				'The bank list answer holds no bank with a code: type the bank code, or map it with an expression',
			);
		});

		test('no list at all: the message says so', async () => {
			answers(s.gw, 'GET', BANKS, { data: null });
			await expect(loadBanks(s)).rejects.toThrow(
				'The bank list answer holds no "banks" list: type the bank code, or map it with an expression',
			);
		});

		test.each([
			['holds no list', { message: 'OK' }],
			['names the bank without a name', { data: { banks: [{ code: 'BDO' }] } }],
			['names no such bank', { data: { banks: [{ code: 'BPI', name: 'BPI' }] } }],
		])(
			'Prepare, when the bank list %s: the summary shows the bank code alone',
			async (_name, body) => {
				answers(s.gw, 'GET', BANKS, body);
				const reference = ref('PREP');
				const result = await run(s, bankTransferParameters({ operation: 'prepare' }), {
					items: [bankRow(reference)],
				});
				expect(result.error).toBeUndefined();
				const [out] = jsonOf(result);
				expect(out.summary).toBe(
					`Pay PHP 1,500.00 to account number 001234567890 at bank code BDO, over INSTAPAY, reference ${reference} (Sandbox). Account name as given: "Juan Dela Cruz"`,
				);
				expect((out.recipient as IDataObject).bankName).toBeUndefined();
				expect(s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY]).toBeUndefined();
			},
		);
	});

	describe('the payout channel list', () => {
		const loadChannels = async (channelType = 'bankTransfer') =>
			await loadOptions({
				type: NODE_TYPE,
				method: 'getPayoutChannels',
				store: s.store,
				parameters: { resource: 'payout', operation: 'create', channelType },
				path: 'parameters.channel',
			});

		test('entries without a code: the dropdown says the list holds none it can offer', async () => {
			answers(s.gw, 'GET', PAYOUT_CHANNELS, {
				data: { channels: [{ channel_code: 'INSTAPAY', name: 'InstaPay' }] },
			});
			await expect(loadChannels()).rejects.toThrow(
				'The payout channel list answer holds no channel with a code: enter the code with an expression',
			);
		});

		test('entries without a name or a type: named by their code, offered for either type', async () => {
			answers(
				s.gw,
				'GET',
				PAYOUT_CHANNELS,
				{ data: [{ code: 'INSTAPAY' }, { code: 'GCASH' }] },
				{ times: 2 },
			);
			const expected = [
				{
					name: 'GCASH',
					value: 'GCASH',
					description: 'Channel GCASH (the service does not say its type)',
				},
				{
					name: 'INSTAPAY',
					value: 'INSTAPAY',
					description: 'Channel INSTAPAY (the service does not say its type)',
				},
			];
			expect(await loadChannels('bankTransfer')).toEqual(expected);
			expect(await loadChannels('eWallet')).toEqual(expected);
		});

		test.each([
			['entries without a code', { data: { channels: [{ channel_code: 'INSTAPAY' }] } }],
			['an empty list', { data: { channels: [] } }],
		])(
			"a refused payout, the list holding %s: the service's own refusal stands",
			async (_name, body) => {
				answers(s.gw, 'GET', PAYOUT_CHANNELS, body);
				const result = await run(s, bankTransferParameters(), {
					items: [bankRow(ref('REFUSED'), { channel: 'NOPE' })],
				});
				expect(result.error?.message).toBe(
					'The service rejected the request: channel: The selected channel is invalid. (row 1)',
				);
				expect(s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY]).toBe(1);
			},
		);
	});

	describe('answers without data', () => {
		test('Authorization > Get: the code and the message, data null', async () => {
			answers(s.gw, 'POST', '/v1/api/authorization/AUTH-UF-1', { message: 'Found' });
			const result = await run(s, {
				resource: 'authorization',
				operation: 'get',
				code: 'AUTH-UF-1',
			});
			expect(jsonOf(result)).toEqual([{ code: 'AUTH-UF-1', data: null, message: 'Found' }]);
		});

		test('Payout > Repost Callback: the reference and the message', async () => {
			answers(s.gw, 'POST', '/v1/api/disbursement/transactions/repost', { message: 'Queued' });
			const result = await run(s, {
				resource: 'payout',
				operation: 'repost',
				referenceNo: 'UF-REPOST-1',
			});
			expect(jsonOf(result)).toEqual([{ reference_no: 'UF-REPOST-1', message: 'Queued' }]);
		});
	});

	describe("a record's status", () => {
		const record = (referenceNo: string, status?: unknown) => ({
			data: {
				transactions: [
					{
						reference_no: referenceNo,
						amount: 10,
						channel: 'GCASH',
						...(status === undefined ? {} : { status }),
					},
				],
			},
		});
		const wait = async (referenceNo: string) =>
			await run(s, {
				resource: 'payout',
				operation: 'waitForFinalStatus',
				referenceNo,
				timeLimitMinutes: 0.01,
				options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
			});

		test.each([
			['absent', undefined, "The service's record states no readable status"],
			['null', null, "The service's record states no readable status"],
			['a number', 2, "The service's record states no readable status"],
			[
				'one the document does not list',
				'failed',
				`The service's record states status "failed", which is none of pending, completed, cancelled`,
			],
		])(
			'Wait for Final Status, the status %s: not final, and the message says what the record states',
			async (_name, status, said) => {
				const reference = ref('WAIT');
				answers(s.gw, 'GET', PAYOUT_LOOKUP, record(reference, status), { times: 1000 });
				const result = await wait(reference);
				expect(result.error).toBeUndefined();
				expect(jsonOf(result)[0]).toMatchObject({
					reference_no: reference,
					finalStatus: false,
					message: `${said} (looked up for 0.01 minutes): whether it is final cannot be told from it; check it in the service's dashboard`,
				});
			},
		);

		test('Reconcile: no status is "unknown"; "COMPLETED" is named as sent, counted as unknown', async () => {
			answers(s.gw, 'GET', PAYOUT_LOOKUP, record('UF-REC-1'), { referenceNo: 'UF-REC-1' });
			answers(s.gw, 'GET', PAYOUT_LOOKUP, record('UF-REC-2', 'COMPLETED'), {
				referenceNo: 'UF-REC-2',
			});
			const result = await run(
				s,
				{ resource: 'payout', operation: 'reconcile', mappingMode: 'autoMapInputData' },
				{
					items: [
						{ reference_no: 'UF-REC-1', amount: 10 },
						{ reference_no: 'UF-REC-2', amount: 10 },
					],
				},
			);
			expect(result.error).toBeUndefined();
			const [first, second, summary] = jsonOf(result);
			expect(first).toMatchObject({ status: 'unknown', recordedAmount: 10, mismatches: [] });
			expect(second).toMatchObject({ status: 'COMPLETED', recordedAmount: 10, mismatches: [] });
			expect(summary.byStatus).toMatchObject({
				completed: { rows: 0, amount: 0 },
				unknown: { rows: 2, amount: 20 },
			});
		});
	});
});

describe('Payment Collection', () => {
	const s = collection.gatewayPerSuite(async () => await collection.setUp(), {
		beforeEach: freshStart,
	});

	test('the channel dropdown, entries without a code: a message, not an empty dropdown', async () => {
		answers(s.gw, 'GET', COLLECTION_CHANNELS, { data: [{ channel_code: 'GCASH', name: 'GCash' }] });
		await expect(
			loadOptions({ type: collection.NODE_TYPE, method: 'getChannels', store: s.store }),
		).rejects.toThrow(
			'The channel list answer holds no channel with a code: enter the channel code with an expression',
		);
	});

	test('entries with a code only: named by it, enabled, in no category', async () => {
		answers(
			s.gw,
			'GET',
			COLLECTION_CHANNELS,
			{ data: [{ code: 'GCASH', category: 'e-wallet' }] },
			{ times: 3 },
		);
		expect(
			await loadOptions({ type: collection.NODE_TYPE, method: 'getChannels', store: s.store }),
		).toEqual([{ name: 'GCASH', value: 'GCASH', description: 'GCASH' }]);
		expect(
			await loadOptions({
				type: collection.NODE_TYPE,
				method: 'getChannelCategories',
				store: s.store,
			}),
		).toEqual([]);
		const listed = await collection.run(s, {
			resource: 'channel',
			operation: 'getMany',
			returnAll: true,
			filters: { enabledOnly: true },
		});
		expect(jsonOf(listed)).toEqual([{ code: 'GCASH', category: 'e-wallet' }]);
	});

	test('Wait for Final Status, a transaction without a status: not final, and said so', async () => {
		answers(
			s.gw,
			'GET',
			COLLECTION_LOOKUP,
			{ data: { transactions: [{ reference_no: 'UF-TX-1', subtotal_amount: 10 }] } },
			{ times: 1000 },
		);
		const result = await collection.run(s, {
			resource: 'transaction',
			operation: 'waitForFinalStatus',
			referenceNo: 'UF-TX-1',
			timeLimitMinutes: 0.01,
			options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
		});
		expect(jsonOf(result)[0]).toMatchObject({
			reference_no: 'UF-TX-1',
			finalStatus: false,
			message:
				"The service's record states no readable status (looked up for 0.01 minutes): whether it is final cannot be told from it; check it in the service's dashboard",
		});
	});
});

describe('callback bodies', () => {
	const s = setUpPerFile();
	beforeEach(() => {
		s.gw.faults.clear();
	});

	const itemOf = (call: WebhookCall) => {
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
		return call.result!.workflowData![0][0].json;
	};

	test('without total_amount and without the transaction copy: both null, the signed facts kept', async () => {
		const h = await trigger(s);
		const body = callbackBody('UF-CB-1', 100, 'completed');
		delete body.data.total_amount;
		delete body.data.transaction;
		expect(itemOf(await h.post(body))).toMatchObject({
			interface: 'collection',
			reference_no: 'UF-CB-1',
			status: 'completed',
			statusConfirmed: false,
			amount: 100,
			total_amount: null,
			channel: null,
			transaction: null,
			verified: { signature: true },
		});
	});

	test('total_amount and the copy of another type: read as not stated', async () => {
		const h = await trigger(s);
		const body = callbackBody('UF-CB-2', 100, 'completed');
		body.data.total_amount = 'one hundred and ten';
		body.data.transaction = 'UF-CB-2';
		expect(itemOf(await h.post(body))).toMatchObject({
			total_amount: null,
			transaction: null,
			channel: null,
		});
	});

	test.each([
		['absent', undefined, 'status "" is not one of pending, completed, cancelled'],
		['null', null, 'status "" is not one of pending, completed, cancelled'],
		['a number', 1, 'status "1" is not one of pending, completed, cancelled'],
	])('status %s: 400 naming it, no execution', async (_name, status, reason) => {
		const h = await trigger(s);
		const body = callbackBody('UF-CB-3', 100, 'completed');
		if (status === undefined) delete body.data.status;
		else body.data.status = status;
		const call = await h.post(body);
		expect(call.statusCode).toBe(400);
		expect(call.body).toEqual({ message: `Bad request: ${reason}` });
		expect(call.executionStarted).toBe(false);
	});

	test("Confirm With Service, a record without total_amount: the callback's is not passed on, and listed as unconfirmed", async () => {
		const h = await trigger(s, { confirmWithService: true });
		answers(s.gw, 'GET', COLLECTION_LOOKUP, {
			data: {
				transactions: [
					{
						reference_no: 'UF-CB-4',
						subtotal_amount: 100,
						status: 'completed',
						channel: { code: 'GCASH_TRN' },
					},
				],
			},
		});
		const item = itemOf(await h.post(callbackBody('UF-CB-4', 100, 'completed')));
		expect(item).toMatchObject({
			reference_no: 'UF-CB-4',
			status: 'completed',
			statusConfirmed: true,
			amount: 100,
			total_amount: null,
			channel: 'GCASH_TRN',
		});
		expect(item.unconfirmed).toEqual(['total_amount']);
	});
});
