/**
 * De-duplication on verified fields only, remembered in the workflow's static data so that it
 * survives a restart of n8n: through n8n's webhook path, with static data stored and reloaded
 * per request as n8n's live webhooks do.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	MAX_REMEMBERED_STORED,
	REMEMBER_FOR_MS,
	STORED_FIELD,
	deliveryKey,
	deliveryRecord,
} from '../../nodes/PaymentGatewayTrigger/helpers/duplicates';
import { call as callSandbox, collectionToken, txBody } from '../harness/sandboxCalls';
import {
	callbackBody,
	payoutTransaction,
	serviceCallback,
	trigger,
	setUpPerFile,
} from '../harness/triggerRuns';
import { TRIGGER_NAME, type TriggerHarness } from '../harness/webhookHarness';

const s = setUpPerFile();

function executions(...harnesses: TriggerHarness[]): number {
	return harnesses.flatMap((h) => h.calls).filter((call) => call.executionStarted).length;
}

function storedKeys(h: TriggerHarness): string[] {
	if (h.staticData.json === undefined) return [];
	const data = JSON.parse(h.staticData.json) as Record<
		string,
		Record<string, Record<string, number>>
	>;
	return Object.keys(data[`node:${TRIGGER_NAME}`]?.[STORED_FIELD] ?? {});
}

describe('keyed on verified fields only', () => {
	test('Both: the same callback re-sent with another shape, total and channel starts one execution', async () => {
		const h = await trigger(s, { interface: 'both' });
		const genuine = callbackBody('DK-1', 100, 'completed');
		// Same signed amount and reference; everything unsigned changed, the shape now says "payout".
		const reshaped = callbackBody('DK-1', 100, 'completed', {
			transaction: { ...payoutTransaction('DK-1', 100, 'completed'), total_amount: 1 },
		});
		expect((await h.post(genuine)).executionStarted).toBe(true);
		const again = await h.post(reshaped);
		expect(again.statusCode).toBe(200);
		expect(again.body).toEqual({ message: 'Duplicate ignored' });
		expect(executions(h)).toBe(1);
	});

	test('one interface: re-sent with changed unsigned fields starts one execution', async () => {
		const h = await trigger(s);
		expect((await h.post(callbackBody('DK-2', 100, 'completed'))).executionStarted).toBe(true);
		const changed = callbackBody('DK-2', 100, 'completed', { totalAmount: 99999 });
		const copy = changed.data.transaction as { channel: { code: string }; total_amount: number };
		copy.channel.code = 'ELSEWHERE';
		copy.total_amount = 99999;
		expect((await h.post(changed)).body).toEqual({ message: 'Duplicate ignored' });
		expect(executions(h)).toBe(1);
	});

	test('a tampered copy arriving first is refused and does not make the genuine one a duplicate', async () => {
		const token = await collectionToken(s.gw);
		await callSandbox(s.gw, 'POST', '/v1/biller/transactions/generate', {
			token,
			body: txBody('DK-3', { amount: 250 }),
		});
		await s.gw.settle('DK-3', 'completed');
		const h = await trigger(s, { confirmWithService: true });
		const tampered = serviceCallback(s.gw, 'DK-3', 250, 'completed');
		tampered.data.total_amount = 1;
		expect((await h.post(tampered)).statusCode).toBe(401);
		const forged = callbackBody('DK-3', 250, 'completed', { secret: 'forger-secret-42' });
		expect((await h.post(forged)).statusCode).toBe(401);
		expect(storedKeys(h)).toEqual([]);

		const genuine = await h.post(serviceCallback(s.gw, 'DK-3', 250, 'completed'));
		expect(genuine.statusCode).toBe(200);
		expect(genuine.executionStarted).toBe(true);
		expect(storedKeys(h)).toEqual([deliveryKey('collection', 'DK-3', 'completed')]);
	});
});

describe('survives a restart of n8n', () => {
	test('a repost after a restart starts no second execution', async () => {
		const before = await trigger(s, {}, { workflowId: 'restart-workflow-1' });
		const body = callbackBody('DR-1', 100, 'completed');
		expect((await before.post(body)).executionStarted).toBe(true);
		expect(storedKeys(before)).toHaveLength(1);

		// n8n restarted: the trigger's code is loaded anew, only the database (static data) remains.
		const after = await trigger(
			s,
			{},
			{ workflowId: 'restart-workflow-1', staticData: before.staticData, freshProcess: true },
		);
		const repost = await after.post(body);
		expect(repost.statusCode).toBe(200);
		expect(repost.body).toEqual({ message: 'Duplicate ignored' });
		expect(executions(before, after)).toBe(1);
		// Another callback still starts the workflow after the restart.
		expect((await after.post(callbackBody('DR-2', 100, 'completed'))).executionStarted).toBe(true);
		expect(storedKeys(after)).toHaveLength(2);
	});

	test('three callbacks, a restart, a repost of each: the record holds all three, no second execution', async () => {
		const before = await trigger(s, {}, { workflowId: 'restart-workflow-3' });
		const bodies = ['DR-5', 'DR-6', 'DR-7'].map((reference) =>
			callbackBody(reference, 100, 'completed'),
		);
		for (const body of bodies) {
			const delivery = await before.post(body);
			expect([delivery.statusCode, delivery.body, delivery.executionStarted]).toEqual([
				200,
				{ message: 'Workflow was started' },
				true,
			]);
		}
		expect(storedKeys(before)).toHaveLength(3);

		const after = await trigger(
			s,
			{},
			{ workflowId: 'restart-workflow-3', staticData: before.staticData, freshProcess: true },
		);
		for (const body of bodies)
			expect((await after.post(body)).body).toEqual({ message: 'Duplicate ignored' });
		expect(executions(before, after)).toBe(3);
	});

	test('requests that start nothing leave the stored record as it was', async () => {
		const h = await trigger(s);
		await h.post(callbackBody('DR-3', 100, 'pending'));
		await h.post(callbackBody('DR-4', 100, 'completed', { signature: 'ab'.repeat(32) }));
		expect(h.staticData.json).toBeUndefined();
	});
});

describe('the stored record is bounded', () => {
	const CAPACITY = 50;
	function record(staticData: IDataObject, clock: { now: number }, nodeKey: string) {
		return deliveryRecord(nodeKey, staticData, { now: () => clock.now, storedCapacity: CAPACITY });
	}

	test('at most a fixed number of keys (2,000 by default), the oldest dropped first', () => {
		expect(MAX_REMEMBERED_STORED).toBe(2000);
		const staticData: IDataObject = {};
		const clock = { now: 1_000_000 };
		const keys = record(staticData, clock, 'bounded-1');
		for (let i = 0; i <= CAPACITY; i++) {
			clock.now += 1000;
			expect(keys.claim(`key-${i}`)).toBe(true);
		}
		const stored = staticData[STORED_FIELD] as Record<string, number>;
		expect(Object.keys(stored)).toHaveLength(CAPACITY);
		expect(stored['key-0']).toBeUndefined();
		expect(stored[`key-${CAPACITY}`]).toBe(clock.now);
		// A new process (empty memory) reading the stored record still knows the kept keys.
		const restarted = record(staticData, clock, 'bounded-1-after-restart');
		expect(restarted.has('key-1')).toBe(true);
		expect(restarted.has('key-0')).toBe(false);
	});

	test(`keys older than ${REMEMBER_FOR_MS / 86_400_000} days are forgotten and not stored again`, () => {
		const staticData: IDataObject = {};
		const clock = { now: 5_000_000 };
		const keys = record(staticData, clock, 'window-1');
		expect(keys.claim('old')).toBe(true);
		expect(keys.claim('old')).toBe(false);
		clock.now += REMEMBER_FOR_MS;
		expect(keys.has('old')).toBe(false);
		expect(keys.claim('new')).toBe(true);
		expect(Object.keys(staticData[STORED_FIELD] as object)).toEqual(['new']);
		expect(keys.claim('old')).toBe(true);
	});

	test('an unreadable stored record counts as empty instead of failing every callback', () => {
		const staticData: IDataObject = { [STORED_FIELD]: { a: 'yesterday', b: null } };
		const keys = record(staticData, { now: 1 }, 'unreadable-1');
		expect(keys.has('a')).toBe(false);
		expect(keys.claim('a')).toBe(true);
		expect(staticData[STORED_FIELD]).toEqual({ a: 1 });
	});
});
