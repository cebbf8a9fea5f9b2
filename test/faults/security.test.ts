/**
 * Attacks and leaks:
 * - forged callbacks derived from genuine ones (replayed, amount or reference tampered, status
 *   flipped, re-signed with a guessed secret, from a wrong address, oversized) are refused
 *   without an execution, while the genuine callbacks each start exactly one;
 * - a token of one interface is never sent to, nor accepted by, the other;
 * - a failing token request (whose URL carries the collection password) leaks nothing;
 * - a token endpoint that quotes the password back (the request line, the query re-encoded, the
 *   JSON body, or any other form: URL-encoded, JSON-escaped, base64) shows it hidden, in the node
 *   error and in the credential test's message;
 * - the secret guard's figures for this file.
 */
import type { IDataObject, OnError } from 'n8n-workflow';

import { signCallback } from '../../nodes/shared/validation/signature';
import {
	SANDBOX_CREDENTIALS,
	startSandboxGateway,
	type ApiInterface,
	type CallbackRecord,
	type FaultRule,
	type RecordedRequest,
	type SandboxCredentials,
	type SandboxGateway,
} from '../../sandbox';
import { NODE_TYPE as COLLECTION_NODE } from '../harness/collectionRuns';
import { NODE_TYPE as DISBURSEMENT_NODE } from '../harness/disbursementRuns';
import { CredentialStore, runNode, scannedCount, secretsOf, testCredential } from '../harness';
import {
	COLLECTION,
	DISBURSEMENT,
	SECRET,
	callbackBody,
	setUp as setUpTrigger,
	tearDown,
	trigger,
	type Setup,
} from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';
import { report } from '../harness/report';
import { PATHS, itemFor, recordRequests, reportSecretScan } from '../harness/moneyOperations';
import { TRICKY_PASSWORDS, formsFoundIn, quotedForms } from '../harness/secretForms';

const stores: CredentialStore[] = [];
const gateways: SandboxGateway[] = [];
afterAll(async () => {
	await Promise.all(gateways.map(async (gw) => await gw.close()));
});

/**
 * A gateway and a store holding both credentials for it, as a user with both interfaces has;
 * `logins` replaces the sandbox's logins on both sides.
 */
async function bothInterfaces(
	logins: Pick<SandboxCredentials, ApiInterface> = SANDBOX_CREDENTIALS,
) {
	const gw = await startSandboxGateway({ credentials: logins });
	gateways.push(gw);
	const store = new CredentialStore();
	stores.push(store);
	const base = { environment: 'sandbox', baseUrl: gw.url, signingSecret: SECRET };
	const collection = store.add(COLLECTION, { ...base, ...logins.collection });
	const disbursement = store.add(DISBURSEMENT, { ...base, ...logins.disbursement });
	return { gw, store, collection, disbursement };
}

type Both = Awaited<ReturnType<typeof bothInterfaces>>;

async function generate(
	env: Both,
	refs: string[],
	callback = '',
	onError: OnError = 'continueRegularOutput',
) {
	return await runNode({
		type: COLLECTION_NODE,
		store: env.store,
		parameters: {
			resource: 'transaction',
			operation: 'generate',
			channelCode: 'GCASH_TRN',
			amount: '={{ $json.amount }}',
			referenceNo: '={{ $json.ref }}',
			callbackWebhookUrl: callback,
		},
		items: refs.map((ref, i) => ({ ref, amount: 1000 + i })),
		credentials: { [COLLECTION]: env.collection },
		onError,
	});
}

async function payout(
	env: Both,
	refs: string[],
	callback = '',
	onError: OnError = 'continueRegularOutput',
) {
	return await runNode({
		type: DISBURSEMENT_NODE,
		store: env.store,
		parameters: {
			resource: 'payout',
			operation: 'create',
			channelType: 'eWallet',
			channel: 'GCASH',
			amount: '={{ $json.amount }}',
			referenceNo: '={{ $json.ref }}',
			mobileNumber: '09171234567',
			callbackWebhookUrl: callback,
		},
		items: refs.map((ref, i) => ({ ref, amount: 200 + i })),
		credentials: { [DISBURSEMENT]: env.disbursement },
		typeVersion: 1,
		onError,
	});
}

