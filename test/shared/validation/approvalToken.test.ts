/** The approval token of Payout > Prepare and Confirm: signed, read back, and every change refused (nodes/shared/validation/approvalToken.ts). */
import { createHmac } from 'crypto';

import {
	approvalKey,
	approvalSummary,
	canonicalJson,
	credentialFingerprint,
	earlierApprovalVersion,
	environmentLabel,
	hasValidSignature,
	normalBaseUrl,
	readApprovalToken,
	signApproval,
	unshownCodes,
	type ApprovalBinding,
	type ApprovalPayload,
} from '../../../nodes/shared/validation/approvalToken';
import type { Recipient } from '../../../nodes/shared/validation/recipient';
import {
	bankSummaryParts,
	HOSTILE,
	IMITATING_NAMES,
	INVISIBLE_CHARACTERS,
	occurrences,
	QUOTATION_MARKS,
	writtenOut,
} from '../../harness/hostileText';

// scrypt is slow on purpose: each key is derived once for the file.
const key = approvalKey('signing secret', 'credential-1');
const otherSecret = approvalKey('another secret', 'credential-1');
const otherCredential = approvalKey('signing secret', 'credential-2');

const binding: ApprovalBinding = {
	environment: 'sandbox',
	baseUrl: 'https://sandbox.example.com',
	username: 'merchant',
};

const bankPayload: ApprovalPayload = {
	send: {
		endpoint: 'createPayout',
		body: {
			amount: 1250.5,
			reference_no: 'PAY-1',
			channel: 'INSTAPAY',
			fields: {
				bank_code: 'BDO',
				receiver: { account_number: '001234567890', account_name: 'Juan dela Cruz' },
			},
		},
	},
	channelType: 'bankTransfer',
	expiresAt: 1_900_000_000_000,
	environment: 'sandbox',
	baseUrl: 'https://sandbox.example.com',
	credential: credentialFingerprint(key, binding),
	bankName: 'BDO Unibank',
};
const walletPayload: ApprovalPayload = {
	send: {
		endpoint: 'createPayout',
		body: {
			amount: 500,
			reference_no: 'W-1',
			channel: 'GCASH',
			fields: { mobile_number: '+63 917 123 4567' },
		},
	},
	channelType: 'eWallet',
	expiresAt: 1_900_000_000_000,
	environment: 'production',
	baseUrl: 'https://api.example.com',
	credential: 'fingerprint',
};

const BANK_SUMMARY =
	'Pay PHP 1,250.50 to account number 001234567890 at bank code BDO, over INSTAPAY, reference PAY-1 (Sandbox). Bank name as listed: "BDO Unibank". Account name as given: "Juan dela Cruz"';

/** The bank payload with its receiver replaced. */
function withReceiver(receiver: Record<string, unknown>): ApprovalPayload {
	const { body } = bankPayload.send;
	const fields = { ...(body.fields as Record<string, unknown>), receiver };
	return { ...bankPayload, send: { ...bankPayload.send, body: { ...body, fields } } };
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sign = (signingKey: Buffer, encoded: string) =>
	createHmac('sha256', signingKey).update(`pa4.${encoded}`).digest('base64url');
/** A token for any payload text, signed with `signingKey` as signApproval signs. */
const forged = (summary: string, encoded: string, signingKey = key) =>
	`${summary} [pa4.${encoded}.${sign(signingKey, encoded)}]`;

/** What Confirm accepts: a whole token, signed with the key, whose summary is its payload's. */
function accepted(token: unknown, signingKey = key): boolean {
	const read = readApprovalToken(token);
	return (
		read !== undefined &&
		hasValidSignature(signingKey, read) &&
		read.summary === approvalSummary(read.payload)
	);
}

const token = signApproval(key, bankPayload);
const [, encodedPayload, signature] = /\[pa4\.([^.]+)\.([^\]]+)\]$/.exec(token)!;

