/**
 * Property tests over HTTP: a service (the sandbox gateway, n8n's Data Table API, a callback)
 * quoting a secret back in any form of test/harness/secretForms.ts, whole or in two pieces, at
 * each place the nodes show a service's text. Random secrets of printable ASCII; what a user or a
 * workflow sees holds neither the secret nor 6 characters in a row of it, in any form, and a quote
 * still holding part of one says it was withheld:
 * - a token endpoint's refusal or error, in the node error and in the credential test;
 * - a service error (Payout > Get answering 404 or 422);
 * - an output (Payout > Get's record quoting the Signing Secret or the bearer token);
 * - the payout ledger's error (n8n's answer quoting the API key, cut to 200 characters after);
 * - the trigger's item (a callback quoting the password or the Signing Secret).
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { HIDDEN, WITHHELD_REASON } from '../../nodes/shared/transport/secrets';
import { SANDBOX_CREDENTIALS } from '../../sandbox';
import { runNode, testCredential } from '../harness';
import { NODE_TYPE as COLLECTION_NODE } from '../harness/collectionRuns';
import { NODE_TYPE as DISBURSEMENT_NODE, jsonOf } from '../harness/disbursementRuns';
import {
	cappedPayout,
	payWithLedger,
	setUpWithLedger,
	type LedgerSetup,
} from '../harness/ledgerRuns';
import { PATHS } from '../harness/moneyOperations';
import { FORM_COUNT, partsShown, printableSecret, quotedAs } from '../harness/secretForms';
import {
	COLLECTION,
	DISBURSEMENT,
	SECRET,
	callbackBody,
	setUp as setUpTrigger,
	tearDown,
	trigger,
	type Setup as TriggerSetup,
} from '../harness/triggerRuns';

/** Few runs each: every run is a node run (or a callback) over HTTP. */
const RUNS = { numRuns: 8 };

/** How a quote holds the secret: whole in one form, or in two pieces, each in its own form. */
const quoteShape = fc.record({
	pieces: fc.boolean(),
	cutAt: fc.nat(),
	first: fc.integer({ min: 0, max: FORM_COUNT }),
	second: fc.integer({ min: 0, max: FORM_COUNT }),
	before: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
	after: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
});
type QuoteShape = typeof quoteShape extends fc.Arbitrary<infer T> ? T : never;

/** Pieces of at least 6 characters each, so each is part of the secret. */
function quoteOf(secret: string, shape: QuoteShape, username = ''): string {
	const as = (text: string, form: number) => quotedAs(text, form, username);
	if (!shape.pieces || secret.length < 12)
		return `${shape.before}${as(secret, shape.first)}${shape.after}`;
	const cut = 6 + (shape.cutAt % (secret.length - 11));
	return `${shape.before}${as(secret.slice(0, cut), shape.first)} and ${as(secret.slice(cut), shape.second)}${shape.after}`;
}

/** Nothing of the secret shows; a quote in pieces says it was withheld. */
function expectNothingOf(secret: string, shown: string, shape: QuoteShape, username = ''): void {
	expect(partsShown(shown, secret, username, [HIDDEN, WITHHELD_REASON])).toEqual([]);
	if (shape.pieces && secret.length >= 12)
		expect(shown.toLowerCase()).toContain(WITHHELD_REASON.toLowerCase());
}

describe('a token endpoint quoting the password: the node error and the credential test', () => {
	const s = setUpPerSuite();
	let counter = 0;

	test.each([
		['Generate', COLLECTION],
		['Payout Create', DISBURSEMENT],
	] as const)('%s', async (_name, type) => {
		await fc.assert(
			fc.asyncProperty(
				printableSecret,
				quoteShape,
				fc.constantFrom(422, 500),
				async (password, shape, status) => {
					// A username of its own each run: a refusal is remembered for a login.
					const username = `echo-user-${++counter}`;
					const said = quoteOf(password, shape, username);
					s.gw.faults.clear();
					s.gw.faults.add({
						path: type === COLLECTION ? PATHS.collectionToken : PATHS.disbursementToken,
						mode: 'error-before',
						status,
						body: { message: said },
					});
					const login = { environment: 'sandbox', baseUrl: s.gw.url, username, password };
					const stored = s.store.add(type, login);
					const result = await runNode({
						type: type === COLLECTION ? COLLECTION_NODE : DISBURSEMENT_NODE,
						store: s.store,
						parameters: type === COLLECTION ? generateParameters : payoutParameters,
						items: [{ ref: `ECHO-${counter}`, amount: 100 }],
						credentials: { [type]: { id: stored.id, name: stored.name } },
						typeVersion: 1,
						onError: 'stopWorkflow',
					});
					const error = `${result.error?.message}\n${result.error?.description ?? ''}`;
					expect(error).toMatch(/credential was refused|token request failed/);
					expectNothingOf(password, error, shape, username);
					const tested = await testCredential(s.store, type, stored.id);
					expect(tested.status).toBe('Error');
					expectNothingOf(password, tested.message, shape, username);
				},
			),
			RUNS,
		);
	});
});

