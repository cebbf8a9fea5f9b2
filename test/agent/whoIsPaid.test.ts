/**
 * Who is paid, through n8n's engine against the sandbox over HTTP: one recipient identity read from
 * the body sent decides Allowed Recipients, Prepare's summary, the token and the record checks. An
 * allow-list entry admits only its kind of recipient, an extra field cannot change who is paid, a
 * person approves the recipient in full, a token pays only where it was prepared and only with a
 * Signing Secret, a fact a record does not state is not a match, and a stored Dry Run is never
 * ignored.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../sandbox';
import {
	addCredential,
	bankRow,
	bankTransferParameters,
	DISBURSEMENT,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../harness/disbursementRuns';
import { PAYOUT_PROCESS_KEY } from '../harness/servicePaths';

const LOOKUP_PATH = '/v1/api/disbursement/transactions';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

const sentPayouts = () => s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0;

const allowing = (allowedRecipients: string, extra: INodeParameters = {}) => ({
	...extra,
	options: { allowedRecipients, ...((extra.options as IDataObject) ?? {}) },
});

async function bankPayout(ref: string, row: IDataObject, allowList: string) {
	return await run(s, bankTransferParameters(allowing(allowList)), {
		items: [bankRow(ref, row)],
	});
}

async function walletPayout(ref: string, mobile: string, allowList: string, extra = {}) {
	return await run(s, eWalletParameters(allowing(allowList, extra)), {
		items: [{ ref, amount: 100, mobile }],
	});
}

describe('rule 1: one recipient identity, compared as written', () => {
	test('an account entry admits exactly that account, not one with letters around its digits', async () => {
		for (const [i, accountNumber] of ['AB001234567890', '001234567890X'].entries()) {
			const result = await bankPayout(`WP-ACC-${i}`, { accountNumber }, 'BDO:001234567890');
			expect(result.error?.message).toMatch(
				new RegExp(`account number ${accountNumber} at bank BDO\\) is not in this node's Allowed`),
			);
		}
		expect(sentPayouts()).toBe(0);
		const exact = await bankPayout(
			'WP-ACC-OK',
			{ accountNumber: '0012-3456-7890' },
			'BDO:001234567890',
		);
		expect(exact.error).toBeUndefined();
		expect(sentPayouts()).toBe(1);
	});

	test('a mobile-number entry never admits a bank account with the same digits', async () => {
		for (const [i, accountNumber] of ['639171234567', '09171234567'].entries()) {
			const result = await bankPayout(`WP-MOB-${i}`, { accountNumber }, '09171234567');
			expect(result.error?.message).toMatch(/not in this node's Allowed Recipients/);
		}
		expect(sentPayouts()).toBe(0);
	});

	test('an account entry never admits an e-wallet payout to a number with the same digits', async () => {
		const result = await walletPayout('WP-MOB-W', '09171234567', 'ANY:09171234567');
		expect(result.error?.message).toMatch(/mobile number 09171234567\) is not in/);
		expect(sentPayouts()).toBe(0);
	});

	test('an entry tied to a bank admits the account at that bank only', async () => {
		const other = await bankPayout('WP-BANK-BPI', { bank: 'BPI' }, 'BDO:001234567890');
		expect(other.error?.message).toMatch(/account number 001234567890 at bank BPI\) is not in/);
		expect(sentPayouts()).toBe(0);
		const same = await bankPayout('WP-BANK-BDO', { bank: 'BDO' }, 'bdo: 0012 3456 7890');
		expect(same.error).toBeUndefined();
		expect(sentPayouts()).toBe(1);
	});
});

describe('rule 2: Channel Fields (JSON) cannot change who is paid', () => {
	test('an e-wallet payout with an account number in its extra fields is refused, naming it', async () => {
		const extra = { extraChannelFields: '{"receiver": {"account_number": "001234567890"}}' };
		for (const operation of ['create', 'prepare']) {
			const result = await walletPayout('WP-EXTRA-1', '09998887777', 'BDO:001234567890', {
				...extra,
				operation,
			});
			expect(result.error?.message).toMatch(
				/fields\.receiver\.account_number is not a recipient field of e-wallet payouts/,
			);
		}
		expect(sentPayouts()).toBe(0);
	});

	test('a bank transfer with a mobile number in its extra fields, however spelled, is refused', async () => {
		for (const [i, extra] of [
			'{"mobile_number": "09171234567"}',
			'{"receiver": {"accountNumber": "999"}}',
			'{"sender": {"Bank-Code": "BPI"}}',
		].entries()) {
			const result = await run(s, bankTransferParameters({ extraChannelFields: extra }), {
				items: [bankRow(`WP-EXTRA-B${i}`)],
			});
			expect(result.error?.message).toMatch(/is not a recipient field of bank transfers/);
		}
		expect(sentPayouts()).toBe(0);
	});
});

describe('rule 3: Allowed Recipients entries say what kind of recipient they are', () => {
	test('a mobile pattern works in every written form', async () => {
		for (const [i, entry] of ['+63 917*', '63917*', '0917*', '(0917) 123-4567'].entries()) {
			const result = await walletPayout(`WP-FORM-${i}`, '09171234567', entry);
			expect([entry, result.error?.message]).toEqual([entry, undefined]);
		}
		expect(sentPayouts()).toBe(4);
	});

	test('an entry that is neither stops the node before anything is sent, naming it', async () => {
		for (const entry of ['0917*, juan@example.com', '*', 'BDO:', '0917+1']) {
			const result = await run(s, eWalletParameters(allowing(entry)), {
				items: [
					{ ref: 'WP-BAD-1', amount: 100, mobile: '09171234567' },
					{ ref: 'WP-BAD-2', amount: 100, mobile: '09171234567' },
				],
				onError: 'continueRegularOutput',
			});
			const message = String(result.error?.message ?? jsonOf(result)[0]?.error);
			expect([entry, message]).toEqual([
				entry,
				expect.stringMatching(/Allowed Recipients has an entry that is neither .*Nothing was sent/),
			]);
		}
		expect(sentPayouts()).toBe(0);
	});
});

describe('rule 3b: an account number in Allowed Recipients names its bank', () => {
	const withoutBank = (entry: string, number = entry) =>
		`Allowed Recipients has an account number without its bank: "${entry}". Write it with its bank code, as BDO:${number}, or as ANY:${number} for that number at any bank. Nothing was sent`;

	/** A bank transfer to 001234567890 at `bank`, each row's values read from its own columns (version 2's default). */
	async function autoMappedPayout(ref: string, bank: string, allowList: string) {
		return await run(
			s,
			{
				resource: 'payout',
				operation: 'create',
				channelType: 'bankTransfer',
				channel: 'INSTAPAY',
				options: { allowedRecipients: allowList },
			},
			{
				typeVersion: 2,
				items: [
					{
						reference_no: ref,
						amount: 1500,
						bank_code: bank,
						sender_first_name: 'Maria',
						sender_last_name: 'Santos',
						receiver_account_name: 'Juan Dela Cruz',
						receiver_account_number: '001234567890',
					},
				],
			},
		);
	}

	test.each([
		['001234567890', '001234567890'],
		['0012 3456 7890', '0012 3456 7890'],
		['0012*', '0012*'],
		['account:001234567890', '001234567890'],
	])(
		'%j stops Create before anything is sent, saying how to write it, even for that very account',
		async (entry, number) => {
			const ref = `WP-NOBANK-${entry.replace(/\W/g, '')}`;
			const manual = await bankPayout(`${ref}-M`, {}, entry);
			expect(manual.error?.message).toBe(withoutBank(entry, number));
			const automatic = await autoMappedPayout(`${ref}-A`, 'BDO', entry);
			expect(automatic.error?.message).toBe(withoutBank(entry, number));
			expect(sentPayouts()).toBe(0);
		},
	);

	test('an account number without its bank stops Prepare and Confirm too, with nothing sent', async () => {
		const prepared = await run(s, bankTransferParameters({ operation: 'prepare' }), {
			items: [bankRow('WP-NOBANK-TOKEN')],
		});
		const { approvalToken } = jsonOf(prepared)[0];
		expect(String(approvalToken)).toMatch(/^Pay PHP 1,500\.00 to account number 001234567890 /);
		const prepare = await run(
			s,
			bankTransferParameters({ operation: 'prepare', ...allowing('001234567890') }),
			{ items: [bankRow('WP-NOBANK-PREPARE')] },
		);
		expect(prepare.error?.message).toBe(withoutBank('001234567890'));
		const confirm = await run(s, confirmParameters({ allowedRecipients: '001234567890' }), {
			items: [{ token: String(approvalToken) }],
		});
		expect(confirm.error?.message).toBe(withoutBank('001234567890'));
		expect(sentPayouts()).toBe(0);
		expect(s.gw.getPayout('WP-NOBANK-TOKEN')).toBeUndefined();
	});

	test('BDO:… admits the account at BDO only; ANY:… at any bank (fields mapped by hand)', async () => {
		const elsewhere = await bankPayout('WP-TIED-BPI', { bank: 'BPI' }, 'BDO:001234567890');
		expect(elsewhere.error?.message).toMatch(/account number 001234567890 at bank BPI\) is not in/);
		expect(sentPayouts()).toBe(0);
		const atBdo = await bankPayout('WP-TIED-BDO', { bank: 'BDO' }, 'BDO:001234567890');
		expect(atBdo.error).toBeUndefined();
		for (const bank of ['BDO', 'BPI']) {
			const any = await bankPayout(`WP-ANY-${bank}`, { bank }, 'ANY:001234567890');
			expect([bank, any.error?.message]).toEqual([bank, undefined]);
		}
		expect(sentPayouts()).toBe(3);
		expect(s.gw.getPayout('WP-ANY-BPI')).toMatchObject({
			fields: { bank_code: 'BPI', receiver: { account_number: '001234567890' } },
		});
	});

	test('the same with input columns mapped automatically', async () => {
		const elsewhere = await autoMappedPayout('WP-AUTO-BPI', 'BPI', 'BDO:001234567890');
		expect(elsewhere.error?.message).toMatch(/account number 001234567890 at bank BPI\) is not in/);
		expect(sentPayouts()).toBe(0);
		const atBdo = await autoMappedPayout('WP-AUTO-BDO', 'BDO', 'BDO:001234567890');
		expect(atBdo.error).toBeUndefined();
		const any = await autoMappedPayout('WP-AUTO-ANY', 'BPI', 'ANY:001234567890');
		expect(any.error).toBeUndefined();
		expect(sentPayouts()).toBe(2);
	});
});

