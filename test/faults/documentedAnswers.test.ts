/**
 * Every money path against a service that answers what its interface document shows and no more.
 * The document shows no payout's shape: in the sandbox's `documented` mode a payout's answer and
 * its look-up state reference_no, amount, channel, status and the time made, nothing about the
 * recipient; `documented-untimed` leaves the time out too; `full` repeats the request's fields as
 * the sandbox does by default. A payout the service accepted is never reported as failed, nor
 * called "different", for a fact its answers leave out: the item lists it as `unconfirmed`.
 * A fact a record states otherwise is still a conflict.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Disbursement } from '../../nodes/Disbursement/Disbursement.node';
import type { PayoutAnswers } from '../../sandbox';
import {
	bankRow,
	bankTransferParameters,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../harness/disbursementRuns';
import { reconcileSummary } from '../harness/moneyOperations';
import { call as callSandbox, disbursementToken, walletPayoutBody } from '../harness/sandboxCalls';
import { PAYOUT_PROCESS, PAYOUT_PROCESS_KEY } from '../harness/servicePaths';
import { askTool } from '../harness/toolRuns';
import {
	LOOKUP_PAYOUTS,
	serviceCallback,
	setUpPerFile as triggerSetUpPerFile,
	trigger,
} from '../harness/triggerRuns';

const MODES: PayoutAnswers[] = ['full', 'documented', 'documented-untimed'];
const HOUR_MS = 3_600_000;

/** What a payout's answers leave out in each mode, for each kind of recipient. */
const UNSTATED: Record<PayoutAnswers, { eWallet?: string[]; bankTransfer?: string[] }> = {
	full: {},
	documented: { eWallet: ['mobile number'], bankTransfer: ['bank code', 'account number'] },
	'documented-untimed': {
		eWallet: ['mobile number'],
		bankTransfer: ['bank code', 'account number'],
	},
};

/** The item's `unconfirmed`, as the mode makes it: absent when every fact is stated. */
const unconfirmedIn = (mode: PayoutAnswers, kind: 'eWallet' | 'bankTransfer') =>
	UNSTATED[mode][kind] ? { unconfirmed: UNSTATED[mode][kind] } : {};

const walletRow = (ref: string, extra: IDataObject = {}) => ({
	ref,
	amount: 250,
	mobile: '09171234567',
	...extra,
});

/** Version 2's form with the same fields, set below rather than mapped automatically. */
const version2 = (parameters: INodeParameters): INodeParameters => ({
	...parameters,
	runMode: 'pay',
	mappingMode: 'defineBelow',
});

const FORMS = [
	{
		form: 'e-wallet, version 1',
		kind: 'eWallet',
		typeVersion: 1,
		parameters: (extra: INodeParameters = {}) => eWalletParameters(extra),
		row: walletRow,
	},
	{
		form: 'e-wallet, version 2',
		kind: 'eWallet',
		typeVersion: 2,
		parameters: (extra: INodeParameters = {}) => version2(eWalletParameters(extra)),
		row: walletRow,
	},
	{
		form: 'bank transfer, version 1',
		kind: 'bankTransfer',
		typeVersion: 1,
		parameters: (extra: INodeParameters = {}) => bankTransferParameters(extra),
		row: bankRow,
	},
	{
		form: 'bank transfer, version 2',
		kind: 'bankTransfer',
		typeVersion: 2,
		parameters: (extra: INodeParameters = {}) => version2(bankTransferParameters(extra)),
		row: bankRow,
	},
] as const;