const bearer = (request: RecordedRequest) => String(request.headers.authorization ?? '');
const isCollectionPath = (path: string) => path.startsWith('/v1/biller/');
const isDisbursementPath = (path: string) =>
	path.startsWith('/v1/api/') || path.startsWith('/v1/auth/');

describe('a token of one interface is never sent to, nor accepted by, the other', () => {
	test('both nodes in one n8n: every request carries its own interface token, and only that', async () => {
		const env = await bothInterfaces();
		const recorder = recordRequests();
		try {
			const generated = await generate(env, ['X-PAY-1', 'X-PAY-2', 'X-PAY-3']);
			const paid = await payout(env, ['X-OUT-1', 'X-OUT-2', 'X-OUT-3']);
			expect(generated.outputs[0].map((item) => item.json.reference_no)).toEqual([
				'X-PAY-1',
				'X-PAY-2',
				'X-PAY-3',
			]);
			expect(paid.outputs[0].map((item) => item.json.reference_no)).toEqual([
				'X-OUT-1',
				'X-OUT-2',
				'X-OUT-3',
			]);
		} finally {
			recorder.restore();
		}
		const collectionToken = String(env.store.data(COLLECTION).sessionToken);
		const disbursementToken = String(env.store.data(DISBURSEMENT).sessionToken);
		expect(collectionToken.length).toBeGreaterThan(10);
		expect(disbursementToken.length).toBeGreaterThan(10);
		expect(collectionToken).not.toBe(disbursementToken);

		const requests = recorder.requests;
		const everything = (request: RecordedRequest) => JSON.stringify(request);
		const collectionSide = requests.filter((request) => isCollectionPath(request.path));
		const disbursementSide = requests.filter((request) => isDisbursementPath(request.path));
		expect(collectionSide.length + disbursementSide.length).toBe(requests.length);
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`POST ${PATHS.collectionToken}`,
			...Array(3).fill(`POST ${PATHS.generate}`),
			`POST ${PATHS.disbursementToken}`,
			...Array(3).fill(`POST ${PATHS.process}`),
		]);
		// Each interface's calls carry its own token; neither token nor password ever reaches the other side.
		for (const request of collectionSide.filter((r) => r.path !== PATHS.collectionToken)) {
			expect(bearer(request)).toBe(`Bearer ${collectionToken}`);
		}
		for (const request of disbursementSide.filter((r) => r.path !== PATHS.disbursementToken)) {
			expect(bearer(request)).toBe(`Bearer ${disbursementToken}`);
		}
		for (const request of collectionSide) {
			expect(everything(request)).not.toContain(disbursementToken);
			expect(everything(request)).not.toContain(SANDBOX_CREDENTIALS.disbursement.password);
		}
		for (const request of disbursementSide) {
			expect(everything(request)).not.toContain(collectionToken);
			expect(everything(request)).not.toContain(SANDBOX_CREDENTIALS.collection.password);
		}
		// The public view agrees: the last request of each side carried that side's token.
		expect(bearer(env.gw.lastRequest('/v1/biller/transactions')!)).toBe(
			`Bearer ${collectionToken}`,
		);
		expect(bearer(env.gw.lastRequest('/v1/api/')!)).toBe(`Bearer ${disbursementToken}`);
	});

	test('sent directly, the collection token gets 401 on a disbursement path, and the other way round', async () => {
		const env = await bothInterfaces();
		await generate(env, ['D-PAY-1']);
		await payout(env, ['D-OUT-1']);
		const tokens = {
			collection: env.store.data(COLLECTION).sessionToken,
			disbursement: env.store.data(DISBURSEMENT).sessionToken,
		};
		const call = async (path: string, token: unknown, method = 'POST') => {
			const response = await fetch(`${env.gw.url}${path}`, {
				method,
				headers: {
					authorization: `Bearer ${String(token)}`,
					'content-type': 'application/json',
					accept: 'application/json',
				},
				body: method === 'POST' ? JSON.stringify({}) : undefined,
			});
			return { status: response.status, body: (await response.json()) as IDataObject };
		};
		const refused = { status: 401, body: { message: 'Unauthenticated.' } };
		expect(await call(PATHS.process, tokens.collection)).toEqual(refused);
		expect(
			await call(`${PATHS.payoutLookup}?reference_no=D-OUT-1`, tokens.collection, 'GET'),
		).toEqual(refused);
		expect(await call(PATHS.generate, tokens.disbursement)).toEqual(refused);
		expect(
			await call(`${PATHS.collectionLookup}?reference_no=D-PAY-1`, tokens.disbursement, 'GET'),
		).toEqual(refused);
		// Each token works on its own side (an empty body passes authentication and fails validation).
		expect((await call(PATHS.process, tokens.disbursement)).status).toBe(422);
		expect((await call(PATHS.generate, tokens.collection)).status).toBe(422);
		expect(env.gw.stats().creationsByReference).toEqual({ 'D-PAY-1': 1, 'D-OUT-1': 1 });
	});

	test.each(['Payout Create', 'Generate'] as const)(
		'%s with the other interface token stored in its credential: refused, its own token fetched, created once',
		async (name) => {
			const env = await bothInterfaces();
			const ownType = name === 'Generate' ? COLLECTION : DISBURSEMENT;
			// A token of the other interface, valid at this very gateway, pasted into this credential.
			await (name === 'Generate' ? payout(env, ['DONOR-1']) : generate(env, ['DONOR-1']));
			const foreign = String(
				env.store.data(name === 'Generate' ? DISBURSEMENT : COLLECTION).sessionToken,
			);
			const pasted = env.store.add(ownType, {
				environment: 'sandbox',
				baseUrl: env.gw.url,
				...(name === 'Generate'
					? SANDBOX_CREDENTIALS.collection
					: SANDBOX_CREDENTIALS.disbursement),
				sessionToken: foreign,
			});
			const withPasted: Both =
				name === 'Generate' ? { ...env, collection: pasted } : { ...env, disbursement: pasted };
			const ref = `FOREIGN-${name === 'Generate' ? 'PAY' : 'OUT'}-1`;
			env.gw.resetStats();
			const recorder = recordRequests();
			let result;
			try {
				result = await (name === 'Generate'
					? generate(withPasted, [ref])
					: payout(withPasted, [ref]));
			} finally {
				recorder.restore();
			}

			const gw = env.gw;
			expect(result.outputs).toEqual([
				[itemFor(name === 'Generate' ? gw.getTransaction(ref) : gw.getPayout(ref), 0)],
			]);
			const createPath = name === 'Generate' ? PATHS.generate : PATHS.process;
			const tokenPath = name === 'Generate' ? PATHS.collectionToken : PATHS.disbursementToken;
			expect(recorder.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
				`POST ${createPath}`,
				`POST ${tokenPath}`,
				`POST ${createPath}`,
			]);
			const own = String(env.store.data(ownType, pasted.id).sessionToken);
			expect(own).not.toBe(foreign);
			// The foreign token was sent once, refused (401) before any work, and replaced.
			expect(recorder.requests.map(bearer)).toEqual([`Bearer ${foreign}`, '', `Bearer ${own}`]);
			expect(gw.stats().attemptsByReference).toEqual({ [ref]: 2 });
			expect(gw.stats().creationsByReference).toEqual({ [ref]: 1 });
			expect(env.store.stats(ownType).preAuthentications).toBe(1);
		},
	);
});

