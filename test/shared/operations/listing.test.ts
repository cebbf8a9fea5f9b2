/**
 * The list operations (nodes/shared/operations/listing.ts): one request for the list, an optional
 * status filter, and Return All or Limit applied to the answer.
 */
import type { IDataObject } from 'n8n-workflow';

import { listOperation, readResultLimit } from '../../../nodes/shared/operations/listing';
import type { SendPlan } from '../../../nodes/shared/runner/operation';
import { startRun } from '../../../nodes/shared/runner/runContext';
import { handMadeContext } from '../../harness/handMadeContext';

const wallets = listOperation({
	show: { resource: ['wallet'], operation: ['getMany'] },
	endpoint: 'getWallets',
	key: 'wallets',
	statusFilterFor: 'wallet',
});
const banks = listOperation({
	show: { resource: ['bank'], operation: ['getMany'] },
	endpoint: 'getBanks',
	key: 'banks',
});
const prepare = (operation = wallets, parameters: Record<string, unknown> = {}) =>
	operation.prepare(startRun(handMadeContext({ parameters: parameters }).ctx), 0) as SendPlan;

describe('readResultLimit', () => {
	const entries = Array.from({ length: 120 }, (_, index) => index);
	const keep = (parameters: Record<string, unknown>) =>
		readResultLimit(handMadeContext({ parameters: parameters }).ctx, 0)(entries).length;

	test.each([
		[{ returnAll: true, limit: 3 }, 120],
		[{}, 50],
		[{ limit: 3 }, 3],
		[{ limit: 2.7 }, 2],
		[{ limit: 500 }, 120],
		[{ limit: 0 }, 50],
		[{ limit: -4 }, 50],
		[{ limit: 'ten' }, 50],
		[{ limit: '7' }, 7],
	])('%j keeps %p of 120 entries', (parameters, kept) => {
		expect(keep(parameters)).toBe(kept);
	});
});

describe('listOperation', () => {
	test('one request for the list, with the Options', () => {
		expect(
			prepare(wallets, { options: { timeoutSeconds: 7, endpointPath: ' /v1/api/my-wallets ' } })
				.send,
		).toEqual({
			endpoint: 'getWallets',
			pathOverride: '/v1/api/my-wallets',
			query: undefined,
			timeoutMs: 7000,
		});
	});

	test.each([
		['all', undefined],
		['', undefined],
		['Pending', { status: 'pending' }],
		[' completed ', { status: 'completed' }],
		['cancelled', { status: 'cancelled' }],
	])('status %j is sent as %j', (status, query) => {
		expect(prepare(wallets, { status }).send.query).toEqual(query);
	});

	test('a status that is none of the statuses fails the item', () => {
		expect(() => prepare(wallets, { status: 'paid' })).toThrow(
			'Status "paid" is not one of all, pending, completed, cancelled',
		);
	});

	test('a list without a status filter sends none, whatever is stored', () => {
		expect(prepare(banks, { status: 'paid' }).send.query).toBeUndefined();
	});

	test('the answer: the named list, one object per entry, Limit applied', () => {
		const plan = prepare(wallets, { limit: 2 });
		const data = { wallets: [{ id: 1 }, 'plain', { id: 3 }] };
		expect(plan.output!({ message: 'ok', data })).toEqual([{ id: 1 }, { value: 'plain' }]);
		expect(prepare(wallets, { returnAll: true }).output!({ message: 'ok', data })).toEqual([
			{ id: 1 },
			{ value: 'plain' },
			{ id: 3 },
		] as IDataObject[]);
	});

	test('an answer without the list fails the item and names the Endpoint Path option', () => {
		const plan = prepare(wallets);
		expect(() => plan.output!({ message: 'ok', data: { banks: [] } })).toThrow(
			'The service\'s answer holds no "wallets" list: check the Endpoint Path option',
		);
	});
});
