/**
 * Money moves only when it provably should: the promises of the money-safe path, each against the
 * sandbox over real HTTP, for both operations that create money (Generate and Payout Create).
 * The service is played misbehaving with fault bodies: 2xx answers with the wrong body, look-ups
 * that show amounts as text, error messages that echo secrets.
 */
import type { IDataObject, INodeParameters, OnError } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS, type FaultRule } from '../../sandbox';
import * as collection from '../harness/collectionRuns';
import * as disbursement from '../harness/disbursementRuns';
import { testCredential } from '../harness';
import { HarnessCredentialsHelper } from '../harness/credentialsHelper';
import {
	CHECK_THEN_SAME_REFERENCE,
	moneyOperationsPerFile,
	OUTCOME_UNKNOWN,
	type MoneyOperation,
} from '../harness/moneyOperations';

const ops = moneyOperationsPerFile('money safety');
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;
const requests = (op: MoneyOperation) => op.setup.gw.stats().requestsByPath;
const creates = (op: MoneyOperation) => requests(op)[`POST ${op.createPath}`] ?? 0;
const login = (op: MoneyOperation) =>
	SANDBOX_CREDENTIALS[op.name === 'Generate' ? 'collection' : 'disbursement'];

/** A credential of its own, so the run starts without a stored token. */
function freshCredential(op: MoneyOperation, data: IDataObject = {}): string {
	return op.setup.store.add(op.credentialType, {
		environment: 'sandbox',
		baseUrl: op.setup.gw.url,
		...login(op),
		...data,
	}).id;
}

async function runWith(
	op: MoneyOperation,
	parameters: INodeParameters,
	items: IDataObject[],
	options: { onError?: OnError; credentialId?: string } = {},
) {
	const runner = op.name === 'Generate' ? collection.run : disbursement.run;
	return await runner(op.setup as never, parameters, { items, ...options });
}

function fault(
	op: MoneyOperation,
	where: 'create' | 'lookup' | 'token',
	rule: Omit<FaultRule, 'path' | 'method'>,
): void {
	const path = { create: op.createPath, lookup: op.lookupPath, token: op.tokenPath }[where];
	op.setup.gw.faults.add({ method: where === 'lookup' ? 'GET' : 'POST', path, ...rule });
}

/** The field a record of this kind states its amount in (2.2: a transaction's subtotal). */
const amountField = (op: MoneyOperation) =>
	op.noun === 'transaction' ? 'subtotal_amount' : 'amount';

describe('1. a safety limit that cannot be read stops the node before anything is sent', () => {
	const payout = () => ops['Payout Create'];
	const unreadable: Array<[string, string | number, string]> = [
		['"20,000"', '20,000', '"20,000"'],
		['"₱20,000"', '₱20,000', '"₱20,000"'],
		['"abc"', 'abc', '"abc"'],
		['-1', -1, '"-1"'],
		['0', 0, '"0"'],
		['an expression that comes out empty', '={{ $json.noSuchColumn }}', 'empty'],
		['an expression that comes out as empty text', '={{ "" }}', 'empty'],
	];

	test.each(unreadable)(
		'%s, without continue-on-fail: the node fails naming the option',
		async (_name, cap, shown) => {
			const op = payout();
			const result = await op.run(op.parameters({ maxAmountPerPayout: cap }), [
				op.row(ref('CAP'), 45000),
				op.row(ref('CAP'), 100),
			]);
			expect(result.outputs).toEqual([]);
			expect(result.error?.message).toBe(
				`Maximum per Payout is ${shown}, not a positive number: nothing was sent`,
			);
			expect(requests(op)).toEqual({});
		},
	);

	test.each(unreadable)(
		'%s, with continue-on-fail: every row says it was not sent',
		async (_name, cap, shown) => {
			const op = payout();
			const result = await op.run(
				op.parameters({ maxAmountPerPayout: cap }),
				[op.row(ref('CAP'), 45000), op.row(ref('CAP'), 100)],
				'continueRegularOutput',
			);
			expect(result.outputs[0].map((item) => item.json.error)).toEqual(
				[1, 2].map(
					(row) =>
						`Not sent, because the run stopped: Maximum per Payout is ${shown}, not a positive number: nothing was sent (row ${row})`,
				),
			);
			expect(requests(op)).toEqual({});
		},
	);

	test('a readable limit (number or plain text) refuses the larger payout only', async () => {
		const op = payout();
		for (const cap of [20000, '20000']) {
			const refs = [ref('CAP-OK'), ref('CAP-OK')];
			const result = await op.run(
				op.parameters({ maxAmountPerPayout: cap }),
				[op.row(refs[0], 45000), op.row(refs[1], 15000)],
				'continueRegularOutput',
			);
			expect(result.outputs[0][0].json.error).toBe(
				"Amount 45000 is above the Maximum per Payout (20,000) set in this node's options (row 1)",
			);
			expect(result.outputs[0][1].json).toMatchObject({
				reference_no: refs[1],
				amount: 15000,
				replayed: false,
			});
			expect(op.setup.gw.stats().attemptsByReference[refs[0]]).toBeUndefined();
		}
	});
});