describe.each(MODES)('payout answers "%s"', (mode) => {
	const s = gatewayPerSuite(async () => await setUp({ payoutAnswers: mode }), {
		beforeEach: freshStart,
	});
	let counter = 0;
	const ref = (label: string) => `DOC-${mode.length}-${label}-${++counter}`;
	const sent = () => s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0;
	const creations = (reference: string) => s.gw.stats().creationsByReference[reference] ?? 0;

	test('the sandbox states what the mode says, in the answer and the look-up', async () => {
		const reference = ref('SHAPE');
		const token = await disbursementToken(s.gw);
		const created = await callSandbox(s.gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: walletPayoutBody(reference),
		});
		const looked = await callSandbox(
			s.gw,
			'GET',
			`/v1/api/disbursement/transactions?reference_no=${reference}`,
			{ token },
		);
		const keys = {
			full: expect.arrayContaining(['reference_no', 'amount', 'channel', 'status', 'fields']),
			documented: ['amount', 'channel', 'created_at', 'reference_no', 'status'],
			'documented-untimed': ['amount', 'channel', 'reference_no', 'status'],
		}[mode];
		expect(Object.keys(created.body.data as IDataObject).sort()).toEqual(keys);
		expect(Object.keys(looked.body.data.transactions[0] as IDataObject).sort()).toEqual(keys);
	});

	describe.each(FORMS)('Create, $form', ({ kind, typeVersion, parameters, row }) => {
		const create = async (items: IDataObject[], extra: INodeParameters = {}) =>
			await run(s, parameters(extra), { items, typeVersion, onError: 'continueRegularOutput' });

		test("a fresh payout succeeds as this item's own, listing what the answer leaves out", async () => {
			const reference = ref('FRESH');
			const [item] = jsonOf(await create([row(reference)]));
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject({ reference_no: reference, replayed: false });
			expect(item.unconfirmed).toEqual(unconfirmedIn(mode, kind).unconfirmed);
			expect(item.recoveredAfter).toBeUndefined();
			expect(creations(reference)).toBe(1);
		});

		test('a re-run of the same row is a replay, never "different", and pays nothing', async () => {
			const reference = ref('RERUN');
			expect(jsonOf(await create([row(reference)]))[0].error).toBeUndefined();
			const [again] = jsonOf(await create([row(reference)]));
			expect(again.error).toBeUndefined();
			expect(again).toMatchObject({
				reference_no: reference,
				replayed: true,
				...unconfirmedIn(mode, kind),
			});
			expect(creations(reference)).toBe(1);
		});

		test.each([
			['the connection dropped after the payout was made', { mode: 'drop-after' }, {}],
			['a 503 after the payout was made', { mode: 'error-after', status: 503 }, {}],
			[
				'no answer within the Timeout',
				{ mode: 'timeout-after', holdMs: 5000 },
				{ timeoutSeconds: 1 },
			],
		] as const)("%s: the look-up recovers it as the item's own", async (_case, fault, options) => {
			const reference = ref('LOST');
			s.gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, times: 1, ...fault });
			const [item] = jsonOf(await create([row(reference)], { options }));
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject({
				reference_no: reference,
				replayed: false,
				recoveredAfter: expect.any(String),
				...unconfirmedIn(mode, kind),
			});
			expect(creations(reference)).toBe(1);
		});

		test('the same reference_no for another amount is a conflict naming both amounts', async () => {
			const reference = ref('AMOUNT');
			expect(jsonOf(await create([row(reference)]))[0].error).toBeUndefined();
			const [other] = jsonOf(await create([row(reference, { amount: 999 })]));
			expect(String(other.error)).toMatch(
				new RegExp(
					`reference_no "${reference}" is already used for a different payout: the existing payout is for [0-9.]+, this item asks for 999`,
				),
			);
			expect(creations(reference)).toBe(1);
		});
	});

	test('an idempotent service answering 200 with the earlier payout: nothing paid twice', async () => {
		const reference = ref('IDEMPOTENT');
		const first = await run(s, eWalletParameters(), { items: [walletRow(reference)] });
		expect(first.error).toBeUndefined();
		s.gw.backdate(reference, Date.now() - HOUR_MS);
		s.gw.answerReusedReferences('existing');
		try {
			const again = await run(s, eWalletParameters(), { items: [walletRow(reference)] });
			expect(again.error).toBeUndefined();
			// Without a stated time, an earlier record answered as a success cannot be told from this
			// item's own (docs/endpoints.md): it is reported as made now, and still paid once.
			expect(jsonOf(again)[0]).toMatchObject({
				replayed: mode !== 'documented-untimed',
				...unconfirmedIn(mode, 'eWallet'),
			});
			expect(creations(reference)).toBe(1);
		} finally {
			s.gw.answerReusedReferences('taken');
		}
	});

	test('a record that states another recipient is still a conflict, naming both', async () => {
		const reference = ref('OTHER');
		expect(
			(await run(s, eWalletParameters(), { items: [walletRow(reference)] })).error,
		).toBeUndefined();
		const record = { ...(s.gw.getPayout(reference) as IDataObject) };
		s.gw.faults.add({
			method: 'GET',
			path: '/v1/api/disbursement/transactions',
			mode: 'error-before',
			status: 200,
			body: {
				message: '',
				data: { transactions: [{ ...record, fields: { mobile_number: '09181234567' } }] },
			},
			times: 1,
		});
		const again = await run(s, eWalletParameters(), { items: [walletRow(reference)] });
		expect(again.error?.message).toMatch(
			`reference_no "${reference}" is already used for a different payout: the existing payout pays mobile number 09181234567, this item asks for 09171234567`,
		);
		expect(creations(reference)).toBe(1);
	});

	test('Prepare and Confirm: the confirmed payout lists what the answer leaves out; confirming again replays', async () => {
		const reference = ref('CONFIRM');
		const prepared = await run(s, bankTransferParameters({ operation: 'prepare' }), {
			items: [bankRow(reference)],
		});
		expect(prepared.error).toBeUndefined();
		const token = jsonOf(prepared)[0].approvalToken as string;
		const confirm = async () =>
			await run(
				s,
				{ resource: 'payout', operation: 'confirm', approvalToken: '={{ $json.token }}' },
				{ items: [{ token }] },
			);
		const paid = await confirm();
		expect(paid.error).toBeUndefined();
		expect(jsonOf(paid)[0]).toMatchObject({
			reference_no: reference,
			replayed: false,
			...unconfirmedIn(mode, 'bankTransfer'),
		});
		const again = await confirm();
		expect(jsonOf(again)[0]).toMatchObject({ replayed: true });
		expect(creations(reference)).toBe(1);
	});

	test('as a tool: Create pays, lists what the answer leaves out, and a second call replays', async () => {
		const reference = ref('TOOL');
		const parameters: INodeParameters = {
			...version2(eWalletParameters()),
			channel: 'GCASH',
			amount: 250,
			referenceNo: reference,
			mobileNumber: '09171234567',
			callbackWebhookUrl: '',
			options: { maxAmountPerPayout: 1000 },
		};
		const paid = await askTool(s.store, new Disbursement(), parameters);
		expect(paid).toMatchObject({
			reference_no: reference,
			replayed: false,
			...unconfirmedIn(mode, 'eWallet'),
		});
		expect(paid.error).toBeUndefined();
		const again = await askTool(s.store, new Disbursement(), parameters);
		expect(again).toMatchObject({ reference_no: reference, replayed: true });
		expect(creations(reference)).toBe(1);
	});

	test('Wait for Final Status reads the final status of a payout stated as the mode states it', async () => {
		const reference = ref('WAIT');
		expect(
			(await run(s, eWalletParameters(), { items: [walletRow(reference)] })).error,
		).toBeUndefined();
		await s.gw.settle(reference, 'completed');
		const waited = await run(s, {
			resource: 'payout',
			operation: 'waitForFinalStatus',
			referenceNo: reference,
			options: { firstPollSeconds: 0.1, maxPollSeconds: 0.2 },
		});
		expect(waited.error).toBeUndefined();
		expect(jsonOf(waited)[0]).toMatchObject({
			reference_no: reference,
			status: 'completed',
			finalStatus: true,
		});
	});

	test('Reconcile: a fact the record leaves out is unconfirmed, a stated one that differs a mismatch', async () => {
		const paid = ref('REC');
		const other = ref('REC');
		const paidRows = [walletRow(paid), walletRow(other, { amount: 300 })];
		expect((await run(s, eWalletParameters(), { items: paidRows })).error).toBeUndefined();
		const result = await run(
			s,
			{ resource: 'payout', operation: 'reconcile', mappingMode: 'autoMapInputData' },
			{
				items: [
					{ reference_no: paid, amount: 250, channel: 'GCASH', mobileNumber: '09171234567' },
					{ reference_no: other, amount: 301, channel: 'GCASH', mobileNumber: '09171234567' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const [first, second, summary] = jsonOf(result);
		const unconfirmed = UNSTATED[mode].eWallet ?? [];
		expect(first).toMatchObject({ status: 'pending', mismatches: [], unconfirmed });
		// In words: a fact the record leaves out is named, never called a match or a mismatch.
		expect(first.check).toBe(
			unconfirmed.length > 0
				? `matches; not stated by the service: ${unconfirmed.join(', ')}`
				: 'matches',
		);
		expect(second).toMatchObject({
			mismatches: [{ fact: 'amount', expected: '301', recorded: '300' }],
			unconfirmed,
		});
		expect(summary).toEqual(
			reconcileSummary(
				2,
				{ pending: [2, 550] },
				{ mismatched: 1, unconfirmed: unconfirmed.length > 0 ? 2 : 0 },
			),
		);
	});

	test('Check Only sends nothing and reads no record', async () => {
		const checked = await run(
			s,
			{ ...version2(eWalletParameters()), runMode: 'dryRun' },
			{ items: [walletRow(ref('CHECK'))], typeVersion: 2 },
		);
		expect(checked.error).toBeUndefined();
		expect(jsonOf(checked)[0]).toMatchObject({ dryRun: true });
		expect(sent()).toBe(0);
	});
});

describe.each(MODES)('the trigger\'s Confirm With Service, payout answers "%s"', (mode) => {
	const s = triggerSetUpPerFile();
	let counter = 0;

	async function settledPayout(reference: string): Promise<void> {
		s.gw.answerPayouts(mode);
		const token = await disbursementToken(s.gw);
		const res = await callSandbox(s.gw, 'POST', PAYOUT_PROCESS, {
			token,
			body: walletPayoutBody(reference),
		});
		expect(res.status).toBe(200);
		await s.gw.settle(reference, 'completed');
	}

	test('a callback stating the recipient the record leaves out starts the workflow with it unconfirmed, taken from neither', async () => {
		const reference = `DOC-TRG-${mode.length}-${++counter}`;
		await settledPayout(reference);
		const h = await trigger(s, { interface: 'disbursement', confirmWithService: true });
		const before = s.gw.stats().requestsByPath[LOOKUP_PAYOUTS] ?? 0;
		const call = await h.post(serviceCallback(s.gw, reference, 250, 'completed'));
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
		const item = call.result!.workflowData![0][0].json;
		expect(item).toMatchObject({
			reference_no: reference,
			status: 'completed',
			statusConfirmed: true,
			amount: 250,
			channel: 'GCASH',
		});
		// A documented record states neither the recipient nor a total: both are the callback's word only.
		expect(item.unconfirmed).toEqual(
			mode === 'full' ? undefined : ['mobile number', 'total_amount'],
		);
		// What the item calls the transaction is the service's record, never the callback's copy.
		expect((item.transaction as IDataObject).fields).toEqual(
			mode === 'full' ? { mobile_number: '09171234567' } : undefined,
		);
		expect(s.gw.stats().requestsByPath[LOOKUP_PAYOUTS]).toBe(before + 1);
	});

	test('a callback whose recipient differs from the one the record states is still refused', async () => {
		const reference = `DOC-TRG-DIFF-${mode.length}-${++counter}`;
		await settledPayout(reference);
		const h = await trigger(s, { interface: 'disbursement', confirmWithService: true });
		const body = serviceCallback(s.gw, reference, 250, 'completed');
		(body.data.transaction as IDataObject).fields = { mobile_number: '09181234567' };
		const call = await h.post(body);
		if (mode === 'full') {
			expect(call.statusCode).toBe(401);
			expect(call.executionStarted).toBe(false);
		} else {
			// The record states no recipient (nor a total): the callback's are not taken, only listed.
			expect(call.statusCode).toBe(200);
			expect(call.result!.workflowData![0][0].json.unconfirmed).toEqual([
				'mobile number',
				'total_amount',
			]);
		}
	});
});
