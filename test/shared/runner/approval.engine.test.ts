/**
 * Payout > Prepare and Payout > Confirm: Prepare checks a row as Create does and sends nothing;
 * Confirm sends exactly what its approval token covers, once. A token with any signed field
 * changed, an expired token, one from another credential and a malformed one are refused with
 * nothing sent; confirming twice replays, never pays twice.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../../sandbox';
import {
	addCredential,
	bankRow,
	bankTransferParameters,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../../harness/disbursementRuns';
import { PAYOUT_PROCESS, PAYOUT_PROCESS_KEY } from '../../harness/servicePaths';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

const prepareParameters = (extra: INodeParameters = {}) =>
	bankTransferParameters({ operation: 'prepare', ...extra });
const confirmParameters = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'payout',
	operation: 'confirm',
	approvalToken: '={{ $json.token }}',
	options,
});

async function prepared(ref: string, extra: INodeParameters = {}): Promise<IDataObject> {
	const result = await run(s, prepareParameters(extra), { items: [bankRow(ref)] });
	expect(result.error).toBeUndefined();
	return jsonOf(result)[0];
}

async function confirm(token: unknown, credentialId?: string, options: INodeParameters = {}) {
	return await run(s, confirmParameters(options), {
		items: [{ token: token as string }],
		credentialId,
	});
}

const sentPayouts = () => s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0;

/** A token's summary and its signed part, `summary [pa4.payload.signature]`. */
function partsOf(token: string) {
	const [, summary, signed] = /^(.*) \[(pa4\.[^\]]+)\]$/.exec(token) ?? [];
	const [prefix, encoded, signature] = signed.split('.');
	return { summary, prefix, encoded, signature };
}

/** The token's payload, changed by `change`, put back with the original summary and signature. */
function tampered(token: string, change: (payload: IDataObject) => void): string {
	const { summary, prefix, encoded, signature } = partsOf(token);
	const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as IDataObject;
	change(payload);
	const signed = [prefix, Buffer.from(JSON.stringify(payload)).toString('base64url'), signature];
	return `${summary} [${signed.join('.')}]`;
}

/** Every leaf of an object, as a path of keys. */
function leaves(value: unknown, path: string[] = []): string[][] {
	if (value && typeof value === 'object' && !Array.isArray(value))
		return Object.entries(value).flatMap(([key, entry]) => leaves(entry, [...path, key]));
	return [path];
}

function changeLeaf(payload: IDataObject, path: string[]): void {
	const parent = path.slice(0, -1).reduce((at, key) => at[key] as IDataObject, payload);
	const key = path[path.length - 1];
	const value = parent[key];
	parent[key] =
		typeof value === 'number' ? value + 1 : typeof value === 'string' ? `${value}9` : 'changed';
}

test('Prepare checks the row, sends nothing that moves money, and shows what a person approves', async () => {
	const out = await prepared('AP-PREP-1');
	expect(sentPayouts()).toBe(0);
	const summary =
		'Pay PHP 1,500.00 to account number 001234567890 at bank code BDO, over INSTAPAY, reference AP-PREP-1 (Sandbox). Bank name as listed: "BDO Unibank, Inc.". Account name as given: "Juan Dela Cruz"';
	expect(out).toMatchObject({
		sent: false,
		reference_no: 'AP-PREP-1',
		amount: 1500,
		channel: 'INSTAPAY',
		recipient: {
			kind: 'bankAccount',
			channel: 'INSTAPAY',
			bankCode: 'BDO',
			accountNumber: '001234567890',
			bankName: 'BDO Unibank, Inc.',
		},
		summary,
	});
	expect(String(out.approvalToken).startsWith(`${summary} [pa4.`)).toBe(true);
	const minutes = (Date.parse(String(out.expiresAt)) - Date.now()) / 60_000;
	expect(minutes).toBeGreaterThan(14);
	expect(minutes).toBeLessThanOrEqual(15);
});