describe('rule 4: a person approves the recipient in full', () => {
	test('two accounts ending alike, and two mobile numbers alike at both ends, read apart', async () => {
		const prepare = bankTransferParameters({ operation: 'prepare' });
		const accounts = await run(s, prepare, {
			items: [bankRow('WP-SUM-1'), bankRow('WP-SUM-2', { accountNumber: '999999997890' })],
		});
		const [first, second] = jsonOf(accounts).map((item) => String(item.summary));
		expect(first).toContain('account number 001234567890');
		expect(second).toContain('account number 999999997890');
		const mobiles = await run(s, eWalletParameters({ operation: 'prepare' }), {
			items: [
				{ ref: 'WP-SUM-3', amount: 5, mobile: '09171234567' },
				{ ref: 'WP-SUM-4', amount: 5, mobile: '09179994567' },
			],
		});
		expect(jsonOf(mobiles).map((item) => item.summary)).toEqual([
			'Pay PHP 5.00 to e-wallet mobile number 09171234567 on GCASH, reference WP-SUM-3 (Sandbox)',
			'Pay PHP 5.00 to e-wallet mobile number 09179994567 on GCASH, reference WP-SUM-4 (Sandbox)',
		]);
		expect(sentPayouts()).toBe(0);
	});

	test('Dry Run stays masked', async () => {
		const result = await run(s, bankTransferParameters({ options: { dryRun: true } }), {
			items: [bankRow('WP-DRY-1')],
		});
		expect(jsonOf(result)[0]).toMatchObject({ payee: 'BDO ••••••••7890' });
	});
});

