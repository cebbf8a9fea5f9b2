/**
 * webhookMethods, run as n8n runs them on activation (n8n-core HookContext). The service has no
 * API to register callback URLs, so create/delete have nothing to do; checkExists warns when
 * callbacks will go unverified and lets a credential problem fail the activation.
 */
import { COLLECTION, setUp, tearDown, trigger, type Setup } from './helpers';

let s: Setup;
beforeAll(async () => {
	s = await setUp();
});
afterAll(async () => {
	await tearDown(s);
});

test('with signing secrets: checkExists, create and delete answer true and log no warning', async () => {
	const h = await trigger(s, { interface: 'both' });
	for (const method of ['checkExists', 'create', 'delete'] as const) {
		const outcome = await h.lifecycle(method);
		expect(outcome).toEqual({ result: true, logs: [] });
	}
});

test('without a signing secret: activation warns that callbacks will be refused', async () => {
	const h = await trigger(s, {}, { credentials: { [COLLECTION]: s.unsignedCollection } });
	const outcome = await h.lifecycle('checkExists');
	expect(outcome.result).toBe(true);
	expect(outcome.logs.map((line) => [line.level, line.message])).toEqual([
		[
			'warn',
			'Payment Gateway Trigger "Payment Gateway Trigger": the Payment Collection credential has no Signing Secret, so its callbacks are refused (HTTP 401): add the Signing Secret to the credential',
		],
	]);
});

test('a missing credential is not swallowed: activation fails and says which', async () => {
	const h = await trigger(s, { interface: 'both' }, { credentials: { [COLLECTION]: s.collection } });
	const outcome = await h.lifecycle('checkExists');
	expect(outcome.result).toBeUndefined();
	expect(outcome.error?.message).toBe('Select a Payment Gateway Disbursement API credential: this trigger listens to disbursement callbacks and verifies them with it');
});
