/**
 * The harness's own proof: a test-only node runs inside n8n's engine against the sandbox gateway
 * over real HTTP on 127.0.0.1, with credentials, token fetching and refresh handled the way n8n's
 * server handles them, and every result scanned for secrets.
 */
import { existsSync } from 'fs';
import { join } from 'path';

import { SANDBOX_CREDENTIALS, startSandboxGateway, type SandboxGateway } from '../sandbox';
import { EchoAuthorized } from './harness/fixtures/EchoAuthorized.node';
import {
	CredentialStore,
	MANUAL_TRIGGER_TYPE,
	PACKAGE_NAME,
	PACKAGE_NODES,
	SecretLeakError,
	defaultNodeTypes,
	listSearch,
	loadOptions,
	runNode,
	runWorkflow,
	scannedCount,
	secretsOf,
	testCredential,
} from './harness';
import { report } from './harness/report';

const COLLECTION = 'paymentCollectionApi';
const echo = new EchoAuthorized();
const items = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ reference_no: `REF-${index + 1}` }));

let gw: SandboxGateway;
const tokenRequests = () => gw.stats().tokenRequests.collection;

/** A store holding one Payment Collection credential pointed at the gateway. */
function storeWith(password = SANDBOX_CREDENTIALS.collection.password): CredentialStore {
	const store = new CredentialStore();
	store.add(COLLECTION, {
		environment: 'sandbox',
		baseUrl: gw.url,
		username: SANDBOX_CREDENTIALS.collection.username,
		password,
		signingSecret: SANDBOX_CREDENTIALS.signingSecret,
	});
	return store;
}

// A fresh gateway per test: token.ts remembers recent tokens per base URL for 30 s, and a new
// port keeps one test's token from serving the next.
beforeEach(async () => {
	gw = await startSandboxGateway();
});
afterEach(async () => {
	await gw.close();
});

describe('node types', () => {
	it('holds the Manual Trigger stub and registers test-only nodes by their type name', () => {
		const nodeTypes = defaultNodeTypes();
		expect(nodeTypes.has(MANUAL_TRIGGER_TYPE)).toBe(true);
		expect(nodeTypes.register(echo)).toBe('harness.echoAuthorized');
		expect(nodeTypes.getByNameAndVersion('harness.echoAuthorized', 1)).toBe(echo);
	});

	it.each(PACKAGE_NODES.map((node) => [node.name, node.file] as const))(
		'registers our %s node as n8n names it, once its file exists',
		(name, file) => {
			const typeName = `${PACKAGE_NAME}.${name}`;
			const nodeTypes = defaultNodeTypes();
			expect(nodeTypes.has(typeName)).toBe(existsSync(join(__dirname, '..', `${file}.ts`)));
			if (nodeTypes.has(typeName))
				expect(nodeTypes.getByName(typeName).description.name).toBe(name);
		},
	);
});

describe('tokens through n8n-core with the server-like credentials helper', () => {
	it('makes ONE token request for 50 parallel items, none on the next run, one after the gateway expires tokens', async () => {
		const store = storeWith();

		const first = await runNode({ type: echo, parameters: {}, items: items(50), store });
		expect(first.error).toBeUndefined();
		expect(first.outputs[0]).toHaveLength(50);
		expect(first.outputs[0][49].pairedItem).toEqual({ item: 49 });
		expect(tokenRequests()).toBe(1);
		// Each of the 50 requests found the stored token empty and asked; token.ts shared one fetch.
		expect(store.stats(COLLECTION).preAuthentications).toBe(50);
		const token = store.data(COLLECTION).sessionToken;
		expect(typeof token === 'string' && token.length > 0).toBe(true);

		store.resetStats();
		const second = await runNode({ type: echo, parameters: {}, items: items(50), store });
		expect(second.error).toBeUndefined();
		expect(tokenRequests()).toBe(1);
		expect(store.stats(COLLECTION)).toEqual({ preAuthentications: 0, updates: 0 });

		gw.expireTokens();
		const third = await runNode({ type: echo, parameters: {}, items: items(50), store });
		expect(third.error).toBeUndefined();
		expect(third.outputs[0]).toHaveLength(50);
		expect(tokenRequests()).toBe(2);
		expect(store.data(COLLECTION).sessionToken).not.toBe(token);
		expect(secretsOf(store).tokens).toBe(2);
	});

	it('runs preAuthentication again when the stored token is blanked', async () => {
		const store = storeWith();
		await runNode({ type: echo, parameters: {}, items: items(1), store });
		store.expireStoredToken(COLLECTION);
		expect(store.data(COLLECTION).sessionToken).toBe('');

		store.resetStats();
		const result = await runNode({ type: echo, parameters: {}, items: items(1), store });
		expect(result.error).toBeUndefined();
		expect(store.stats(COLLECTION).preAuthentications).toBe(1);
		expect(store.data(COLLECTION).sessionToken).not.toBe('');
	});

	it('fails with a message that points at the credential and holds no password', async () => {
		const wrong = 'definitely-not-the-Pa55word';
		const store = storeWith(wrong);
		const result = await runNode({ type: echo, parameters: {}, items: items(3), store });
		expect(result.outputs).toEqual([]);
		expect(result.error?.message).toMatch(/credential was refused: check Username and Password/);
		expect(JSON.stringify(result.error?.error)).not.toContain(wrong);
		expect(result.run.runError).toBeDefined();
	});

	it('with continue-on-fail puts one error item per input item, paired, on the chosen output', async () => {
		const store = storeWith('wrong-password-123');
		const regular = await runNode({
			type: echo,
			parameters: {},
			items: items(2),
			store,
			onError: 'continueRegularOutput',
		});
		expect(regular.error).toBeUndefined();
		expect(regular.outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(String(regular.outputs[0][0].json.error)).toMatch(/check Username and Password/);

		const split = await runNode({
			type: echo,
			parameters: {},
			items: items(2),
			store,
			onError: 'continueErrorOutput',
		});
		expect(split.outputs[0]).toEqual([]);
		expect(split.outputs[1]).toHaveLength(2);
	});
});

describe('credential test (the editor\'s "Test" button)', () => {
	it('answers OK for good credentials and stores the token it fetched', async () => {
		const store = storeWith();
		await expect(testCredential(store, COLLECTION)).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(tokenRequests()).toBe(1);
		expect(store.data(COLLECTION).sessionToken).not.toBe('');

		// As on n8n's server, a test fetches a token even when one is stored.
		await testCredential(store, COLLECTION);
		expect(store.stats(COLLECTION).preAuthentications).toBe(2);
	});

	it('answers Error with a human message and no password for a wrong password', async () => {
		const wrong = 'another-wrong-Pa55word';
		const store = storeWith(wrong);
		const result = await testCredential(store, COLLECTION);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/check Username and Password/);
		expect(result.message).not.toContain(wrong);
	});
});