describe('a failing token request leaks nothing (the collection password travels in its query string)', () => {
	const cases: Array<['Generate' | 'Payout Create', string, Omit<FaultRule, 'path'>, string]> = [];
	for (const name of ['Generate', 'Payout Create'] as const) {
		const label = name === 'Generate' ? 'Payment Collection' : 'Disbursement';
		cases.push(
			[
				name,
				'HTTP 500',
				{ mode: 'error-before', status: 500 },
				`The ${label} token request failed with HTTP 500 (the service said: "Server Error")`,
			],
			[
				name,
				'HTTP 401',
				{ mode: 'error-before', status: 401 },
				`The ${label} credential was refused: check Username and Password (the service said: "Server Error")`,
			],
			[
				name,
				'a dropped connection',
				{ mode: 'drop-before' },
				`The ${label} token request could not reach the service (the connection was closed before an answer arrived): check the Base URL`,
			],
			[
				name,
				'a cut-off JSON body',
				{ mode: 'malformed' },
				`The ${label} service answered the token request without a usable token (no token object): check the Base URL, or ask the service for a valid token`,
			],
		);
	}

	test.each(cases)('%s: the token request gets %s', async (name, _what, fault, message) => {
		// A new gateway each time: a token fetched moments ago for the same address would be reused.
		const env = await bothInterfaces();
		env.gw.faults.add({
			...fault,
			path: name === 'Generate' ? PATHS.collectionToken : PATHS.disbursementToken,
		});
		const result = await (name === 'Generate'
			? generate(env, ['TOKEN-1', 'TOKEN-2'])
			: payout(env, ['TOKEN-1', 'TOKEN-2']));
		// The guard inside runNode has scanned the items, errors, execution data and log lines.
		expect(result.outputs).toEqual([
			[0, 1].map((i) => ({
				json: { error: `${message} (row ${i + 1})`, itemIndex: i },
				pairedItem: { item: i },
			})),
		]);
		// The request itself was never sent: nothing to look up, nothing created.
		const tokenPath = name === 'Generate' ? PATHS.collectionToken : PATHS.disbursementToken;
		expect(Object.keys(env.gw.stats().requestsByPath)).toEqual([`POST ${tokenPath}`]);
		expect(env.gw.stats().creationsByReference).toEqual({});
	});
});

