/**
 * Tokens when several n8n processes share one credential (queue mode): each worker fetches its
 * own token, and the database keeps the last one stored. The token step of this process must not
 * hand out its own recent token to a caller that holds another process's token: when the service
 * has dropped every token, both are dead.
 */
import { SANDBOX_CREDENTIALS, startSandboxGateway, type SandboxGateway } from '../../../sandbox';
import { EchoAuthorized } from '../../harness/fixtures/EchoAuthorized.node';
import { CredentialStore, runNode } from '../../harness';

const COLLECTION = 'paymentCollectionApi';
const echo = new EchoAuthorized();
const items = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ reference_no: `REF-${index + 1}` }));

let gw: SandboxGateway;
const tokenRequests = () => gw.stats().tokenRequests.collection;

beforeEach(async () => {
	gw = await startSandboxGateway();
});
afterEach(async () => {
	await gw.close();
});

function storeWith(): CredentialStore {
	const store = new CredentialStore();
	store.add(COLLECTION, {
		environment: 'sandbox',
		baseUrl: gw.url,
		username: SANDBOX_CREDENTIALS.collection.username,
		password: SANDBOX_CREDENTIALS.collection.password,
		signingSecret: SANDBOX_CREDENTIALS.signingSecret,
	});
	return store;
}

/** What another worker process does: fetch its own token, and n8n stores it over ours. */
async function anotherWorkerStoresItsToken(store: CredentialStore): Promise<string> {
	const { username, password } = SANDBOX_CREDENTIALS.collection;
	const res = await fetch(
		`${gw.url}/v1/biller/token/create?username=${encodeURIComponent(username)}&password=${encodeURIComponent(password)}`,
		{
			method: 'POST',
			headers: { 'X-Server': '1', Accept: 'application/json' },
		},
	);
	const token = ((await res.json()) as { data: { token: string } }).data.token;
	const reference = store.firstOf(COLLECTION);
	store.update(COLLECTION, reference?.id, { ...store.data(COLLECTION), sessionToken: token });
	return token;
}

describe('a credential shared by several n8n processes', () => {
	it("after the service drops every token, a caller holding another process's token gets ONE new token, not this process's dead one", async () => {
		const store = storeWith();
		const first = await runNode({ type: echo, parameters: {}, items: items(5), store });
		expect(first.error).toBeUndefined();
		expect(tokenRequests()).toBe(1);

		const others = await anotherWorkerStoresItsToken(store);
		expect(tokenRequests()).toBe(2);
		gw.expireTokens();

		const run = await runNode({ type: echo, parameters: {}, items: items(20), store });
		expect(run.error).toBeUndefined();
		expect(run.outputs[0]).toHaveLength(20);
		expect(tokenRequests()).toBe(3);
		expect(store.data(COLLECTION).sessionToken).not.toBe(others);
	});

	it("uses another process's live token as it is: no token request", async () => {
		const store = storeWith();
		await runNode({ type: echo, parameters: {}, items: items(5), store });
		await anotherWorkerStoresItsToken(store);

		const run = await runNode({ type: echo, parameters: {}, items: items(20), store });
		expect(run.error).toBeUndefined();
		expect(tokenRequests()).toBe(2);
	});
});