const confirmParameters = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'payout',
	operation: 'confirm',
	approvalToken: '={{ $json.token }}',
	options,
});

async function prepareWallet(ref: string, mobile: string, credentialId?: string) {
	const result = await run(s, eWalletParameters({ operation: 'prepare' }), {
		items: [{ ref, amount: 500, mobile }],
		credentialId,
	});
	return jsonOf(result)[0] ?? { error: result.error?.message };
}

async function confirm(token: unknown, credentialId?: string) {
	return await run(s, confirmParameters(), { items: [{ token: token as string }], credentialId });
}

describe('rule 5: what a review shows is what Confirm pays', () => {
	test('the token starts with its payout in words; a token read with another summary pays nothing', async () => {
		const shown = await prepareWallet('WP-REVIEW-SHOWN', '09171234567');
		const other = await prepareWallet('WP-REVIEW-OTHER', '09998887777');
		const token = String(other.approvalToken);
		expect(token.startsWith(`${String(other.summary)} [pa4.`)).toBe(true);
		const signed = token.slice(token.lastIndexOf(' [pa4.'));
		for (const forged of [
			`${String(shown.summary)}${signed}`,
			signed.trim().slice(1, -1),
			`${String(other.summary)}\n${String(shown.summary)}${signed}`,
		]) {
			const result = await confirm(forged);
			expect(result.error?.message).toMatch(/approval token .*nothing was sent/);
		}
		expect(sentPayouts()).toBe(0);
		const genuine = await confirm(token);
		expect(jsonOf(genuine)[0]).toMatchObject({ reference_no: 'WP-REVIEW-OTHER' });
		expect(s.gw.getPayout('WP-REVIEW-OTHER')).toMatchObject({
			fields: { mobile_number: '09998887777' },
		});
	});
});