describe('a token endpoint quoting the password back, in any form: hidden in the node error and the credential test', () => {
	const LOGINS = {
		collection: { ...SANDBOX_CREDENTIALS.collection, password: TRICKY_PASSWORDS.collection },
		disbursement: { ...SANDBOX_CREDENTIALS.disbursement, password: TRICKY_PASSWORDS.disbursement },
	};
	const hidden = '[hidden]';
	const collectionUser = LOGINS.collection.username;
	const disbursementUser = LOGINS.disbursement.username;

	interface Quote {
		status: 422 | 500;
		/** The service's message: `{{...}}` quotes the request as it arrived (sandbox/types.ts). */
		said: string;
		/** That message as the user may read it. */
		shown: string;
	}
	const cases: Array<['Generate' | 'Payout Create', string, Quote]> = [
		[
			'Generate',
			'the request line as sent (the password in its query)',
			{
				status: 500,
				said: 'Server Error while handling {{request_line}}',
				shown: `Server Error while handling POST ${PATHS.collectionToken}?username=${collectionUser}&password=${hidden}`,
			},
		],
		[
			'Generate',
			'the query re-encoded as a form',
			{
				status: 500,
				said: 'Bad query {{query_form}}',
				shown: `Bad query username=${collectionUser}&password=${hidden}`,
			},
		],
		[
			'Generate',
			'the query as JSON',
			{
				status: 422,
				said: 'Invalid credentials {{query_json}}',
				shown: `Invalid credentials {"username":"${collectionUser}","password":"${hidden}"}`,
			},
		],
		[
			'Payout Create',
			'the request line and JSON body as sent (a 500)',
			{
				status: 500,
				said: 'Server Error while handling {{request_line}} {{body}}',
				shown: `Server Error while handling POST ${PATHS.disbursementToken} {"username":"${disbursementUser}","password":"${hidden}"}`,
			},
		],
		[
			'Payout Create',
			'the JSON body as sent (a 422)',
			{
				status: 422,
				said: 'The given data was invalid: {{body}}',
				shown: `The given data was invalid: {"username":"${disbursementUser}","password":"${hidden}"}`,
			},
		],
	];
	for (const name of ['Generate', 'Payout Create'] as const) {
		const login = name === 'Generate' ? LOGINS.collection : LOGINS.disbursement;
		for (const [form, quoted] of quotedForms(login.password, login.username)) {
			cases.push([
				name,
				form,
				{
					status: 422,
					said: `Invalid credentials: ${quoted}`,
					shown: `Invalid credentials: ${hidden}`,
				},
			]);
		}
	}

	function expected(name: 'Generate' | 'Payout Create', { status, shown }: Quote): string {
		const label = name === 'Generate' ? 'Payment Collection' : 'Disbursement';
		const prefix =
			status === 422
				? `The ${label} credential was refused: check Username and Password`
				: `The ${label} token request failed with HTTP ${status}`;
		return `${prefix} (the service said: "${shown}")`;
	}

	/** A new gateway each time: a refusal is remembered for its credential for 30 seconds. */
	async function quotingGateway(name: 'Generate' | 'Payout Create', { status, said }: Quote) {
		const env = await bothInterfaces(LOGINS);
		env.gw.faults.add({
			path: name === 'Generate' ? PATHS.collectionToken : PATHS.disbursementToken,
			mode: 'error-before',
			status,
			body: { message: said },
		});
		return env;
	}

	test.each(cases)('%s, the node error: %s', async (name, _form, quote) => {
		const env = await quotingGateway(name, quote);
		const result = await (name === 'Generate'
			? generate(env, ['QUOTED-1'], '', 'stopWorkflow')
			: payout(env, ['QUOTED-1'], '', 'stopWorkflow'));
		expect(result.outputs).toEqual([]);
		expect(result.error?.message).toBe(`${expected(name, quote)} (row 1)`);
		const login = name === 'Generate' ? LOGINS.collection : LOGINS.disbursement;
		const shown = `${result.error?.message}\n${result.error?.description ?? ''}`;
		expect(formsFoundIn(shown, login.password, login.username)).toEqual([]);
	});

	test.each(cases)('%s, the credential test: %s', async (name, _form, quote) => {
		const env = await quotingGateway(name, quote);
		const type = name === 'Generate' ? COLLECTION : DISBURSEMENT;
		const id = name === 'Generate' ? env.collection.id : env.disbursement.id;
		const tested = await testCredential(env.store, type, id);
		expect(tested).toEqual({ status: 'Error', message: expected(name, quote) });
		const login = name === 'Generate' ? LOGINS.collection : LOGINS.disbursement;
		expect(formsFoundIn(tested.message, login.password, login.username)).toEqual([]);
		expect(env.gw.stats().tokenRequests).toEqual({
			collection: name === 'Generate' ? 1 : 0,
			disbursement: name === 'Generate' ? 0 : 1,
		});
	});
});