test('Prepare refuses a row Create would refuse, with every problem at once', async () => {
	const result = await run(s, prepareParameters(), {
		items: [bankRow('AP-PREP-BAD', { amount: -5, accountNumber: '' })],
	});
	expect(result.error?.message).toMatch(/Amount/);
	expect(result.error?.message).toMatch(/[Aa]ccount/);
	expect(sentPayouts()).toBe(0);
});

test('Prepare gives one token per row, and its validity is configurable', async () => {
	const result = await run(s, prepareParameters({ options: { approvalValidMinutes: 2 } }), {
		items: [bankRow('AP-MANY-1'), bankRow('AP-MANY-2', { amount: 20 })],
	});
	const out = jsonOf(result);
	expect(out.map((item) => item.reference_no)).toEqual(['AP-MANY-1', 'AP-MANY-2']);
	expect(out[0].approvalToken).not.toBe(out[1].approvalToken);
	expect(Date.parse(String(out[0].expiresAt)) - Date.now()).toBeLessThanOrEqual(120_000);
	expect(sentPayouts()).toBe(0);
});

test('Confirm sends exactly the body Create would send, once; a second Confirm is a replay', async () => {
	const created = await run(s, bankTransferParameters(), { items: [bankRow('AP-SAME-0')] });
	expect(created.error).toBeUndefined();
	const createBody = s.gw.lastRequestBody(PAYOUT_PROCESS) as IDataObject;

	const { approvalToken } = await prepared('AP-SAME-1');
	const first = await confirm(approvalToken);
	expect(first.error).toBeUndefined();
	expect(s.gw.lastRequestBody(PAYOUT_PROCESS)).toEqual({
		...createBody,
		reference_no: 'AP-SAME-1',
	});
	expect(jsonOf(first)[0]).toMatchObject({ reference_no: 'AP-SAME-1', replayed: false });

	const again = await confirm(approvalToken);
	expect(again.error).toBeUndefined();
	expect(jsonOf(again)[0]).toMatchObject({ reference_no: 'AP-SAME-1', replayed: true });
	expect(s.gw.stats().creationsByReference['AP-SAME-1']).toBe(1);
});

test('an e-wallet payout is confirmed the same way', async () => {
	const result = await run(s, eWalletParameters({ operation: 'prepare' }), {
		items: [{ ref: 'AP-EW-1', amount: 250, mobile: '0917 123 4567' }],
	});
	const out = jsonOf(result)[0];
	expect(out.summary).toBe(
		'Pay PHP 250.00 to e-wallet mobile number 09171234567 on GCASH, reference AP-EW-1 (Sandbox)',
	);
	const confirmed = await confirm(out.approvalToken);
	expect(jsonOf(confirmed)[0]).toMatchObject({ reference_no: 'AP-EW-1', amount: 250 });
	expect(s.gw.stats().creationsByReference['AP-EW-1']).toBe(1);
});

describe('a token with any signed field changed is refused, nothing sent', () => {
	let token = '';
	let paths: string[][] = [];
	beforeAll(async () => {
		freshStart(s);
		token = String(
			(await prepared('AP-TAMPER-1', { options: { endpointPath: PAYOUT_PROCESS } })).approvalToken,
		);
		const payload = JSON.parse(Buffer.from(partsOf(token).encoded, 'base64url').toString());
		paths = leaves(payload);
	});

	test('the token covers the body, the path, the channel type, the expiry, where it pays and the credential', () => {
		const names = paths.map((path) => path.join('.'));
		for (const name of [
			'send.body.amount',
			'send.body.channel',
			'send.body.reference_no',
			'send.body.fields.bank_code',
			'send.body.fields.receiver.account_number',
			'send.body.fields.receiver.account_name',
			'send.body.fields.sender.first_name',
			'send.endpoint',
			'send.pathOverride',
			'channelType',
			'expiresAt',
			'environment',
			'baseUrl',
			'credential',
			'bankName',
		])
			expect(names).toContain(name);
	});

	test('each field changed', async () => {
		for (const path of paths) {
			const result = await confirm(tampered(token, (payload) => changeLeaf(payload, path)));
			expect([path.join('.'), result.error?.message]).toEqual([
				path.join('.'),
				expect.stringMatching(/approval token .*nothing was sent/),
			]);
		}
		// A recipient added that Prepare never showed.
		const added = await confirm(
			tampered(token, (payload) => {
				const send = payload.send as IDataObject;
				(send.body as IDataObject).callback_webhook_url = 'http://127.0.0.1:9/elsewhere';
			}),
		);
		expect(added.error?.message).toMatch(/changed after it was prepared/);
		expect(sentPayouts()).toBe(0);
		expect(s.gw.stats().attemptsByReference['AP-TAMPER-1']).toBeUndefined();
	});

	test('the untouched token still pays', async () => {
		const result = await confirm(token);
		expect(result.error).toBeUndefined();
		expect(s.gw.stats().creationsByReference['AP-TAMPER-1']).toBe(1);
	});
});

