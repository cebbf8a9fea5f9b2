/**
 * Fails closed: a chosen credential without a Signing Secret stops the trigger from being
 * activated (lifecycle.test.ts has the exact message) unless the user switches on "Accept
 * Unsigned Callbacks (Unsafe)" (accepted then: verification.test.ts; with Both: filters.test.ts).
 * Should such a trigger run anyway (activated by an older version, or the secret removed after
 * activating), every callback is refused (401, no execution). The editor shows the unsafe warning
 * only with that option on, names each credential picker apart, and the credential form says the
 * trigger needs the Signing Secret.
 */
import { NodeHelpers, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { DisbursementApi } from '../../credentials/DisbursementApi.credentials';
import { PaymentCollectionApi } from '../../credentials/PaymentCollectionApi.credentials';
import { PaymentGatewayLedgerApi } from '../../credentials/PaymentGatewayLedgerApi.credentials';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { SANDBOX_CREDENTIALS } from '../../sandbox';
import { implementations, nodeOf, resolvedParameters } from '../harness/installedN8n';
import { COLLECTION, SECRET, callbackBody, trigger, setUpPerFile } from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

const s = setUpPerFile();

function expectRefused(call: WebhookCall, reason: string): void {
	expect(call.statusCode).toBe(401);
	expect(call.body).toEqual({ message: 'Unauthorized' });
	expect(call.executionStarted).toBe(false);
	expect(call.run).toBeUndefined();
	expect(call.logs.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
		`Payment Gateway Trigger refused a callback (HTTP 401): ${reason}`,
	]);
}

describe('a credential without a Signing Secret', () => {
	// Names the credential as the user did (the shared ones are set up before the first test runs).
	const noSecretReason = (name = s.unsignedCollection.name) =>
		`the credential "${name}" has no Signing Secret and Accept Unsigned Callbacks (Unsafe) is off`;

	test('activation fails unless Accept Unsigned Callbacks (Unsafe) is on', async () => {
		const refusing = await trigger(s, {}, { credentials: { [COLLECTION]: s.unsignedCollection } });
		const accepting = await trigger(
			s,
			{ acceptUnsignedCallbacks: true },
			{ credentials: { [COLLECTION]: s.unsignedCollection } },
		);
		const refused = await refusing.lifecycle('checkExists');
		expect(refused.result).toBeUndefined();
		expect(refused.error?.message).toContain(
			`the credential "${s.unsignedCollection.name}" has no Signing Secret, so its callbacks would be refused`,
		);
		expect((await accepting.lifecycle('checkExists')).result).toBe(true);
	});

	test('run anyway (activated by an older version): 401 and no execution, signed or not', async () => {
		const h = await trigger(s, {}, { credentials: { [COLLECTION]: s.unsignedCollection } });
		expectRefused(
			await h.post(callbackBody('FC-1', 100, 'completed', { signature: null })),
			noSecretReason(),
		);
		// A body carrying a signature changes nothing: there is no secret to check it against.
		expectRefused(await h.post(callbackBody('FC-2', 100, 'completed')), noSecretReason());
		expect(h.calls.filter((call) => call.executionStarted)).toHaveLength(0);
	});

	test('the Signing Secret removed after activating: callbacks are refused from then on', async () => {
		const base = { environment: 'sandbox', baseUrl: s.gw.url, ...SANDBOX_CREDENTIALS.collection };
		const credential = s.store.add(COLLECTION, { ...base, signingSecret: SECRET });
		const h = await trigger(s, {}, { credentials: { [COLLECTION]: credential } });
		expect((await h.lifecycle('checkExists')).result).toBe(true);
		expect((await h.post(callbackBody('FC-3', 100, 'completed'))).statusCode).toBe(200);
		s.store.update(COLLECTION, credential.id, base);
		expectRefused(
			await h.post(callbackBody('FC-4', 100, 'completed')),
			noSecretReason(credential.name),
		);
	});
});