describe('Payout > Get quoting the Signing Secret or the bearer token: its output and its error', () => {
	const s = setUpPerSuite();
	let counter = 0;
	/** A Disbursement credential with this Signing Secret, its token fetched by a first look-up. */
	async function credentialWith(signingSecret: string) {
		s.gw.faults.clear();
		const stored = s.store.add(DISBURSEMENT, {
			environment: 'sandbox',
			baseUrl: s.gw.url,
			...SANDBOX_CREDENTIALS.disbursement,
			signingSecret,
		});
		const credentials = { [DISBURSEMENT]: { id: stored.id, name: stored.name } };
		await get(credentials);
		const token = String(s.store.data(DISBURSEMENT, stored.id).sessionToken ?? '');
		expect(token.length).toBeGreaterThan(20);
		return { credentials, token };
	}
	const get = async (credentials: IDataObject) =>
		await runNode({
			type: DISBURSEMENT_NODE,
			store: s.store,
			parameters: {
				resource: 'payout',
				operation: 'get',
				referenceNo: 'ECHO-GET-1',
				options: { onNotFound: 'outputNothing' },
			},
			items: [{}],
			credentials: credentials as never,
			onError: 'continueRegularOutput',
		});
	const record = () => s.gw.getPayout('ECHO-GET-1') as IDataObject;

	beforeAll(async () => {
		await runNode({
			type: DISBURSEMENT_NODE,
			store: s.store,
			parameters: { ...payoutParameters },
			items: [{ ref: 'ECHO-GET-1', amount: 100 }],
			credentials: { [DISBURSEMENT]: { id: s.disbursement.id, name: s.disbursement.name } },
			typeVersion: 1,
		});
		expect(record()).toMatchObject({ reference_no: 'ECHO-GET-1' });
	});

	test.each([['the Signing Secret'], ['the bearer token']])(
		'the record quoting %s',
		async (which) => {
			await fc.assert(
				fc.asyncProperty(printableSecret, quoteShape, async (signingSecret, shape) => {
					const { credentials, token } = await credentialWith(signingSecret);
					const secret = which === 'the bearer token' ? token : signingSecret;
					const note = quoteOf(secret, shape);
					s.gw.faults.add({
						path: PAYOUT_LOOKUP,
						method: 'GET',
						mode: 'error-before',
						status: 200,
						body: { message: '', data: { transactions: [{ ...record(), note }] } },
					});
					const result = await get(credentials);
					const shown = JSON.stringify(jsonOf(result));
					expect(jsonOf(result)[0]).toMatchObject({ reference_no: 'ECHO-GET-1' });
					expectNothingOf(secret, shown, shape);
					counter++;
				}),
				RUNS,
			);
			expect(counter).toBeGreaterThan(0);
		},
	);

	test.each([[404], [422]])(
		'an HTTP %i quoting the Signing Secret or the token',
		async (status) => {
			await fc.assert(
				fc.asyncProperty(
					printableSecret,
					quoteShape,
					fc.boolean(),
					async (signingSecret, shape, quoteToken) => {
						const { credentials, token } = await credentialWith(signingSecret);
						const secret = quoteToken ? token : signingSecret;
						const said = quoteOf(secret, shape);
						s.gw.faults.add({
							path: PAYOUT_LOOKUP,
							method: 'GET',
							mode: 'error-before',
							status,
							body:
								status === 422
									? { message: said, errors: { reference_no: [said] } }
									: { message: said },
						});
						const result = await get(credentials);
						const shown = JSON.stringify(jsonOf(result));
						expect(String(jsonOf(result)[0]?.error)).toMatch(
							status === 404 ? /Not found \(HTTP 404\)/ : /The service rejected the request/,
						);
						expectNothingOf(secret, shown, shape);
					},
				),
				RUNS,
			);
		},
	);
});

