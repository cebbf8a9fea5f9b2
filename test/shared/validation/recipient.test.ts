/** Who a payout pays, read once from the body that is sent (nodes/shared/validation/recipient.ts). */
import {
	comparableAccount,
	comparableCode,
	comparableMobile,
	maskedRecipient,
	readRecipient,
	recipientFacts,
	recipientInFull,
	recordRecipientValue,
	strayRecipientFields,
	type Recipient,
} from '../../../nodes/shared/validation/recipient';

const bank: Recipient = {
	kind: 'bankAccount',
	channel: 'INSTAPAY',
	bankCode: 'BDO',
	accountNumber: '001234567890',
};
const wallet: Recipient = { kind: 'mobile', channel: 'GCASH', mobileNumber: '09171234567' };

describe('comparableMobile', () => {
	test.each([
		['09171234567'],
		['+639171234567'],
		['639171234567'],
		['+63 917 123 4567'],
		['63 917 123 4567'],
		['0917-123-4567'],
		['(0917) 123-4567'],
		['+63 (917) 123-4567'],
		[639171234567],
	])('%j is 09171234567', (value) => {
		expect(comparableMobile(value)).toBe('09171234567');
	});

	test.each([
		['0917123456'],
		['091712345678'],
		['08171234567'],
		['+6309171234567'],
		['0917.123.4567'],
		[9171234567],
		[''],
		[null],
		[undefined],
		[{}],
		[true],
	])('%j is not a mobile number', (value) => {
		expect(comparableMobile(value)).toBeUndefined();
	});
});

describe('comparableAccount', () => {
	test.each([
		['001234567890', '001234567890'],
		['0012-3456 7890', '001234567890'],
		[' 12 ', '12'],
		['ab12', 'ab12'],
		[1234, '1234'],
	])('%j is %j', (value, account) => {
		expect(comparableAccount(value)).toBe(account);
	});

	test.each([[''], ['12/34'], ['12.34'], ['(1234)'], [1.5], [2 ** 53], [null], [undefined], [{}]])(
		'%j is not an account number',
		(value) => {
			expect(comparableAccount(value)).toBeUndefined();
		},
	);
});

describe('comparableCode', () => {
	test.each([
		[' bdo ', 'BDO'],
		['GCash', 'GCASH'],
		['instapay', 'INSTAPAY'],
		// ASCII letters only: the long s and the dotless i stay what they are.
		['gca\u017fh', 'GCA\u017fH'],
		['bp\u0131', 'BP\u0131'],
	])('%j is %j', (value, code) => {
		expect(comparableCode(value)).toBe(code);
	});

	test.each([[''], ['   '], [5], [null], [undefined], [{}]])('%j is no code', (value) => {
		expect(comparableCode(value)).toBeUndefined();
	});
});

const BANK_USES = 'who is paid is fields.bank_code and fields.receiver.account_number';
const WALLET_USES = 'who is paid is fields.mobile_number';