describe('2. without continue-on-fail nothing is started after a failure is known', () => {
	test.each(NAMES)(
		'%s: a bad row 25 of 40 at concurrency 8 stops the run there, and the message names the row',
		async (name) => {
			const op = ops[name];
			const rows = Array.from({ length: 40 }, (_, i) =>
				op.row(ref('STOP'), 10 + i, i === 24 ? { amount: 'x' } : {}),
			);
			const result = await op.run(op.parameters({ concurrency: 8 }), rows);
			expect(result.error?.message).toBe('Amount "x" is not a number (row 25)');
			const attempted = Object.keys(op.setup.gw.stats().attemptsByReference).sort();
			expect(attempted).toEqual(
				rows
					.slice(0, 24)
					.map((row) => String(row.ref))
					.sort(),
			);
		},
	);
});

describe.each(NAMES)('3. %s: a 2xx is success only when it confirms this request', (name) => {
	const op = () => ops[name];

	test.each<[string, unknown, string]>([
		[
			'data: null with the reason',
			{ message: 'Insufficient wallet balance', data: null },
			'no record in the answer',
		],
		['data: {}', { message: 'OK', data: {} }, 'the record has no reference_no'],
		[
			'a record of another reference',
			{ message: 'OK', data: { reference_no: 'SOMEONE-ELSE', amount: 10 } },
			'the record is for reference_no "SOMEONE-ELSE"',
		],
		[
			'a record of this reference for another amount',
			{ message: 'OK', data: { reference_no: '{{reference_no}}', amount: 99999 } },
			'the record is for amount 99999, not 10',
		],
	])(
		'%s, nothing found: the outcome is not known yet, with what the service said',
		async (_what, body, problem) => {
			const reference = ref('BODY');
			fault(op(), 'create', { mode: 'error-before', status: 200, body, times: 1 });
			const result = await op().run(
				op().parameters(),
				[op().row(reference, 10)],
				'continueRegularOutput',
			);
			const said = (body as IDataObject).message
				? ` The service said: "${String((body as IDataObject).message)}".`
				: '';
			expect(result.outputs[0].map((item) => item.json)).toEqual([
				{
					error: `${OUTCOME_UNKNOWN(op().noun, reference, `the service answered without confirming it (${problem})`, said)} (row 1)`,
					errorDetails: CHECK_THEN_SAME_REFERENCE(op().noun),
					itemIndex: 0,
				},
			]);
			// Looked up once, never sent again.
			expect(op().setup.gw.stats().attemptsByReference[reference]).toBe(1);
			expect(requests(op())[`GET ${op().lookupPath}`]).toBe(1);
			expect(op().record(reference)).toBeUndefined();
		},
	);

	test('the wrong body after the work was done: the look-up proves the record, and the item says what it recovered from', async () => {
		const reference = ref('BODY-AFTER');
		fault(op(), 'create', {
			mode: 'error-after',
			status: 200,
			body: { message: 'OK', data: { reference_no: 'SOMEONE-ELSE' } },
			times: 1,
		});
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.outputs[0].map((item) => item.json)).toEqual([
			{
				...(op().record(reference) as IDataObject),
				replayed: false,
				recoveredAfter: `the service answered without confirming the ${op().noun} (the record is for reference_no "SOMEONE-ELSE")`,
			},
		]);
		expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
	});
});

