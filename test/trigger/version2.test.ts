/**
 * Node version 2 confirms each callback with the service unless the user switches it off; version 1
 * keeps its old default (off). The signature covers amount and reference_no only, so the attack is
 * one genuine signed callback, of a cancelled payment, sent again saying "completed".
 */
import type { IDataObject } from 'n8n-workflow';

import {
	LOOKUP_COLLECTION,
	paidTransaction,
	serviceCallback,
	trigger,
	setUpPerFile,
} from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

const s = setUpPerFile();

/** A cancelled payment's genuine callback, replayed with the status "completed". */
async function forgedCompletion(
	referenceNo: string,
): Promise<{ genuine: IDataObject; forged: IDataObject }> {
	await paidTransaction(s.gw, referenceNo, 640, 'cancelled');
	s.gw.resetStats();
	return {
		genuine: serviceCallback(s.gw, referenceNo, 640, 'cancelled'),
		forged: serviceCallback(s.gw, referenceNo, 640, 'completed'),
	};
}

function emitted(call: WebhookCall): IDataObject {
	expect([call.statusCode, call.executionStarted]).toEqual([200, true]);
	const { receivedAt, ...item } = call.nextStepItems![0].json;
	expect(typeof receivedAt).toBe('string');
	return item;
}

function lookups(): number {
	return s.gw.stats().requestsByPath[LOOKUP_COLLECTION] ?? 0;
}

describe('version 2 with default parameters', () => {
	test('a genuine callback replayed with a forged status is refused (401) after one look-up', async () => {
		const { forged } = await forgedCompletion('V2-1');
		const h = await trigger(s, {}, { typeVersion: 2 });
		const call = await h.post(forged);
		expect(call.statusCode).toBe(401);
		expect(call.body).toEqual({ message: 'Unauthorized' });
		expect(call.executionStarted).toBe(false);
		expect(call.logs.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
			'Payment Gateway Trigger refused a callback (HTTP 401): the callback says "completed" but the service says "cancelled"',
		]);
		expect(lookups()).toBe(1);
	});

	test("the genuine callback starts the workflow with the service's own status, statusConfirmed: true", async () => {
		const { genuine } = await forgedCompletion('V2-2');
		const record = s.gw.getTransaction('V2-2') as IDataObject;
		const h = await trigger(s, {}, { typeVersion: 2 });
		expect(emitted(await h.post(genuine))).toMatchObject({
			interface: 'collection',
			reference_no: 'V2-2',
			status: 'cancelled',
			statusConfirmed: true,
			amount: record.subtotal_amount,
			transaction: record,
			verified: { signature: true, sourceAddress: null, confirmedWithService: true },
		});
		expect(lookups()).toBe(1);
	});
});

describe('version 2 with Confirm With Service switched off behaves like version 1', () => {
	test('both emit the forged status as stated, statusConfirmed: false, with no look-up', async () => {
		const { forged } = await forgedCompletion('V2-3');
		const versionOne = await trigger(s, {}, { typeVersion: 1 });
		const switchedOff = await trigger(s, { confirmWithService: false }, { typeVersion: 2 });
		const fromVersionOne = emitted(await versionOne.post(forged));
		const fromSwitchedOff = emitted(await switchedOff.post(forged));
		expect(fromVersionOne).toMatchObject({
			status: 'completed',
			statusConfirmed: false,
			verified: { signature: true, confirmedWithService: null },
		});
		expect(fromSwitchedOff).toEqual(fromVersionOne);
		expect(lookups()).toBe(0);
	});

	test('both refuse a tampered amount the same way (401, no look-up)', async () => {
		const { genuine } = await forgedCompletion('V2-4');
		const tampered = structuredClone(genuine) as { data: IDataObject };
		tampered.data.amount = 6400;
		for (const [parameters, typeVersion] of [
			[{}, 1],
			[{ confirmWithService: false }, 2],
		] as const) {
			const call = await (await trigger(s, parameters, { typeVersion })).post(tampered);
			expect([typeVersion, call.statusCode, call.executionStarted]).toEqual([
				typeVersion,
				401,
				false,
			]);
		}
		expect(lookups()).toBe(0);
	});
});

describe('version 2 with Confirm With Service switched on explicitly', () => {
	test('refuses the forged status like the default does', async () => {
		const { forged } = await forgedCompletion('V2-5');
		const h = await trigger(s, { confirmWithService: true }, { typeVersion: 2 });
		const call = await h.post(forged);
		expect([call.statusCode, call.executionStarted]).toEqual([401, false]);
	});
});