describe('rule 6: a token pays only where it was prepared', () => {
	test('after its credential is switched to Production, or to another host or username, it is refused', async () => {
		const credentialId = addCredential(s, { signingSecret: SANDBOX_CREDENTIALS.signingSecret });
		const { approvalToken } = await prepareWallet('WP-ENV-1', '09171234567', credentialId);
		const data = s.store.data(DISBURSEMENT, credentialId);
		// localhost reaches the same sandbox: only the binding can refuse it.
		const production = {
			environment: 'production',
			baseUrl: s.gw.url.replace('127.0.0.1', 'localhost'),
		};
		for (const [change, refusal] of [
			[
				production,
				/prepared for Sandbox at http:\/\/127\.0\.0\.1:\d+, but this credential is now Production at http:\/\/localhost:\d+/,
			],
			[{ environment: 'production' }, /prepared for Sandbox .* now Production/],
			[{ username: `${String(data.username)}-other` }, /username or Signing Secret changed/],
		] as const) {
			s.store.update(DISBURSEMENT, credentialId, { ...data, ...change });
			const result = await confirm(approvalToken, credentialId);
			expect(result.error?.message).toMatch(refusal);
		}
		expect(sentPayouts()).toBe(0);
		s.store.update(DISBURSEMENT, credentialId, data);
		const back = await confirm(approvalToken, credentialId);
		expect(back.error).toBeUndefined();
		expect(sentPayouts()).toBe(1);
	});
});