describe('strayRecipientFields', () => {
	test.each([
		[{ mobile_number: '09171234567' }, 'eWallet'],
		[{ mobile_number: '09171234567', notes: 'rent', email: 'a@b.ph' }, 'eWallet'],
		[{ bank_code: 'BDO', receiver: { account_number: '1', account_name: 'Juan' } }, 'bankTransfer'],
		[
			{ bank_code: 'BDO', receiver: { account_number: '1', mobile_number: '09171234567' } },
			'bankTransfer',
		],
		[{ bank_code: 'BDO', account: 'savings' }, 'bankTransfer'],
		[undefined, 'eWallet'],
		['text', 'bankTransfer'],
	] as const)('%j holds no stray recipient field for %s', (fields, channelType) => {
		expect(strayRecipientFields(fields, channelType)).toEqual([]);
	});

	test.each([
		[{ mobile_number: '0917', account_number: '1' }, 'eWallet', 'account_number'],
		[{ mobile_number: '0917', accountNumber: '1' }, 'eWallet', 'accountNumber'],
		[{ mobile_number: '0917', 'ACCOUNT-NUMBER': '1' }, 'eWallet', 'ACCOUNT-NUMBER'],
		[{ mobile_number: '0917', account_no: '1' }, 'eWallet', 'account_no'],
		[{ mobile_number: '0917', bank_code: 'BDO' }, 'eWallet', 'bank_code'],
		[{ mobile_number: '0917', Bank: 'BDO' }, 'eWallet', 'Bank'],
		[{ mobile_number: '0917', wallet_id: 'w' }, 'eWallet', 'wallet_id'],
		[{ mobile_number: '0917', walletNumber: 'w' }, 'eWallet', 'walletNumber'],
		[{ mobile_number: '0917', wallet: 'w' }, 'eWallet', 'wallet'],
		[
			{ mobile_number: '0917', receiver: { account_number: '1' } },
			'eWallet',
			'receiver.account_number',
		],
		[{ mobile_number: '0917', extra: { deep: { msisdn: '1' } } }, 'eWallet', 'extra.deep.msisdn'],
		[{ bank_code: 'BDO', mobile_number: '0917' }, 'bankTransfer', 'mobile_number'],
		[{ bank_code: 'BDO', MOBILE: '0917' }, 'bankTransfer', 'MOBILE'],
		[{ bank_code: 'BDO', mobileNo: '0917' }, 'bankTransfer', 'mobileNo'],
		[{ bank_code: 'BDO', msisdn: '0917' }, 'bankTransfer', 'msisdn'],
		[{ bank_code: 'BDO', account_number: '1' }, 'bankTransfer', 'account_number'],
		[{ bank_code: 'BDO', bankCode: 'BPI' }, 'bankTransfer', 'bankCode'],
		[{ bank_code: 'BDO', receiver: { bank: 'BPI' } }, 'bankTransfer', 'receiver.bank'],
		// Lists are searched too: a recipient in one is still a recipient.
		[[{ mobile_number: '1' }], 'eWallet', '0.mobile_number'],
		[
			{ mobile_number: '0917', extra: [{ account_number: '1' }] },
			'eWallet',
			'extra.0.account_number',
		],
	] as const)('%j for %s: fields.%s is stray', (fields, channelType, path) => {
		const label = channelType === 'eWallet' ? 'e-wallet payouts' : 'bank transfers';
		const uses = channelType === 'eWallet' ? WALLET_USES : BANK_USES;
		expect(strayRecipientFields(fields, channelType)).toEqual([
			`fields.${path} is not a recipient field of ${label}: remove it from Channel Fields (JSON); ${uses}`,
		]);
	});

	test('every stray field is named, the recipient field itself too when nested under it', () => {
		expect(
			strayRecipientFields({ mobile_number: { account_number: '1' }, msisdn: '2' }, 'eWallet').map(
				(problem) => problem.split(' ')[0],
			),
		).toEqual(['fields.mobile_number.account_number', 'fields.msisdn']);
	});
});

