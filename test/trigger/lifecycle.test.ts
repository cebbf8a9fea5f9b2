/**
 * webhookMethods, run as n8n runs them on activation (n8n-core HookContext). The service has no
 * API to register callback URLs, so create/delete have nothing to do; checkExists fails the
 * activation for a credential problem (a chosen credential missing, or without a Signing Secret
 * while unsigned callbacks are refused) and warns when callbacks will go unverified.
 */
import { NodeOperationError } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../sandbox';
import { COLLECTION, DISBURSEMENT, trigger, setUpPerFile } from '../harness/triggerRuns';

const s = setUpPerFile();

test('with signing secrets: checkExists, create and delete answer true and log no warning', async () => {
	const h = await trigger(s, { interface: 'both' });
	for (const method of ['checkExists', 'create', 'delete'] as const) {
		const outcome = await h.lifecycle(method);
		expect(outcome).toEqual({ result: true, logs: [] });
	}
});

describe('a chosen credential without a Signing Secret', () => {
	const fix =
		'Add the Signing Secret to that credential, or switch on Accept Unsigned Callbacks (Unsafe) knowingly';

	test('fails the activation, naming the credential as the user named it and the fix, and warns nothing', async () => {
		const shop = s.store.add(
			COLLECTION,
			{ environment: 'sandbox', baseUrl: s.gw.url, ...SANDBOX_CREDENTIALS.collection },
			{ name: 'Shop payments' },
		);
		const h = await trigger(s, {}, { credentials: { [COLLECTION]: shop } });
		const outcome = await h.lifecycle('checkExists');
		expect(outcome.result).toBeUndefined();
		expect(outcome.error).toBeInstanceOf(NodeOperationError);
		expect(outcome.error?.message).toBe(
			`Cannot activate "Payment Gateway Trigger": the credential "Shop payments" has no Signing Secret, so its callbacks would be refused (HTTP 401). ${fix}`,
		);
		expect((outcome.error as NodeOperationError).description).toBe(
			`Open the credential "Shop payments" and enter the Signing Secret issued with your merchant credentials. Switch on Accept Unsigned Callbacks (Unsafe) only if anyone who knows this URL may start the workflow.`,
		);
		expect(outcome.logs).toEqual([]);
	});

	test('with Both, names only the credential that lacks it; with neither, both', async () => {
		const login = {
			environment: 'sandbox',
			baseUrl: s.gw.url,
			...SANDBOX_CREDENTIALS.disbursement,
		};
		const unsignedDisbursement = s.store.add(DISBURSEMENT, login);
		const oneMissing = await trigger(
			s,
			{ interface: 'both' },
			{ credentials: { [COLLECTION]: s.collection, [DISBURSEMENT]: unsignedDisbursement } },
		);
		expect((await oneMissing.lifecycle('checkExists')).error?.message).toBe(
			`Cannot activate "Payment Gateway Trigger": the credential "${unsignedDisbursement.name}" has no Signing Secret, so its callbacks would be refused (HTTP 401). ${fix}`,
		);
		const bothMissing = await trigger(
			s,
			{ interface: 'both' },
			{ credentials: { [COLLECTION]: s.unsignedCollection, [DISBURSEMENT]: unsignedDisbursement } },
		);
		const error = (await bothMissing.lifecycle('checkExists')).error as NodeOperationError;
		expect(error.message).toBe(
			`Cannot activate "Payment Gateway Trigger": the credentials "${s.unsignedCollection.name}" and "${unsignedDisbursement.name}" have no Signing Secret, so their callbacks would be refused (HTTP 401). Add the Signing Secret to those credentials, or switch on Accept Unsigned Callbacks (Unsafe) knowingly`,
		);
		expect(error.description).toContain(
			`Open the credentials "${s.unsignedCollection.name}" and "${unsignedDisbursement.name}"`,
		);
	});

	test('with Accept Unsigned Callbacks (Unsafe) on: activates and warns that callbacks go unverified', async () => {
		const h = await trigger(
			s,
			{ acceptUnsignedCallbacks: true },
			{ credentials: { [COLLECTION]: s.unsignedCollection } },
		);
		const outcome = await h.lifecycle('checkExists');
		expect(outcome.result).toBe(true);
		expect(outcome.logs.map((line) => [line.level, line.message])).toEqual([
			[
				'warn',
				`Payment Gateway Trigger "Payment Gateway Trigger": the credential "${s.unsignedCollection.name}" has no Signing Secret, so its callbacks are accepted WITHOUT verification (Accept Unsigned Callbacks (Unsafe) is on)`,
			],
		]);
	});
});

test('a missing credential is not swallowed: activation fails and says which', async () => {
	const h = await trigger(
		s,
		{ interface: 'both' },
		{ credentials: { [COLLECTION]: s.collection } },
	);
	const outcome = await h.lifecycle('checkExists');
	expect(outcome.result).toBeUndefined();
	expect(outcome.error?.message).toBe(
		'Select a Payment Gateway Disbursement API credential: this trigger listens to disbursement callbacks and verifies them with it',
	);
});