describe.each(NAMES)('4. %s: a replay is claimed only for a record that matches', (name) => {
	const op = () => ops[name];

	/** Creates the record, then makes the look-up show it with these fields changed. */
	async function existingShownAs(change: (record: IDataObject) => IDataObject): Promise<string> {
		const reference = ref('SHOWN');
		const first = await op().run(op().parameters(), [op().row(reference, 1000)]);
		expect(first.error).toBeUndefined();
		const shown = change({ ...(op().record(reference) as IDataObject) });
		fault(op(), 'lookup', {
			mode: 'error-before',
			status: 200,
			body: { message: '', data: { transactions: [shown] } },
			times: 1,
		});
		return reference;
	}

	test('an amount shown as "1,000.00" is the same amount: replayed', async () => {
		const reference = await existingShownAs((record) => ({
			...record,
			[amountField(op())]: '1,000.00',
		}));
		const result = await op().run(op().parameters(), [op().row(reference, 1000)]);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json).toMatchObject({
			reference_no: reference,
			[amountField(op())]: '1,000.00',
			replayed: true,
		});
		expect(result.outputs[0][0].json.recoveredAfter).toBeUndefined();
		expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
		expect(op().setup.gw.stats().attemptsByReference[reference]).toBe(2);
	});

	test('a record that shows no amount is a replay with the amount unconfirmed, never a conflict', async () => {
		const reference = await existingShownAs((record) => {
			const { amount: _amount, subtotal_amount: _subtotal, ...rest } = record;
			return rest;
		});
		const result = await op().run(
			op().parameters(),
			[op().row(reference, 1000)],
			'continueRegularOutput',
		);
		expect(result.outputs[0][0].json.error).toBeUndefined();
		expect(result.outputs[0][0].json).toMatchObject({
			reference_no: reference,
			replayed: true,
			unconfirmed: ['amount'],
		});
		expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
	});

	test('an amount off by one centavo is a conflict that says both amounts', async () => {
		const reference = await existingShownAs((record) => ({
			...record,
			[amountField(op())]: '1,000.01',
		}));
		const result = await op().run(
			op().parameters(),
			[op().row(reference, 1000)],
			'continueRegularOutput',
		);
		expect(result.outputs[0][0].json.error).toBe(
			`reference_no "${reference}" is already used for a different ${op().noun}: the existing ${op().noun} is for 1000.01, this item asks for 1000 (row 1)`,
		);
	});

	test("a record found after a lost answer is this run's own: replayed false, with what was recovered from", async () => {
		const reference = ref('LOST');
		fault(op(), 'create', { mode: 'error-after', status: 503, times: 1 });
		const result = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(result.outputs[0][0].json).toMatchObject({
			replayed: false,
			recoveredAfter: `The ${op().label} service answered HTTP 503. The service said: "Server Error"`,
		});
		const again = await op().run(op().parameters(), [op().row(reference, 10)]);
		expect(again.outputs[0][0].json).toMatchObject({ replayed: true });
		expect(again.outputs[0][0].json.recoveredAfter).toBeUndefined();
		expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
	});
});