describe('loadOptions and listSearch through LoadOptionsContext', () => {
	it('fetch a token once and reuse it', async () => {
		const store = storeWith();
		const options = await loadOptions({ type: echo, method: 'getReferences', store });
		expect(options).toHaveLength(1);
		const found = await listSearch({
			type: echo,
			method: 'searchReferences',
			store,
			filter: 'REF-1',
		});
		expect(found.results[0].value).toBe('REF-1');
		expect(tokenRequests()).toBe(1);
	});
});

describe('runWorkflow', () => {
	it('runs a hand-written workflow and exposes outputs per node', async () => {
		const store = storeWith();
		const result = await runWorkflow({
			store,
			extraNodeTypes: [echo],
			nodes: [
				{ name: 'Start', type: MANUAL_TRIGGER_TYPE, parameters: {} },
				{
					name: 'Echo',
					type: 'harness.echoAuthorized',
					parameters: {},
					credentials: { [COLLECTION]: store.firstOf(COLLECTION)! },
				},
			],
			connections: { Start: { main: [[{ node: 'Echo', type: 'main', index: 0 }]] } },
		});
		expect(result.runError).toBeUndefined();
		expect(result.executedNodes).toEqual(['Start', 'Echo']);
		expect(result.outputOf('Echo')[0]).toHaveLength(1);
		expect(result.errorOf('Echo')).toBeUndefined();
	});
});

describe('secret guard', () => {
	it('fails a run whose output holds the bearer token, naming the kind of secret only', async () => {
		const store = storeWith();
		const leaking = runNode({
			type: echo,
			parameters: { leak: 'requestOptions' },
			items: items(1),
			store,
		});
		await expect(leaking).rejects.toThrow(SecretLeakError);
		const message = await leaking.catch((error: Error) => error.message);
		expect(message).toMatch(
			/session token of a paymentCollectionApi credential appears in output 0 item 0 of "Node"/,
		);
		expect(message).not.toContain(String(store.data(COLLECTION).sessionToken));
	});

	it("fails a run that writes the credential into n8n's log", async () => {
		const store = storeWith();
		const leaking = runNode({
			type: echo,
			parameters: { leak: 'credentialLog' },
			items: items(1),
			store,
		});
		await expect(leaking).rejects.toThrow(
			/the password of a paymentCollectionApi credential appears in a "debug" log line/,
		);
	});

	it('has scanned outputs, errors and log lines for every kind of secret', async () => {
		const store = storeWith();
		await runNode({ type: echo, parameters: {}, items: items(5), store });
		expect(secretsOf(store)).toEqual({ passwords: 1, signingSecrets: 1, tokens: 1, total: 3 });
		expect(scannedCount()).toBeGreaterThan(100);
		report(
			`secret guard: ${scannedCount()} texts scanned in this file; secrets per store: ${JSON.stringify(secretsOf(store))}`,
		);
	});
});