describe('approvalSummary', () => {
	test.each([
		[bankPayload, BANK_SUMMARY],
		[
			walletPayload,
			'Pay PHP 500.00 to e-wallet mobile number 09171234567 on GCASH, reference W-1 (Production)',
		],
		[
			{ ...bankPayload, bankName: undefined },
			'Pay PHP 1,250.50 to account number 001234567890 at bank code BDO, over INSTAPAY, reference PAY-1 (Sandbox). Account name as given: "Juan dela Cruz"',
		],
		[
			withReceiver({ account_number: '001234567890' }),
			'Pay PHP 1,250.50 to account number 001234567890 at bank code BDO, over INSTAPAY, reference PAY-1 (Sandbox). Bank name as listed: "BDO Unibank"',
		],
		[
			{ ...walletPayload, bankName: 'BDO Unibank' },
			'Pay PHP 500.00 to e-wallet mobile number 09171234567 on GCASH, reference W-1 (Production)',
		],
		[
			{ ...walletPayload, environment: 'staging' },
			'Pay PHP 500.00 to e-wallet mobile number 09171234567 on GCASH, reference W-1 ("staging")',
		],
		[
			{
				...walletPayload,
				send: { ...walletPayload.send, body: { ...walletPayload.send.body, amount: '500' } },
			},
			'Pay "500" to e-wallet mobile number 09171234567 on GCASH, reference W-1 (Production)',
		],
		[
			{
				...walletPayload,
				send: { ...walletPayload.send, body: { ...walletPayload.send.body, amount: 50000 } },
			},
			'Pay PHP 50,000.00 to e-wallet mobile number 09171234567 on GCASH, reference W-1 (Production)',
		],
	] as Array<[ApprovalPayload, string]>)(
		'payload %# reads its summary in words',
		(payload, summary) => {
			expect(approvalSummary(payload)).toBe(summary);
		},
	);

	test.each([
		[{ ...walletPayload, channelType: 'bankTransfer' }],
		[{ ...walletPayload, channelType: 'otc' }],
		[
			{
				...walletPayload,
				send: { endpoint: 'createPayout', body: { channel: 'GCASH', fields: {} } },
			},
		],
		[
			{
				...bankPayload,
				send: { endpoint: 'createPayout', body: { fields: bankPayload.send.body.fields } },
			},
		],
	] as Array<[ApprovalPayload]>)(
		'payload %# names no readable recipient: no summary',
		(payload) => {
			expect(approvalSummary(payload)).toBeUndefined();
			expect(() => signApproval(key, payload)).toThrow(
				'The payout to approve names no readable recipient',
			);
		},
	);
});