describe('forged callbacks are refused without an execution; genuine ones start exactly one', () => {
	let s: Setup;
	beforeAll(async () => {
		s = await setUpTrigger();
		stores.push(s.store);
	});
	afterAll(async () => {
		await tearDown(s);
	});

	function expectRefused(call: WebhookCall, status: number, body: unknown): void {
		expect({ status: call.statusCode, body: call.body }).toEqual({ status, body });
		expect(call.executionStarted).toBe(false);
		expect(call.run).toBeUndefined();
		expect(call.error).toBeUndefined();
	}

	test('a campaign against one trigger with every protection on', async () => {
		const h = await trigger(s, {
			interface: 'both',
			confirmWithService: true,
			allowedIpAddresses: '127.0.0.1',
		});
		const env: Both = {
			gw: s.gw,
			store: s.store,
			collection: s.collection,
			disbursement: s.disbursement,
		};

		// Genuine: three payment links (one left pending) and a payout made by the nodes, two of them
		// completed and one cancelled by the service, each answered with its signed callback.
		await generate(env, ['SEC-PAY-1', 'SEC-PAY-2', 'SEC-PAY-3'], h.url);
		await payout(env, ['SEC-OUT-1'], h.url);
		await s.gw.settle('SEC-PAY-1', 'completed');
		await s.gw.settle('SEC-PAY-2', 'cancelled');
		await s.gw.settle('SEC-OUT-1', 'completed');
		const genuine = await h.waitForCalls(3);
		expect(genuine.map((call) => [call.statusCode, call.executionStarted])).toEqual([
			[200, true],
			[200, true],
			[200, true],
		]);
		const sent = (ref: string): { data: IDataObject } => {
			const record = s.gw.callbacks().find((entry: CallbackRecord) => entry.referenceNo === ref)!;
			return structuredClone(record.body) as { data: IDataObject };
		};
		const paid = sent('SEC-PAY-1');
		const cancelled = sent('SEC-PAY-2');
		const payoutDone = sent('SEC-OUT-1');
		const pending = s.gw.getTransaction('SEC-PAY-3') as IDataObject;
		const with_ = (body: { data: IDataObject }, change: IDataObject) => ({
			data: { ...body.data, ...change },
		});

		const unauthorized = { message: 'Unauthorized' };
		const attacks: Array<[string, () => Promise<WebhookCall>, number, unknown]> = [
			[
				'replay of a genuine payment callback',
				async () => await h.post(paid),
				200,
				{ message: 'Duplicate ignored' },
			],
			[
				'replay of a genuine payout callback',
				async () => await h.post(payoutDone),
				200,
				{ message: 'Duplicate ignored' },
			],
			[
				'amount raised, signature kept',
				async () => await h.post(with_(paid, { amount: 49_999 })),
				401,
				unauthorized,
			],
			[
				'genuine signature moved to another reference',
				async () => await h.post(with_(paid, { reference_no: 'SEC-PAY-3' })),
				401,
				unauthorized,
			],
			[
				'cancelled flipped to completed (the signature does not cover the status)',
				async () => await h.post(with_(cancelled, { status: 'completed' })),
				401,
				unauthorized,
			],
			[
				'a pending payment claimed completed, re-signed with a guessed secret',
				async () =>
					await h.post(
						callbackBody('SEC-PAY-3', pending.subtotal_amount as number, 'completed', {
							secret: 'guessed-secret-123',
						}),
					),
				401,
				unauthorized,
			],
			[
				'a pending payment claimed completed, without a signature',
				async () =>
					await h.post(
						callbackBody('SEC-PAY-3', pending.subtotal_amount as number, 'completed', {
							signature: null,
						}),
					),
				401,
				unauthorized,
			],
			[
				'tampered amount behind a duplicate "data" key',
				async () =>
					await h.post(
						`{"data":${JSON.stringify(paid.data)},"data":${JSON.stringify({ ...paid.data, amount: 5 })}}`,
					),
				401,
				unauthorized,
			],
			[
				'a correctly signed callback from an address not on the list',
				async () =>
					await h.post(callbackBody('SEC-PAY-3', pending.subtotal_amount as number, 'completed'), {
						localAddress: '127.0.0.2',
					}),
				403,
				{ message: 'Forbidden' },
			],
			[
				'X-Forwarded-For claiming the allowed address',
				async () =>
					await h.post(callbackBody('SEC-PAY-3', pending.subtotal_amount as number, 'completed'), {
						localAddress: '127.0.0.2',
						headers: { 'x-forwarded-for': '127.0.0.1' },
					}),
				403,
				{ message: 'Forbidden' },
			],
			[
				'a genuine body padded past 1 MB',
				async () => await h.post(with_(paid, { padding: 'x'.repeat(1024 * 1024) })),
				400,
				{ message: 'Bad request: the body is larger than 1048576 bytes' },
			],
			[
				"a body past n8n's 16 MB limit (refused before the node runs)",
				async () => await h.post(with_(paid, { padding: 'x'.repeat(17 * 1024 * 1024) })),
				413,
				{ code: 413, message: 'request entity too large' },
			],
		];

		const refused: string[] = [];
		for (const [name, attack, status, body] of attacks) {
			const call = await attack();
			expect([name, call.statusCode]).toEqual([name, status]);
			expectRefused(call, status, body);
			refused.push(name);
		}
		expect(refused).toHaveLength(attacks.length);
		// The signature used by the flipped-status attack is genuine: only the service look-up caught it.
		expect(signCallback(SECRET, cancelled.data.amount as number, 'SEC-PAY-2')).toBe(
			cancelled.data.signature,
		);

		const executions = h.calls.filter((call) => call.executionStarted);
		expect(executions.map((call) => call.result!.workflowData![0][0].json.reference_no)).toEqual([
			'SEC-PAY-1',
			'SEC-PAY-2',
			'SEC-OUT-1',
		]);
		expect(h.calls).toHaveLength(3 + attacks.length);
		report(
			`forged callbacks: ${attacks.length} sent, ${refused.length} refused, 0 executions; ` +
				`genuine callbacks: 3 sent, ${executions.length} executions`,
		);
	});
});

// Declared last, so it runs after everything above and reports on all of it.
describe('the secret guard', () => {
	test('reports its figures for this file: every text scanned, no secret found', () => {
		const { scanned, secrets } = reportSecretScan('security', stores);
		expect(scanned).toBe(scannedCount());
		expect(scanned).toBeGreaterThan(100);
		// Two passwords and one signing secret per store (the sandbox's secret is shared by both
		// interfaces), plus the session tokens each store has held.
		for (const store of stores) {
			const figures = secretsOf(store);
			expect(figures.passwords).toBe(2);
			expect(figures.signingSecrets).toBe(1);
			expect(figures.total).toBe(figures.passwords + figures.signingSecrets + figures.tokens);
		}
		expect(secrets).toBeGreaterThanOrEqual(stores.length * 3);
	});
});
