/**
 * Tokens as n8n's server handles them: one token request for a whole run, none while the stored
 * token lives, one refresh when the service expires it (between runs or mid-run), and the
 * credential's "Test" button.
 */
import type { IDataObject } from 'n8n-workflow';

import { testCredential } from '../harness';
import {
	addWrongCredential,
	COLLECTION,
	generateParameters,
	run,
	setUp,
	type Setup,
} from '../harness/collectionRuns';

// A fresh gateway per test: its own port keeps another test's recently fetched token out.
let s: Setup;
beforeEach(async () => {
	s = await setUp();
});
afterEach(async () => {
	await s.gw.close();
});

const tokenRequests = () => s.gw.stats().tokenRequests.collection;
const items = (prefix: string, count: number): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({
		ref: `${prefix}-${index + 1}`,
		amount: 100 + index,
	}));

/** Every item became a new transaction, in order, and each reference was created once. */
function expectAllCreated(
	outputs: Array<Array<{ json: IDataObject; pairedItem?: unknown }>>,
	input: IDataObject[],
) {
	expect(outputs[0]).toHaveLength(input.length);
	outputs[0].forEach((item, index) => {
		expect(item.pairedItem).toEqual({ item: index });
		expect(item.json).toMatchObject({
			reference_no: input[index].ref,
			status: 'pending',
			replayed: false,
		});
	});
	const creations = s.gw.stats().creationsByReference;
	expect(input.map((item) => creations[item.ref as string])).toEqual(input.map(() => 1));
}

it('1,000 items through Generate make exactly one token request; a second run makes none', async () => {
	const first = items('TOK', 1000);
	const result = await run(s, generateParameters(), { items: first });
	expect(result.error).toBeUndefined();
	expectAllCreated(result.outputs, first);
	expect(tokenRequests()).toBe(1);
	expect(s.gw.stats().requestsByPath['POST /v1/biller/transactions/generate']).toBe(1000);

	const second = items('TOK2', 50);
	const again = await run(s, generateParameters(), { items: second });
	expect(again.outputs[0]).toHaveLength(50);
	expect(tokenRequests()).toBe(1);
	expect(s.store.stats(COLLECTION).preAuthentications).toBeGreaterThanOrEqual(1);
});

it('tokens expired between runs are refreshed once and the run completes', async () => {
	await run(s, generateParameters(), { items: items('BETWEEN-A', 20) });
	expect(tokenRequests()).toBe(1);
	s.gw.expireTokens();
	const second = items('BETWEEN-B', 200);
	const result = await run(s, generateParameters(), { items: second });
	expectAllCreated(result.outputs, second);
	expect(tokenRequests()).toBe(2);
});

it('tokens expired mid-run are refreshed once and the run completes, with no duplicate', async () => {
	const input = items('MID', 600);
	s.gw.setLatency(2);
	const running = run(s, generateParameters(), { items: input });
	// Expire every token once a good part of the run is done.
	await new Promise<void>((resolve) => {
		const poll = setInterval(() => {
			if (Object.keys(s.gw.stats().creationsByReference).length >= 150) {
				clearInterval(poll);
				s.gw.expireTokens();
				resolve();
			}
		}, 1);
	});
	const result = await running;
	expect(result.error).toBeUndefined();
	expectAllCreated(result.outputs, input);
	expect(tokenRequests()).toBe(2);
	// Some requests were refused with the expired token and sent again with the new one.
	const attempts = s.gw.stats().attemptsByReference;
	expect(input.some((item) => attempts[item.ref as string] === 2)).toBe(true);
});

it('the credential test succeeds with good credentials', async () => {
	await expect(testCredential(s.store, COLLECTION, s.credentialId)).resolves.toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	expect(tokenRequests()).toBe(1);
});

it('the credential test fails with a message that says what to fix with bad credentials', async () => {
	const wrong = addWrongCredential(s);
	await expect(testCredential(s.store, COLLECTION, wrong)).resolves.toEqual({
		status: 'Error',
		message:
			'The Payment Collection credential was refused: check Username and Password (the service said: "Invalid credentials.")',
	});
});

it('a refused credential is asked about once and stops the run, also when the run continues on errors', async () => {
	const wrong = addWrongCredential(s);
	const input = items('REFUSED', 200);
	const result = await run(s, generateParameters({ options: { concurrency: 16 } }), {
		items: input,
		credentialId: wrong,
		onError: 'continueRegularOutput',
	});
	expect(result.outputs[0]).toHaveLength(200);
	const refused =
		'The Payment Collection credential was refused: check Username and Password (the service said: "Invalid credentials.")';
	let notSent = 0;
	result.outputs[0].forEach((item, index) => {
		expect(item.pairedItem).toEqual({ item: index });
		// Items already started meet the refusal; every later one is not even prepared.
		if (item.json.error === `${refused} (row ${index + 1})`) return;
		expect(item.json.error).toBe(
			`Not sent, because the run stopped: The Payment Collection credential was refused: check Username and Password (the service said: "Invalid credentials.") (row ${index + 1})`,
		);
		notSent++;
	});
	expect(result.outputs[0][0].json.error).toBe(`${refused} (row 1)`);
	expect(notSent).toBeGreaterThanOrEqual(200 - 16);
	expect(tokenRequests()).toBe(1);
	expect(s.gw.stats().requestsByPath['POST /v1/biller/transactions/generate']).toBeUndefined();
});

describe('a Base URL where nothing answers', () => {
	const unreachable =
		'The Payment Collection token request could not reach the service (the connection was refused): check the Base URL';
	const addUnreachable = () =>
		s.store.add(COLLECTION, {
			environment: 'sandbox',
			baseUrl: 'http://127.0.0.1:9',
			username: 'someone',
			password: 'some-password-1',
		}).id;

	it('the credential test says so', async () => {
		await expect(testCredential(s.store, COLLECTION, addUnreachable())).resolves.toEqual({
			status: 'Error',
			message: unreachable,
		});
	});

	it('Generate says so too: nothing was sent, so nothing is looked up or retried', async () => {
		const result = await run(s, generateParameters(), {
			items: [{ ref: 'NOWHERE-1', amount: 10 }],
			credentialId: addUnreachable(),
		});
		expect(result.outputs).toEqual([]);
		expect(result.error?.message).toBe(`${unreachable} (row 1)`);
	});
});