describe("approvalSummary: the day's figures Prepare read", () => {
	const day = {
		day: '2026-11-28',
		timeZone: 'Asia/Manila',
		maximum: 5000,
		totalBefore: 1000,
		total: 2250.5,
		remaining: 2749.5,
	};
	const DAY_WORDS =
		'Today (2026-11-28, Asia/Manila) so far PHP 1,000.00 of PHP 5,000.00; after this payout PHP 2,250.50, PHP 2,749.50 left';

	test('stated after the payout and before the names, in plain words', () => {
		expect(approvalSummary({ ...bankPayload, dailyTotal: day })).toBe(
			BANK_SUMMARY.replace('(Sandbox). ', `(Sandbox). ${DAY_WORDS}. `),
		);
		expect(approvalSummary({ ...walletPayload, dailyTotal: day })).toBe(
			`Pay PHP 500.00 to e-wallet mobile number 09171234567 on GCASH, reference W-1 (Production). ${DAY_WORDS}`,
		);
	});

	test('text in them is shown as every text of a summary is, never quoting or reordering', () => {
		const summary = approvalSummary({
			...walletPayload,
			dailyTotal: { ...day, timeZone: 'Asia/Manila\u202e"), PHP 0.00' },
		})!;
		expect(summary).toContain('Today (2026-11-28, Asia/Manila{U+202E}{U+0022}), PHP 0.00) so far');
		expect(HOSTILE.test(summary)).toBe(false);
	});

	test('signed with the payout: figures changed in the payload or in the summary are refused', () => {
		const signed = signApproval(key, { ...walletPayload, dailyTotal: day });
		expect(accepted(signed)).toBe(true);
		const [, summary, part] = /^(.*) \[(pa4\.[^\]]+)\]$/.exec(signed)!;
		expect(accepted(`${summary.replace('so far PHP 1,000.00', 'so far PHP 0.00')} [${part}]`)).toBe(
			false,
		);
		const [, encoded, signatureOfDay] = part.split('.');
		const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as ApprovalPayload;
		payload.dailyTotal = { ...day, totalBefore: 0, total: 1250.5, remaining: 3749.5 };
		const changed = `${approvalSummary(payload)} [pa4.${Buffer.from(canonicalJson(payload)).toString('base64url')}.${signatureOfDay}]`;
		expect(accepted(changed)).toBe(false);
		const dropped = { ...payload, dailyTotal: undefined };
		expect(
			accepted(
				`${approvalSummary(dropped)} [pa4.${Buffer.from(canonicalJson(dropped)).toString('base64url')}.${signatureOfDay}]`,
			),
		).toBe(false);
	});

	test.each([
		['text', 'today'],
		['a list', [day]],
		['no day', { ...day, day: undefined }],
		['a time zone as a number', { ...day, timeZone: 8 }],
		['a figure as text', { ...day, remaining: '3000' }],
		['a figure that is not finite', { ...day, total: null }],
	])('a validly signed payload whose figures are %s: not read', (_, dailyTotal) => {
		expect(
			readApprovalToken(forged(BANK_SUMMARY, encode({ ...bankPayload, dailyTotal }))),
		).toBeUndefined();
	});
});