test('an expired token is refused, nothing sent', async () => {
	const { approvalToken, expiresAt } = await prepared('AP-EXPIRED-1', {
		options: { approvalValidMinutes: 1 },
	});
	const now = Date.now;
	const later = Date.parse(String(expiresAt)) + 1;
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => Math.max(now(), later));
	try {
		const result = await confirm(approvalToken);
		expect(result.error?.message).toMatch(/expired at .*nothing was sent/);
	} finally {
		clock.mockRestore();
	}
	expect(sentPayouts()).toBe(0);
});

test('a token from another credential is refused, nothing sent', async () => {
	const { approvalToken } = await prepared('AP-OTHER-1');
	// The same login and Signing Secret in another credential, and one whose Signing Secret differs.
	const same = { signingSecret: SANDBOX_CREDENTIALS.signingSecret };
	for (const other of [
		addCredential(s, same),
		addCredential(s, { signingSecret: 'x'.repeat(32) }),
	]) {
		const result = await confirm(approvalToken, other);
		expect(result.error?.message).toMatch(/signed with another credential/);
	}
	expect(sentPayouts()).toBe(0);
});

test('text that is not a token is refused, nothing sent', async () => {
	for (const token of ['', 'abc', 'pa1.e30.x', 'pa1.!!!.x', 'pa4.e30.x', 'Pay 1 [pa4.!!!.x]']) {
		const result = await confirm(token);
		expect(result.error?.message).toMatch(/not one Payout > Prepare gave/);
	}
	expect(sentPayouts()).toBe(0);
});

test.each([
	[
		'pa2',
		'The approval token is of an earlier version ([pa2.…]) whose summary could be misread: nothing was sent (row 1)',
	],
	[
		'pa3',
		"The approval token is of an earlier version ([pa3.…]), made before the day's figures were signed with the payout: nothing was sent (row 1)",
	],
])(
	'a token of the earlier version %s is refused by name, saying why, nothing sent',
	async (version, message) => {
		const { approvalToken } = await prepared(`AP-EARLIER-${version}`);
		const earlier = String(approvalToken).replace(' [pa4.', ` [${version}.`);
		const result = await confirm(earlier);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toMatch(/Run Payout > Prepare again/);
		expect(sentPayouts()).toBe(0);
	},
);

test("Confirm's own Maximum per Payout and Allowed Recipients apply", async () => {
	const { approvalToken } = await prepared('AP-LIMIT-1');
	const capped = await confirm(approvalToken, undefined, { maxAmountPerPayout: 1000 });
	expect(capped.error?.message).toMatch(/above this node's Maximum per Payout/);
	const outside = await confirm(approvalToken, undefined, { allowedRecipients: 'BDO:0099*' });
	expect(outside.error?.message).toMatch(/not in this node's Allowed Recipients/);
	expect(sentPayouts()).toBe(0);
	const inside = await confirm(approvalToken, undefined, {
		allowedRecipients: 'BDO:0012*, 0917 000 0000',
	});
	expect(inside.error).toBeUndefined();
	expect(sentPayouts()).toBe(1);
});