describe("the payout ledger's error quoting the API key, whatever falls at the cut", () => {
	let s: LedgerSetup;
	beforeAll(async () => {
		s = await setUpWithLedger();
	});
	afterAll(async () => {
		await s.ledger.close();
		await s.gw.close();
	});

	test('n8n answering 401 or 500 with the key in its message', async () => {
		let counter = 0;
		await fc.assert(
			fc.asyncProperty(
				quoteShape,
				fc.integer({ min: 150, max: 230 }),
				fc.constantFrom(401, 500),
				async (shape, padding, status) => {
					const said = 'x'.repeat(padding) + quoteOf(s.ledger.apiKey, shape);
					// Every write answered so (a retried one too); rows and faults of the last run forgotten.
					s.ledger.clear();
					s.ledger.failNext(10, { method: 'POST', status, body: { message: said } });
					const result = await payWithLedger(
						s,
						cappedPayout({ maxTotalPerDay: '5000' }),
						[{ ref: `ECHO-LEDGER-${++counter}`, amount: 100, mobile: '09171234567' }],
						{ onError: 'continueRegularOutput' },
					);
					const shown = JSON.stringify(jsonOf(result));
					expect(shown).toMatch(/Writing to the payout ledger failed: n8n answered HTTP/);
					expectNothingOf(s.ledger.apiKey, shown, shape);
				},
			),
			RUNS,
		);
	});
});

describe("the trigger's item: a callback quoting the password or the Signing Secret", () => {
	let s: TriggerSetup;
	beforeAll(async () => {
		s = await setUpTrigger();
	});
	afterAll(async () => await tearDown(s));

	test('in an unsigned field of a genuine callback', async () => {
		let counter = 0;
		await fc.assert(
			fc.asyncProperty(
				printableSecret,
				quoteShape,
				fc.boolean(),
				async (password, shape, quoteSecret) => {
					const stored = s.store.add(COLLECTION, {
						environment: 'sandbox',
						baseUrl: s.gw.url,
						username: SANDBOX_CREDENTIALS.collection.username,
						password,
						signingSecret: SECRET,
					});
					const h = await trigger(
						s,
						{},
						{ credentials: { [COLLECTION]: { id: stored.id, name: stored.name } } },
					);
					const secret = quoteSecret ? SECRET : password;
					const body = callbackBody(`ECHO-CB-${++counter}`, 100, 'completed');
					body.data.debug = quoteOf(secret, shape);
					const call = await h.post(body);
					expect(call.statusCode).toBe(200);
					const item = call.result!.workflowData![0][0].json as { raw: { data: IDataObject } };
					expectNothingOf(secret, JSON.stringify(item), shape);
					expect(item.raw.data.reference_no).toBe(`ECHO-CB-${counter}`);
				},
			),
			RUNS,
		);
	});
});

const PAYOUT_LOOKUP = '/v1/api/disbursement/transactions';

const generateParameters: INodeParameters = {
	resource: 'transaction',
	operation: 'generate',
	channelCode: 'GCASH_TRN',
	amount: '={{ $json.amount }}',
	referenceNo: '={{ $json.ref }}',
	callbackWebhookUrl: '',
};

const payoutParameters: INodeParameters = {
	resource: 'payout',
	operation: 'create',
	channelType: 'eWallet',
	channel: 'GCASH',
	amount: '={{ $json.amount }}',
	referenceNo: '={{ $json.ref }}',
	mobileNumber: '09171234567',
	callbackWebhookUrl: '',
};

/** A sandbox gateway and a store for a describe block, closed after it. */
function setUpPerSuite() {
	const s = {} as TriggerSetup;
	beforeAll(async () => {
		Object.assign(s, await setUpTrigger());
	});
	afterAll(async () => await tearDown(s));
	return s;
}