describe('approvalSummary: the names come last, after their labels, and read one way', () => {
	const FACTS =
		'Pay PHP 1,250.50 to account number 001234567890 at bank code BDO, over INSTAPAY, reference PAY-1 (Sandbox)';

	/** The summary of the bank payload with this account name and bank name, taken apart. */
	function partsWith(accountName: string, bankName = 'BDO Unibank') {
		const payload = {
			...withReceiver({ account_number: '001234567890', account_name: accountName }),
			bankName,
		};
		const summary = approvalSummary(payload)!;
		const parts = bankSummaryParts(summary);
		expect([summary, parts]).toEqual([summary, expect.anything()]);
		// One bank code, one channel, one environment: the facts', before any name.
		expect(parts!.facts).toBe(FACTS);
		expect(occurrences(parts!.facts, /bank code/)).toBe(1);
		expect(occurrences(parts!.facts, /, over /)).toBe(1);
		expect(occurrences(parts!.facts, /\((Sandbox|Production)\)/)).toBe(1);
		// Nothing of the input that reorders, hides or quotes is left, and only the labels' quotation marks are.
		expect(HOSTILE.test(parts!.accountName ?? '')).toBe(false);
		expect(HOSTILE.test(parts!.bankName ?? '')).toBe(false);
		expect(occurrences(summary, /"/)).toBe(4);
		expect(summary.endsWith(`. Account name as given: "${parts!.accountName}"`)).toBe(true);
		return parts!;
	}

	test.each(IMITATING_NAMES)('an account name with %s', (_, name, shown) => {
		expect(partsWith(name)).toEqual({ facts: FACTS, bankName: 'BDO Unibank', accountName: shown });
	});

	test.each([...INVISIBLE_CHARACTERS, ...QUOTATION_MARKS])(
		'an account name and a bank name holding %s',
		(_, char) => {
			const parts = partsWith(`Juan${char}Dela Cruz`, `BDO${char}Unibank`);
			expect(parts.accountName).toBe(`Juan${writtenOut(char)}Dela Cruz`);
			expect(parts.bankName).toBe(`BDO${writtenOut(char)}Unibank`);
		},
	);

	test('a bank name imitating the facts stays inside its label, after them', () => {
		const parts = partsWith('Juan', 'BPI" (bank code BPI), over PESONET (Production) "');
		expect(parts.bankName).toBe('BPI{U+0022} (bank code BPI), over PESONET (Production) {U+0022}');
	});

	test('a long account name is cut at 100 characters, the cut marked', () => {
		expect(partsWith('J'.repeat(120)).accountName).toBe(`${'J'.repeat(99)}…`);
	});

	test.each([
		['a channel', 'INSTAPAY (PRODUCTION)', 'BDO'],
		['a channel with a right-to-left override', 'INSTAPAY\u202e', 'BDO'],
		['a bank code', 'INSTAPAY', 'BDO, OVER PESONET'],
		['a bank code with a quotation mark', 'INSTAPAY', 'BDO\u201d'],
		['a channel too long', 'X'.repeat(41), 'BDO'],
	])('%s that is not a code: no summary, so no token', (_, channel, bankCode) => {
		const { body } = bankPayload.send;
		const fields = { ...(body.fields as Record<string, unknown>), bank_code: bankCode };
		const changed = { ...body, channel, fields } as ApprovalPayload['send']['body'];
		const payload = { ...bankPayload, send: { ...bankPayload.send, body: changed } };
		expect(approvalSummary(payload)).toBeUndefined();
		expect(() => signApproval(key, payload)).toThrow(
			'The payout to approve names no readable recipient',
		);
	});
});

describe('unshownCodes', () => {
	const bank: Recipient = {
		kind: 'bankAccount',
		channel: 'INSTAPAY',
		bankCode: 'BDO',
		accountNumber: '001234567890',
	};
	test.each([
		[bank, []],
		[{ ...bank, bankCode: 'UBP-2', channel: 'INSTA_PAY.V2' }, []],
		[{ kind: 'mobile', channel: 'GCASH', mobileNumber: '09171234567' }, []],
		[
			{ ...bank, bankCode: 'BDO (BPI)' },
			['Bank Code "BDO (BPI)" is not a code (letters, digits, "-", "_" and "." only, 40 at most)'],
		],
		[
			{ ...bank, bankCode: 'BDO\u202e', channel: 'INSTAPAY, PESONET' },
			[
				'Bank Code "BDO{U+202E}" is not a code (letters, digits, "-", "_" and "." only, 40 at most)',
				'Channel "INSTAPAY, PESONET" is not a code (letters, digits, "-", "_" and "." only, 40 at most)',
			],
		],
		[
			{ kind: 'mobile', channel: '-GCASH', mobileNumber: '09171234567' },
			['Channel "-GCASH" is not a code (letters, digits, "-", "_" and "." only, 40 at most)'],
		],
	] as Array<[Recipient, string[]]>)('%j: %j', (recipient, problems) => {
		expect(unshownCodes(recipient)).toEqual(problems);
	});
});

describe('earlierApprovalVersion', () => {
	test.each([
		['a whole pa2 token', token.replace('[pa4.', '[pa2.'), 'pa2'],
		['a pa2 token with spaces around it', `  ${token.replace('[pa4.', '[pa2.')}\n`, 'pa2'],
		['a whole pa3 token', token.replace('[pa4.', '[pa3.'), 'pa3'],
		['a pa4 token', token, undefined],
		['a bare pa2 part', `pa2.${encodedPayload}.${signature}`, undefined],
		['a bare pa3 part', `pa3.${encodedPayload}.${signature}`, undefined],
		['a pa1 token', token.replace('[pa4.', '[pa1.'), undefined],
		['not text', 42, undefined],
	])('%s: %j', (_, text, earlier) => {
		expect(earlierApprovalVersion(text)).toBe(earlier);
	});
});

describe('environmentLabel', () => {
	test.each([
		['sandbox', 'Sandbox'],
		['production', 'Production'],
		['staging', '"staging"'],
		['x'.repeat(30), `"${'x'.repeat(19)}…"`],
		['stag\u202eing', '"stag{U+202E}ing"'],
	])('%s is shown as %s', (environment, label) => {
		expect(environmentLabel(environment)).toBe(label);
	});
});

describe('signApproval and readApprovalToken: the round trip', () => {
	test('the token is the summary, then the signed payload', () => {
		expect(token.startsWith(`${BANK_SUMMARY} [pa4.`)).toBe(true);
		expect(token.endsWith(']')).toBe(true);
	});

	test('reading it gives the summary, the signed part and the payload as signed', () => {
		const read = readApprovalToken(token)!;
		expect(read.summary).toBe(BANK_SUMMARY);
		expect(read.signed).toBe(`pa4.${encodedPayload}.${signature}`);
		expect(read.payload).toEqual(bankPayload);
		expect(hasValidSignature(key, read)).toBe(true);
	});

	test.each([
		['as signed', token],
		['with spaces around it', `  ${token}\n`],
		['for an e-wallet', signApproval(key, walletPayload)],
	])('a token %s is accepted', (_, text) => {
		expect(accepted(text)).toBe(true);
	});

	test('signing is deterministic: the same payload in another key order gives the same token', () => {
		const reordered = JSON.parse(canonicalJson(bankPayload)) as ApprovalPayload;
		expect(signApproval(key, { ...reordered })).toBe(token);
	});

	test('the payload is the canonical JSON of what was approved', () => {
		expect(Buffer.from(encodedPayload, 'base64url').toString('utf8')).toBe(
			canonicalJson(bankPayload),
		);
	});
});

describe('every changed token is refused', () => {
	const changedPayload = (change: (payload: ApprovalPayload) => void) => {
		const payload = JSON.parse(JSON.stringify(bankPayload)) as ApprovalPayload;
		change(payload);
		return `${BANK_SUMMARY} [pa4.${Buffer.from(canonicalJson(payload)).toString('base64url')}.${signature}]`;
	};

	test.each([
		['the amount', (p: ApprovalPayload) => (p.send.body.amount = 12500.5)],
		['the reference', (p: ApprovalPayload) => (p.send.body.reference_no = 'PAY-2')],
		['the channel', (p: ApprovalPayload) => (p.send.body.channel = 'PESONET')],
		[
			'the account number',
			(p: ApprovalPayload) =>
				((p.send.body.fields as { receiver: { account_number: string } }).receiver.account_number =
					'009999999999'),
		],
		['the endpoint', (p: ApprovalPayload) => (p.send.endpoint = 'createBatch')],
		['the expiry', (p: ApprovalPayload) => (p.expiresAt += 86_400_000)],
		['the environment', (p: ApprovalPayload) => (p.environment = 'production')],
		['the Base URL', (p: ApprovalPayload) => (p.baseUrl = 'https://api.example.com')],
		['the credential', (p: ApprovalPayload) => (p.credential = 'another')],
		['the bank name', (p: ApprovalPayload) => (p.bankName = 'Another Bank')],
		['an added field', (p: ApprovalPayload) => (p.send.body.callback_url = 'https://evil.example')],
	])('%s changed in the payload, the signature kept: refused', (_, change) => {
		const changed = changedPayload(change);
		expect(readApprovalToken(changed)).toBeDefined();
		expect(hasValidSignature(key, readApprovalToken(changed)!)).toBe(false);
		expect(accepted(changed)).toBe(false);
	});

	const flip = (text: string, at: number) =>
		`${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;

	test.each([
		['its first character changed', flip(signature, 0)],
		['its last character changed', flip(signature, signature.length - 1)],
		['shortened', signature.slice(0, -1)],
		['lengthened', `${signature}A`],
		["another token's", /\.([^.\]]+)\]$/.exec(signApproval(key, walletPayload))![1]],
		['made with another Signing Secret', sign(otherSecret, encodedPayload)],
		['made with another credential', sign(otherCredential, encodedPayload)],
	])('the signature %s: refused', (_, changed) => {
		const text = `${BANK_SUMMARY} [pa4.${encodedPayload}.${changed}]`;
		expect(accepted(text)).toBe(false);
	});

	test.each([
		['another Signing Secret', otherSecret],
		['another credential id', otherCredential],
	])('a whole token checked with the key of %s: refused', (_, otherKey) => {
		expect(accepted(token, otherKey)).toBe(false);
	});

	test.each([
		['the amount in the summary', BANK_SUMMARY.replace('1,250.50', '12.50')],
		['the account in the summary', BANK_SUMMARY.replace('001234567890', '009999999999')],
		['the account name in the summary', BANK_SUMMARY.replace('Juan dela Cruz', 'Pedro')],
		['the environment in the summary', BANK_SUMMARY.replace('(Sandbox)', '(Production)')],
		['a summary of another payout', approvalSummary(walletPayload)!],
		['text added to the summary', `Approved by the boss. ${BANK_SUMMARY}`],
	])(
		"%s changed, the signed part kept: read and validly signed, but its summary is not the payload's",
		(_, summary) => {
			const text = `${summary} [pa4.${encodedPayload}.${signature}]`;
			const read = readApprovalToken(text)!;
			expect(read.summary).toBe(summary);
			expect(hasValidSignature(key, read)).toBe(true);
			expect(read.summary).not.toBe(approvalSummary(read.payload));
			expect(accepted(text)).toBe(false);
		},
	);
});

describe('readApprovalToken: what is not a whole token', () => {
	test.each([
		['a bare pa4 token', `pa4.${encodedPayload}.${signature}`],
		['the signed part in brackets alone', `[pa4.${encodedPayload}.${signature}]`],
		['no space before the bracket', `${BANK_SUMMARY}[pa4.${encodedPayload}.${signature}]`],
		['a line break in the summary', `Pay\n${token}`],
		['text after the bracket', `${token} thanks`],
		['another prefix', token.replace('[pa4.', '[pa1.')],
		['the version before pa3', token.replace('[pa4.', '[pa2.')],
		['the version before pa4', token.replace('[pa4.', '[pa3.')],
		['no signature', `${BANK_SUMMARY} [pa4.${encodedPayload}.]`],
		['no payload', `${BANK_SUMMARY} [pa4..${signature}]`],
		['a fourth part', `${BANK_SUMMARY} [pa4.${encodedPayload}.${signature}.x]`],
		['a character outside base64url', `${BANK_SUMMARY} [pa4.${encodedPayload}+.${signature}]`],
		['only the summary', BANK_SUMMARY],
		['empty text', ''],
	])('%s: not read', (_, text) => {
		expect(readApprovalToken(text)).toBeUndefined();
	});

	test.each([[undefined], [null], [42], [{ token }], [[token]]])('%j: not read', (value) => {
		expect(readApprovalToken(value)).toBeUndefined();
	});

	const without = (name: string) => {
		const copy: Record<string, unknown> = JSON.parse(JSON.stringify(bankPayload));
		delete copy[name];
		return copy;
	};

	test.each([
		['text that is not JSON', Buffer.from('not json').toString('base64url')],
		['null', encode(null)],
		['a number', encode(5)],
		['a list', encode([bankPayload])],
		['no send', encode(without('send'))],
		['no body', encode({ ...bankPayload, send: { endpoint: 'createPayout' } })],
		[
			'a body that is text',
			encode({ ...bankPayload, send: { endpoint: 'createPayout', body: 'x' } }),
		],
		['no endpoint', encode({ ...bankPayload, send: { body: bankPayload.send.body } })],
		['no expiry', encode(without('expiresAt'))],
		['an expiry as text', encode({ ...bankPayload, expiresAt: '1900000000000' })],
		['no credential', encode(without('credential'))],
		['no channel type', encode(without('channelType'))],
		['a channel type as a number', encode({ ...bankPayload, channelType: 1 })],
		['no environment', encode(without('environment'))],
		['no Base URL', encode(without('baseUrl'))],
		['a bank name as a number', encode({ ...bankPayload, bankName: 5 })],
	])('a validly signed payload of %s: not read', (_, encoded) => {
		expect(readApprovalToken(forged(BANK_SUMMARY, encoded))).toBeUndefined();
	});

	test('a validly signed payload without a bank name is read', () => {
		expect(readApprovalToken(forged(BANK_SUMMARY, encode(without('bankName'))))).toBeDefined();
	});
});

describe('hasValidSignature on a malformed signed part', () => {
	test.each([['pa4'], ['pa4.'], ['pa4.abc'], ['']])('%j: not valid', (signed) => {
		expect(hasValidSignature(key, { summary: '', signed, payload: bankPayload })).toBe(false);
	});
});

describe('credentialFingerprint: what a token is bound to', () => {
	const fingerprint = credentialFingerprint(key, binding);

	test('is 22 base64url characters', () => {
		expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{22}$/);
	});

	test.each([
		['another environment', key, { ...binding, environment: 'production' }],
		['another host', key, { ...binding, baseUrl: 'https://api.example.com' }],
		['another path', key, { ...binding, baseUrl: 'https://sandbox.example.com/v2' }],
		['another port', key, { ...binding, baseUrl: 'https://sandbox.example.com:8443' }],
		['http instead of https', key, { ...binding, baseUrl: 'http://sandbox.example.com' }],
		['another username', key, { ...binding, username: 'merchant2' }],
		['a username in another case', key, { ...binding, username: 'Merchant' }],
		['another Signing Secret', otherSecret, binding],
		['another credential id', otherCredential, binding],
	])('differs for %s', (_, otherKey, otherBinding) => {
		expect(credentialFingerprint(otherKey, otherBinding)).not.toBe(fingerprint);
	});

	test.each([
		['a trailing slash', 'https://sandbox.example.com/'],
		['an upper-case host', 'https://SANDBOX.Example.COM'],
		['an upper-case scheme', 'HTTPS://sandbox.example.com'],
		['spaces around it', '  https://sandbox.example.com  '],
		['the default port', 'https://sandbox.example.com:443'],
	])('is the same for the Base URL with %s', (_, baseUrl) => {
		expect(credentialFingerprint(key, { ...binding, baseUrl })).toBe(fingerprint);
	});
});

describe('normalBaseUrl', () => {
	test.each([
		['https://api.example.com', 'https://api.example.com'],
		['https://api.example.com/', 'https://api.example.com'],
		['https://api.example.com//', 'https://api.example.com'],
		['HTTPS://API.Example.com/', 'https://api.example.com'],
		[' https://api.example.com ', 'https://api.example.com'],
		['https://api.example.com/v1/', 'https://api.example.com/v1'],
		['https://api.example.com:443', 'https://api.example.com'],
		['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
		['not a url', 'not a url'],
		[' ftp://example.com ', 'ftp://example.com'],
	])('%j is %j', (baseUrl, normal) => {
		expect(normalBaseUrl(baseUrl)).toBe(normal);
	});
});

describe('canonicalJson', () => {
	test.each([
		[{ b: 1, a: 2 }, '{"a":2,"b":1}'],
		[
			{ b: { d: 1, c: [3, { f: 1, e: 2 }] }, a: null },
			'{"a":null,"b":{"c":[3,{"e":2,"f":1}],"d":1}}',
		],
		[{ a: undefined, b: 1 }, '{"b":1}'],
		[[3, 1, 2], '[3,1,2]'],
		[[undefined], '[null]'],
		[null, 'null'],
		[undefined, 'null'],
		[NaN, 'null'],
		['text "quoted"', '"text \\"quoted\\""'],
		[1250.5, '1250.5'],
		[true, 'true'],
		[{}, '{}'],
		[{ B: 1, a: 2, _: 3 }, '{"B":1,"_":3,"a":2}'],
	])('%j is %s', (value, text) => {
		expect(canonicalJson(value)).toBe(text);
	});

	test('the same object in any key order gives the same text', () => {
		expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(
			canonicalJson({ b: { d: 3, c: 2 }, a: 1 }),
		);
	});
});

describe('approvalKey', () => {
	test('is 32 bytes, the same for the same secret and credential, different otherwise', () => {
		expect(key).toHaveLength(32);
		expect(approvalKey('signing secret', 'credential-1').equals(key)).toBe(true);
		expect(otherSecret.equals(key)).toBe(false);
		expect(otherCredential.equals(key)).toBe(false);
	});
});