describe.each(NAMES)('5. %s: a token that keeps being refused stops the node', (name) => {
	const op = () => ops[name];

	test.each<[string, OnError | undefined]>([
		['with continue-on-fail', 'continueRegularOutput'],
		['without', undefined],
	])(
		'200 rows at concurrency 8, %s: no request after the refreshed token is refused',
		async (_how, onError) => {
			fault(op(), 'create', {
				mode: 'error-before',
				status: 401,
				body: { message: 'Unauthenticated.' },
			});
			const rows = Array.from({ length: 200 }, () => op().row(ref('REFUSED'), 10));
			const result = await op().run(op().parameters({ concurrency: 8 }), rows, onError);
			// Only the first wave went out: each at most twice (n8n resends once with a fresh token).
			expect(creates(op())).toBeLessThanOrEqual(16);
			expect(requests(op())[`POST ${op().tokenPath}`] ?? 0).toBeLessThanOrEqual(2);
			expect(requests(op())[`GET ${op().lookupPath}`]).toBeUndefined();
			const refused = `The ${op().label} credential was refused even after fetching a new token: check its Username, Password and Base URL`;
			if (!onError) {
				expect(result.outputs).toEqual([]);
				expect(result.error?.message).toBe(`${refused} (row 1)`);
				return;
			}
			const errors = result.outputs[0].map((item) => String(item.json.error));
			expect(errors).toHaveLength(200);
			expect(errors[0]).toBe(`${refused} (row 1)`);
			const notSent = errors.filter(
				(error, i) => error === `Not sent, because the run stopped: ${refused} (row ${i + 1})`,
			);
			expect(notSent.length).toBeGreaterThanOrEqual(200 - 8);
			expect(errors.every((error, i) => error.endsWith(`(row ${i + 1})`))).toBe(true);
		},
	);
});

describe.each(NAMES)(
	'7. %s: no secret reaches an output, an error or a message, even when the service echoes it',
	(name) => {
		const op = () => ops[name];

		test('a token endpoint error that repeats the password', async () => {
			// Another user name, so no token fetched moments ago for the same login is reused.
			const credentialId = freshCredential(op(), { username: `echo-${counter}` });
			fault(op(), 'token', {
				mode: 'error-before',
				status: 401,
				body: { message: 'Wrong password {{password}} for this user' },
			});
			const result = await runWith(op(), op().parameters(), [op().row(ref('ECHO-PW'), 10)], {
				onError: 'continueRegularOutput',
				credentialId,
			});
			expect(result.outputs[0][0].json.error).toBe(
				`The ${op().label} credential was refused: check Username and Password (the service said: "Wrong password [hidden] for this user") (row 1)`,
			);
			const tested = await testCredential(
				op().setup.store,
				op().credentialType,
				freshCredential(op(), { username: `other-${counter}` }),
			);
			expect(tested).toEqual({
				status: 'Error',
				message: `The ${op().label} credential was refused: check Username and Password (the service said: "Wrong password [hidden] for this user")`,
			});
		});

		test('a 422 that quotes the Authorization header', async () => {
			fault(op(), 'create', {
				mode: 'error-before',
				status: 422,
				body: {
					message: 'Bad header {{authorization}}',
					errors: { channel: ['Header was {{authorization}}'] },
				},
				times: 1,
			});
			const result = await op().run(
				op().parameters(),
				[op().row(ref('ECHO-422'), 10)],
				'continueRegularOutput',
			);
			expect(result.outputs[0][0].json).toMatchObject({
				error: 'The service rejected the request: channel: Header was Bearer [hidden] (row 1)',
				fieldErrors: { channel: ['Header was Bearer [hidden]'] },
			});
		});

		test('a record that carries the token back', async () => {
			const reference = ref('ECHO-REC');
			await op().run(op().parameters(), [op().row(reference, 10)]);
			const shown = {
				...(op().record(reference) as IDataObject),
				note: 'sent with {{authorization}}',
			};
			fault(op(), 'lookup', {
				mode: 'error-before',
				status: 200,
				body: { message: '', data: { transactions: [shown] } },
				times: 1,
			});
			const result = await op().run(op().parameters(), [op().row(reference, 10)]);
			expect(result.outputs[0][0].json).toMatchObject({
				replayed: true,
				note: 'sent with Bearer [hidden]',
			});
		});
	},
);

