/**
 * "Reconcile" (nodes/shared/operations/reconcile.ts): a row checked against its record with one
 * look-up and nothing else sent. A fact the row gives must be valid ("abc" as an amount is an
 * error, not "nothing to compare"); a fact left empty is not compared.
 */

import { reconcileOperation } from '../../../nodes/shared/operations/reconcile';
import type { ReconcilePlan } from '../../../nodes/shared/runner/operation';
import { startRun } from '../../../nodes/shared/runner/runContext';
import { parseReferenceNo } from '../../../nodes/shared/validation/validation';
import {
	handMadeContext,
	type HandMadeContextSpec,
	nodeErrorOf,
} from '../../harness/handMadeContext';

const payouts = reconcileOperation({
	show: { resource: ['payout'], operation: ['reconcile'] },
	kind: 'payout',
	placeholder: 'PAYOUT-0001',
	parseReference: parseReferenceNo,
	channelParam: 'channelCode',
});
const transactions = reconcileOperation({
	show: { resource: ['transaction'], operation: ['reconcile'] },
	kind: 'transaction',
	placeholder: 'INV-0001',
	parseReference: parseReferenceNo,
	channelParam: 'channel',
});
const prepare = (operation: typeof payouts, spec: HandMadeContextSpec, itemIndex = 0) =>
	operation.prepare(startRun(handMadeContext(spec).ctx), itemIndex) as ReconcilePlan;

describe('reconcileOperation', () => {
	test('only the reference given: a look-up that compares nothing else', () => {
		expect(prepare(payouts, { parameters: { referenceNo: 'PAYOUT-0001' } })).toEqual({
			reconcile: {
				kind: 'payout',
				referenceNo: 'PAYOUT-0001',
				timeoutMs: 30000,
				expect: { amount: undefined, channel: undefined, recipient: undefined },
			},
		});
	});

	test('the facts a row gives, in the forms the record is compared in', () => {
		const plan = prepare(payouts, {
			parameters: {
				referenceNo: 'PAYOUT-0001',
				amount: '1,250.50',
				channelCode: 'INSTAPAY',
				bankCode: ' bdo ',
				receiverAccountNumber: '0012-3456-7890',
				mobileNumber: '  ',
				options: { timeoutSeconds: 9 },
			},
		});
		expect(plan.reconcile).toMatchObject({
			timeoutMs: 9000,
			expect: { amount: 1250.5, channel: 'INSTAPAY' },
		});
		expect(plan.reconcile.expect.recipient).toEqual({
			'mobile number': undefined,
			'bank code': 'BDO',
			'account number': '001234567890',
		});
	});

	test('a transaction has no recipient, whatever is stored', () => {
		const plan = prepare(transactions, {
			parameters: { referenceNo: 'INV-0001', channel: 'GCASH', mobileNumber: '09171234567' },
		});
		expect(plan.reconcile.expect).toEqual({
			amount: undefined,
			channel: 'GCASH',
			recipient: undefined,
		});
	});

	test('every fact that cannot be read is reported at once; nothing is looked up', () => {
		const error = nodeErrorOf(() =>
			prepare(payouts, {
				parameters: { referenceNo: '', amount: 'abc', mobileNumber: '12345' },
			}),
		);
		expect(error.message).toMatch(/^3 fields to fix: /);
		expect(error.message).toMatch(/Mobile Number/);
	});

	test('with automatic mapping the row is read from its own columns', () => {
		const plan = prepare(
			payouts,
			{
				parameters: { mappingMode: 'autoMapInputData', referenceNo: 'NOT-USED' },
				items: [{}, { 'Reference No': 'PAYOUT-0002', amount: 99, channel_code: 'GCASH' }],
			},
			1,
		);
		expect(plan.reconcile).toMatchObject({
			referenceNo: 'PAYOUT-0002',
			expect: { amount: 99, channel: 'GCASH' },
		});
	});

	test('with automatic mapping a row without the reference_no column fails', () => {
		const error = nodeErrorOf(() =>
			prepare(payouts, {
				parameters: { mappingMode: 'autoMapInputData' },
				items: [{ amount: 99 }],
			}),
		);
		expect(error.message).toBe(
			'Column "reference_no" (Reference No) missing: the item has columns "amount"',
		);
	});

	test('a summary follows the rows', () => {
		expect(payouts.summarize).toBeDefined();
		expect(transactions.summarize).toBe(payouts.summarize);
	});
});