describe('readRecipient', () => {
	test('an e-wallet payout pays its channel as sent and its mobile number in comparable form', () => {
		expect(
			readRecipient({ channel: 'gcash', fields: { mobile_number: '+63 917 123 4567' } }, 'eWallet'),
		).toEqual({ recipient: { ...wallet, channel: 'gcash' } });
	});

	test('a bank transfer pays its codes as sent, and its account number in comparable form', () => {
		expect(
			readRecipient(
				{
					channel: 'instapay',
					fields: {
						bank_code: 'bdo',
						receiver: { account_number: '0012-3456-7890', account_name: 'Juan' },
					},
				},
				'bankTransfer',
			),
		).toEqual({ recipient: { ...bank, channel: 'instapay', bankCode: 'bdo' } });
	});

	test.each([
		['GCA\u017fH', 'bdo', 'Channel "GCA\u017fH"'],
		['INSTAPAY', 'bp\u0131', 'Bank Code "bp\u0131"'],
		[' INSTAPAY', 'BDO', 'Channel "INSTAPAY" (with a blank at its start or end)'],
		['INSTAPAY', 'B\u00a0DO', 'Bank Code "B DO"'],
	])(
		'a code that is not printable ASCII (channel %j, bank code %j) is refused, named',
		(channel, bankCode, named) => {
			const read = readRecipient(
				{ channel, fields: { bank_code: bankCode, receiver: { account_number: '001234567890' } } },
				'bankTransfer',
			);
			expect(read).toEqual({
				problems: [
					`${named} is not a code the service issues (printable ASCII letters, digits and signs only, no blanks): choose it from the list, or type the code as the service spells it`,
				],
			});
		},
	);

	test.each([
		[
			{ channel: 'GCASH', fields: { mobile_number: '09171234567' } },
			'otc',
			['Channel Type "otc" is not one of bankTransfer, eWallet'],
		],
		[{ fields: { mobile_number: '09171234567' } }, 'eWallet', ['the payout has no channel']],
		[
			{ channel: '  ', fields: { mobile_number: '09171234567' } },
			'eWallet',
			['the payout has no channel'],
		],
		[
			{ channel: 'GCASH', fields: { mobile_number: '0917' } },
			'eWallet',
			['fields.mobile_number is not a Philippine mobile number'],
		],
		[{ channel: 'GCASH' }, 'eWallet', ['fields.mobile_number is not a Philippine mobile number']],
		[
			{ channel: 'GCASH', fields: { mobile_number: '09171234567', msisdn: '09181234567' } },
			'eWallet',
			[
				`fields.msisdn is not a recipient field of e-wallet payouts: remove it from Channel Fields (JSON); ${WALLET_USES}`,
			],
		],
		[
			{ channel: 'X', fields: { receiver: { account_number: '1' } } },
			'bankTransfer',
			['fields.bank_code is missing'],
		],
		[
			{ channel: 'X', fields: { bank_code: 'BDO' } },
			'bankTransfer',
			['fields.receiver.account_number is not an account number'],
		],
		[
			{ channel: 'X', fields: { bank_code: 'BDO', receiver: { account_number: '12.5' } } },
			'bankTransfer',
			['fields.receiver.account_number is not an account number'],
		],
		[
			{ fields: {} },
			'bankTransfer',
			[
				'the payout has no channel',
				'fields.bank_code is missing',
				'fields.receiver.account_number is not an account number',
			],
		],
		[
			{ channel: 'X', fields: { bank_code: 'BDO', account_number: '1' } },
			'bankTransfer',
			[
				`fields.account_number is not a recipient field of bank transfers: remove it from Channel Fields (JSON); ${BANK_USES}`,
				'fields.receiver.account_number is not an account number',
			],
		],
	] as const)('%j as %s cannot be read: %j', (body, channelType, problems) => {
		expect(readRecipient(body as never, channelType as never)).toEqual({ problems });
	});
});

describe('recipientFacts and recordRecipientValue', () => {
	test('a mobile recipient states its mobile number; a bank account its code and number', () => {
		expect(recipientFacts(wallet)).toEqual({ 'mobile number': '09171234567' });
		expect(recipientFacts(bank)).toEqual({
			'bank code': 'BDO',
			'account number': '001234567890',
		});
	});

	test.each([
		[{ fields: { receiver: { account_number: '1' } } }, 'receiver.account_number', '1'],
		[{ fields: { mobile_number: '0917' } }, 'mobile_number', '0917'],
		[{ fields: { receiver: 'x' } }, 'receiver.account_number', undefined],
		[{}, 'mobile_number', undefined],
		[undefined, 'mobile_number', undefined],
	])('%j at %s is %j', (record, path, value) => {
		expect(recordRecipientValue(record, path)).toBe(value);
	});
});

describe('maskedRecipient', () => {
	test.each([
		[bank, 'BDO ••••••••7890'],
		[wallet, '0917•••4567'],
		[{ ...bank, accountNumber: '123' }, 'BDO 123'],
		[{ ...bank, accountNumber: '1234' }, 'BDO 1234'],
		[{ ...bank, accountNumber: '12345' }, 'BDO •2345'],
		[{ ...bank, bankCode: 'BDO\u202e"' }, 'BDO{U+202E}{U+0022} ••••••••7890'],
	] as Array<[Recipient, string]>)('%j is shown as %s', (recipient, masked) => {
		expect(maskedRecipient(recipient)).toBe(masked);
	});
});

describe('recipientInFull', () => {
	test.each([
		[wallet, 'e-wallet mobile number 09171234567 on GCASH'],
		[bank, 'account number 001234567890 at bank code BDO, over INSTAPAY'],
		[
			{ ...bank, accountNumber: '9'.repeat(80) },
			`account number ${'9'.repeat(80)} at bank code BDO, over INSTAPAY`,
		],
		[
			{ ...wallet, channel: 'X'.repeat(50) },
			`e-wallet mobile number 09171234567 on ${'X'.repeat(39)}…`,
		],
		[
			{ ...bank, bankCode: 'BDO\u202e', channel: 'INSTAPAY\u201d' },
			'account number 001234567890 at bank code BDO{U+202E}, over INSTAPAY{U+201D}',
		],
	] as Array<[Recipient, string]>)('%j reads %s', (recipient, text) => {
		expect(recipientInFull(recipient)).toBe(text);
	});
});