describe('rule 9: approvals need a Signing Secret, never the password', () => {
	test('without one, Prepare and Confirm refuse naming the fix', async () => {
		const { approvalToken } = await prepareWallet('WP-NOSECRET-0', '09171234567');
		const secretless = addCredential(s, {});
		const prepared = await prepareWallet('WP-NOSECRET-1', '09171234567', secretless);
		expect(prepared.error).toMatch(/Approvals need the credential's Signing Secret/);
		const confirmed = await confirm(approvalToken, secretless);
		expect(confirmed.error?.message).toMatch(/Approvals need the credential's Signing Secret/);
		expect(sentPayouts()).toBe(0);
	});
});

describe('rule 7: a fact the record does not state is not stated, never a match nor a difference', () => {
	async function paidWithout(ref: string, without: string): Promise<void> {
		const paid = await run(s, eWalletParameters(), {
			items: [{ ref, amount: 100, mobile: '09171234567' }],
		});
		expect(paid.error).toBeUndefined();
		const record = { ...(s.gw.getPayout(ref) as IDataObject) };
		if (without === 'mobile number') record.fields = {};
		else delete record[without];
		s.gw.faults.add({
			method: 'GET',
			path: LOOKUP_PATH,
			mode: 'error-before',
			status: 200,
			body: { message: '', data: { transactions: [record] } },
			times: 1,
		});
	}

	test.each(['amount', 'channel', 'mobile number'])(
		'Reconcile: a record with no %s lists it as unconfirmed, not as a mismatch',
		async (without) => {
			const ref = `WP-REC-${without.replace(' ', '-')}`;
			await paidWithout(ref, without);
			const result = await run(
				s,
				{ resource: 'payout', operation: 'reconcile', mappingMode: 'autoMapInputData' },
				{
					items: [
						{ reference_no: ref, amount: 100, channel: 'GCASH', mobileNumber: '09171234567' },
					],
				},
			);
			const [row, summary] = jsonOf(result);
			expect(row.mismatches).toEqual([]);
			expect(row.unconfirmed).toEqual([without]);
			expect(summary).toMatchObject({ mismatched: 0, unconfirmed: 1 });
		},
	);

	test("Create's same-intent check: a record with no channel is a replay with the channel unconfirmed", async () => {
		await paidWithout('WP-REPLAY-1', 'channel');
		const again = await run(s, eWalletParameters(), {
			items: [{ ref: 'WP-REPLAY-1', amount: 100, mobile: '09171234567' }],
		});
		expect(again.error).toBeUndefined();
		expect(jsonOf(again)[0]).toMatchObject({ replayed: true, unconfirmed: ['channel'] });
		expect(s.gw.stats().creationsByReference['WP-REPLAY-1']).toBe(1);
	});

	test("Create's same-intent check: a record stating another mobile number is still a conflict", async () => {
		const paid = await run(s, eWalletParameters(), {
			items: [{ ref: 'WP-REPLAY-2', amount: 100, mobile: '09171234567' }],
		});
		expect(paid.error).toBeUndefined();
		const again = await run(s, eWalletParameters(), {
			items: [{ ref: 'WP-REPLAY-2', amount: 100, mobile: '09181234567' }],
		});
		expect(again.error?.message).toMatch(
			/reference_no "WP-REPLAY-2" is already used for a different payout: the existing payout pays mobile number 09171234567, this item asks for 09181234567/,
		);
		expect(s.gw.stats().creationsByReference['WP-REPLAY-2']).toBe(1);
	});
});

describe('rule 8: a stored Dry Run is never ignored', () => {
	test('a version-2 Create still holding Options > Dry Run stops, naming it; nothing is paid', async () => {
		const result = await run(
			s,
			{
				...eWalletParameters({
					runMode: 'pay',
					mappingMode: 'defineBelow',
					options: { dryRun: true },
				}),
			},
			{ items: [{ ref: 'WP-V1DRY-1', amount: 100, mobile: '09171234567' }], typeVersion: 2 },
		);
		expect(result.error?.message).toMatch(
			/Options hold Dry Run \("true"\), which this node does not read/,
		);
		expect(sentPayouts()).toBe(0);
		const checkOnly = await run(
			s,
			{
				...eWalletParameters({
					runMode: 'dryRun',
					mappingMode: 'defineBelow',
					options: { dryRun: true },
				}),
			},
			{ items: [{ ref: 'WP-V1DRY-2', amount: 100, mobile: '09171234567' }], typeVersion: 2 },
		);
		expect(jsonOf(checkOnly)[0]).toMatchObject({ dryRun: true, wouldSend: true });
		expect(sentPayouts()).toBe(0);
	});

	test('Confirm holding Options > Dry Run stops too', async () => {
		const { approvalToken } = await prepareWallet('WP-V1DRY-3', '09171234567');
		const result = await run(s, confirmParameters({ dryRun: true }), {
			items: [{ token: String(approvalToken) }],
		});
		expect(result.error?.message).toMatch(/Options hold Dry Run/);
		expect(sentPayouts()).toBe(0);
	});
});