describe.each(NAMES)('8. %s: a 422 naming several fields reports every one', (name) => {
	const op = () => ops[name];

	test('with reference_no among them, what the reference belongs to is added, not put in their place', async () => {
		const reference = ref('MULTI');
		await op().run(op().parameters(), [op().row(reference, 1000)]);
		const channelField = op().noun === 'transaction' ? 'channel_code' : 'channel';
		const errors = {
			[channelField]: ['The selected channel is invalid.'],
			reference_no: ['The reference no has already been taken.'],
		};
		fault(op(), 'create', {
			mode: 'error-before',
			status: 422,
			body: { message: 'The given data was invalid.', errors },
			times: 1,
		});
		const result = await op().run(
			op().parameters(),
			[op().row(reference, 1000)],
			'continueRegularOutput',
		);
		const record = op().record(reference) as IDataObject;
		const channel =
			op().noun === 'transaction' ? (record.channel as IDataObject).code : record.channel;
		expect(result.outputs[0][0].json).toMatchObject({
			error:
				`The service rejected the request: ${channelField}: The selected channel is invalid.; reference_no: The reference no has already been taken.. ` +
				`Also, reference_no "${reference}" belongs to an existing ${op().noun} for 1000 on ${String(channel)}, status pending (row 1)`,
			fieldErrors: errors,
			httpCode: 422,
		});
		expect(result.outputs[0][0].json.replayed).toBeUndefined();
	});
});

describe.each(NAMES)('9. %s: a broken credential or item fails clearly', (name) => {
	const op = () => ops[name];

	test('a Base URL with user:pass@ is refused before any request', async () => {
		const baseUrl = op().setup.gw.url.replace('http://', 'http://someone:pass-in-url@');
		const credentialId = freshCredential(op(), { baseUrl });
		const result = await runWith(op(), op().parameters(), [op().row(ref('USERINFO'), 10)], {
			credentialId,
		});
		expect(result.error?.message).toBe(
			`The ${op().label} credential's Base URL must not contain a user name or password ("user:pass@"): put them in the Username and Password fields instead (row 1)`,
		);
		expect(requests(op())).toEqual({});
	});

	test('a token with a line break is the service\'s bad token, not "no answer"', async () => {
		const credentialId = freshCredential(op(), { username: `crlf-${counter}` });
		fault(op(), 'token', {
			mode: 'error-before',
			status: 200,
			body: {
				message: '',
				data: { token: 'abc\r\nX-Injected: 1', type: 'Bearer', expires_in: 3600 },
			},
		});
		const result = await runWith(op(), op().parameters(), [op().row(ref('CRLF'), 10)], {
			credentialId,
		});
		expect(result.error?.message).toBe(
			`The ${op().label} service answered the token request with a token that cannot be sent (it contains spaces, line breaks or control characters): ask the service for a valid token, or check the Base URL (row 1)`,
		);
		expect(creates(op())).toBe(0);
	});

	test('a throw while preparing one item fails that item only, with continue-on-fail', async () => {
		const refs = [ref('PREP'), ref('PREP')];
		const parameters = op().parameters({}, { referenceNo: '={{ $json.ref.toUpperCase() }}' });
		const result = await op().run(
			parameters,
			[op().row(refs[0], 10), op().row(refs[1], 10, { ref: undefined }), op().row(refs[1], 10)],
			'continueRegularOutput',
		);
		const out = result.outputs[0].map((item) => item.json);
		expect(out[0]).toMatchObject({ reference_no: refs[0], replayed: false });
		expect(out[1]).toMatchObject({ itemIndex: 1 });
		expect(String(out[1].error)).toMatch(/\(row 2\)$/);
		expect(out[2]).toMatchObject({ reference_no: refs[1], replayed: false });
	});

	test("n8n's Engine 2.0 refusing the credential names the cause and the remedy", async () => {
		const refusal = jest
			.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted')
			.mockRejectedValue(
				new Error('Engine 2.0 does not support credentials with an expirable property yet'),
			);
		try {
			const result = await op().run(
				op().parameters(),
				[op().row(ref('ENGINE2'), 10), op().row(ref('ENGINE2'), 10)],
				'continueRegularOutput',
			);
			const errors = result.outputs[0].map((item) => String(item.json.error));
			expect(errors[0]).toBe(
				"n8n's Engine 2.0 does not support credentials with an expiring token yet, and both Payment Gateway credentials use one: run this workflow on engine v1 (set the workflow's engine back to v1), where the token is fetched and stored as usual (row 1)",
			);
			expect(errors[1]).toMatch(
				/^(Not sent, because the run stopped: )?n8n's Engine 2\.0 does not support/,
			);
			expect(requests(op())).toEqual({});
		} finally {
			refusal.mockRestore();
		}
	});
});