describe('what the editor shows', () => {
	const description = new PaymentGatewayTrigger().description;
	const shown = (parameters: INodeParameters) =>
		description.properties.filter((property) =>
			NodeHelpers.displayParameter(parameters, property, { typeVersion: 1 }, description),
		);
	const notices = (parameters: INodeParameters) =>
		shown(parameters).filter((property: INodeProperties) => property.type === 'notice');

	test('no "not verified" warning unless unsigned callbacks are accepted', () => {
		const defaults = { interface: 'collection', acceptUnsignedCallbacks: false };
		expect(
			notices(defaults)
				.map((notice) => notice.displayName)
				.join(' '),
		).not.toMatch(/NOT verified|WITHOUT verification|Signing Secret/);
		const unsafe = notices({ ...defaults, acceptUnsignedCallbacks: true }).map(
			(notice) => notice.displayName,
		);
		expect(unsafe.filter((text) => text.includes('WITHOUT verification'))).toHaveLength(1);
	});

	test('the unsafe option is named as such, off by default, and says what it risks', () => {
		const option = description.properties.find(
			(property) => property.name === 'acceptUnsignedCallbacks',
		);
		expect(option).toMatchObject({
			displayName: 'Accept Unsigned Callbacks (Unsafe)',
			type: 'boolean',
			default: false,
		});
		expect(option?.description).toMatch(/anyone who knows this URL can start the workflow/);
	});

	test('the credential form says the Payment Gateway Trigger cannot be activated without the Signing Secret', () => {
		for (const credential of [new PaymentCollectionApi(), new DisbursementApi()]) {
			const secret = credential.properties.find((property) => property.name === 'signingSecret');
			expect(secret?.description).toMatch(/Payment Gateway Trigger needs it/);
			expect(secret?.description).toMatch(/cannot be activated \(published\) without it/);
		}
	});

	test('each credential picker and each credential type has a name of its own', () => {
		const pickers = (description.credentials ?? []).map((credential) => credential.displayName);
		expect(pickers).toEqual([
			'Collection Credential (Payments)',
			'Disbursement Credential (Payouts)',
			'Payout Ledger (Optional: One Execution per Callback)',
		]);
		const types = [
			new PaymentCollectionApi().displayName,
			new DisbursementApi().displayName,
			new PaymentGatewayLedgerApi().displayName,
		];
		expect(new Set(types).size).toBe(3);
	});

	test.each(implementations)(
		'each credential picker shows only for the Interface that uses it, in both versions (%s)',
		(_label, helpers) => {
			// As the editor picks the pickers to show: the node's parameters with their defaults.
			const pickers = (typeVersion: number, stored: INodeParameters) => {
				const values = resolvedParameters(helpers, description, typeVersion, stored);
				return (description.credentials ?? [])
					.filter((credential) =>
						helpers.displayParameter(
							values,
							credential,
							nodeOf(description, typeVersion, values),
							description,
						),
					)
					.map((credential) => credential.name);
			};
			for (const typeVersion of [1, 2])
				expect([
					pickers(typeVersion, {}),
					pickers(typeVersion, { interface: 'collection' }),
					pickers(typeVersion, { interface: 'disbursement' }),
					pickers(typeVersion, { interface: 'both' }),
					pickers(typeVersion, { interface: '={{ "collection" }}' }),
				]).toEqual(
					// The ledger is for every Interface.
					[
						['paymentCollectionApi'],
						['paymentCollectionApi'],
						['disbursementApi'],
						['paymentCollectionApi', 'disbursementApi'],
						['paymentCollectionApi', 'disbursementApi'],
					].map((shown) => [...shown, 'paymentGatewayLedgerApi']),
				);
		},
	);

	test('Interface stays a parameter of the panel: no credential names it under displayOptions.show', () => {
		// n8n's editor (getMainAuthField) takes a parameter whose every value some credential's
		// displayOptions.show names for an authentication selector, and moves it out of the panel;
		// it reads `show` only, so the pickers use `hide`.
		for (const credential of description.credentials ?? []) {
			expect([credential.name, credential.displayOptions?.show]).toEqual([
				credential.name,
				undefined,
			]);
			expect(credential.required).toBe(false);
		}
	});
});
