/**
 * README.md, "Behaviour every operation has", "Map input columns automatically", "Check before
 * paying", "Money safety" and "Troubleshooting": each claim run as the README states it, in n8n's
 * engine against the sandbox gateway, with the quoted messages compared word for word.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import * as collection from '../harness/collectionRuns';
import {
	addCredential,
	bankRow,
	bankTransferParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../harness/disbursementRuns';
import { PAYOUT_LOOKUP, PAYOUT_PROCESS } from '../harness/servicePaths';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });
const sentPayouts = () => Object.keys(s.gw.stats().attemptsByReference);

/** E-Wallet payouts with Channel GCash set once in the node, as the README's sheet example. */
const eWallet = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'payout',
	operation: 'create',
	channelType: 'eWallet',
	channel: 'GCASH',
	amount: '={{ $json.amount }}',
	referenceNo: '={{ $json.reference_no }}',
	mobileNumber: '={{ $json.mobile_number }}',
	...extra,
});
const autoMapped = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'payout',
	operation: 'create',
	channelType: 'eWallet',
	channel: 'GCASH',
	mappingMode: 'autoMapInputData',
	...extra,
});
const sheet = (prefix: string): IDataObject[] => [
	{
		reference_no: `${prefix}-001`,
		name: 'Juan Dela Cruz',
		mobile_number: '09171234567',
		amount: '1,250.00',
	},
	{
		reference_no: `${prefix}-002`,
		name: 'Maria Clara Santos',
		mobile_number: '09181234567',
		amount: '980.50',
	},
	{
		reference_no: `${prefix}-003`,
		name: 'Jose Reyes',
		mobile_number: '+639191234567',
		amount: '1500',
	},
];

describe('README: Map input columns automatically', () => {
	test('the three-row sheet pays three GCash wallets with nothing mapped', async () => {
		const result = await run(s, autoMapped(), { items: sheet('TIPS-2026-04') });
		expect(result.error).toBeUndefined();
		expect(
			jsonOf(result).map(({ reference_no, amount, channel }) => ({
				reference_no,
				amount,
				channel,
			})),
		).toEqual([
			{ reference_no: 'TIPS-2026-04-001', amount: 1250, channel: 'GCASH' },
			{ reference_no: 'TIPS-2026-04-002', amount: 980.5, channel: 'GCASH' },
			{ reference_no: 'TIPS-2026-04-003', amount: 1500, channel: 'GCASH' },
		]);
	});

	test('Reference No, referenceNo and reference_no are one column; other columns are ignored', async () => {
		const items = [
			{ 'Reference No': 'AUTO-N1', AMOUNT: 100, 'mobile-number': '09171234567', note: 'x' },
		];
		const result = await run(s, autoMapped(), { items });
		expect(jsonOf(result)[0]).toMatchObject({ reference_no: 'AUTO-N1', amount: 100 });
	});

	test('the quoted messages: a bad cell, a misspelt header, two columns for one field', async () => {
		const items: IDataObject[] = sheet('AUTO-M').concat(sheet('AUTO-M2'));
		items[3] = {
			reference_no: 'AUTO-M2-001',
			name: 'Juan Dela Cruz',
			mobile_number: '09171234567',
			amout: 100,
		};
		items[4] = { ...items[4], referenceNo: 'AUTO-OTHER' };
		items.push({ reference_no: 'AUTO-M2-004', mobile_number: '09171234567', amount: 'abc' });
		const result = await run(s, autoMapped(), { items, onError: 'continueRegularOutput' });
		const errors = jsonOf(result).map((item) => item.error);
		expect(errors[3]).toBe(
			'Column "amount" (Amount) missing: the item has columns "reference_no", "name", "mobile_number", "amout" (row 4)',
		);
		expect(errors[4]).toBe(
			'Columns "reference_no" and "referenceNo" (Reference No) hold different values for the same field (row 5)',
		);
		expect(errors[6]).toBe('Amount "abc" is not a number (row 7)');
		expect(sentPayouts()).not.toContain('AUTO-OTHER');
	});

	test("Generate reads reference_no, amount and channel_code, else the node's Channel", async () => {
		const c = await collection.setUp();
		try {
			const parameters = {
				resource: 'transaction',
				operation: 'generate',
				channelCode: 'GCASH_TRN',
				mappingMode: 'autoMapInputData',
			};
			const items = [
				{ reference_no: 'AUTO-G1', amount: 100 },
				{ reference_no: 'AUTO-G2', amount: 100, channel_code: 'BAYAD', email: 'a@b.ph' },
			];
			const result = await collection.run(c, parameters, { items });
			expect(jsonOf(result).map((item) => (item.channel as IDataObject).code)).toEqual([
				'GCASH_TRN',
				'BAYAD',
			]);
			expect(c.gw.lastRequestBody('/v1/biller/transactions/generate')).toMatchObject({
				email: 'a@b.ph',
			});
		} finally {
			await c.gw.close();
		}
	});
});

describe('README: Check before paying', () => {
	test('Dry Run: each row as it would be sent (masked payee) or its problem, then the summary', async () => {
		const items = [...sheet('DRY'), { reference_no: 'DRY-004', mobile_number: '0917', amount: 10 }];
		const result = await run(s, eWallet({ options: { dryRun: true, maxTotalPerRun: 3000 } }), {
			items,
		});
		const [first, , , failed, summary] = jsonOf(result);
		expect(first).toEqual({
			dryRun: true,
			row: 1,
			wouldSend: true,
			reference_no: 'DRY-001',
			channel: 'GCASH',
			amount: 1250,
			payee: '0917•••4567',
		});
		expect(failed).toEqual({
			dryRun: true,
			row: 4,
			wouldSend: false,
			problem: 'Mobile Number "0917" is not a Philippine mobile number',
		});
		expect(summary).toEqual({
			dryRun: true,
			summary: true,
			rows: 4,
			wouldSend: 3,
			wouldFail: 1,
			totalAmount: 3730.5,
			totalByChannel: { GCASH: 3730.5 },
			failures: [{ row: 4, problem: failed.problem }],
			maximumTotalPerRun: 3000,
			overMaximumTotal: true,
		});
		expect(sentPayouts()).toEqual([]);
	});

	test('Dry Run mapped from a column: TRUE text counts, any other value stops the node before anything is sent', async () => {
		const fromColumn = eWallet({ options: { dryRun: '={{ $json.dry }}' } });
		const dry = await run(s, fromColumn, {
			items: sheet('DRYCOL').map((row) => ({ ...row, dry: 'TRUE' })),
		});
		expect(jsonOf(dry).every((item) => item.dryRun === true)).toBe(true);
		const unclear = await run(s, fromColumn, {
			items: sheet('DRYCOL').map((row) => ({ ...row, dry: 'yes' })),
			onError: 'continueRegularOutput',
		});
		expect(jsonOf(unclear)[0].error).toMatch(
			/^Not sent, because the run stopped: Dry Run is "yes", not true or false: nothing was sent/,
		);
		const disagree = await run(s, fromColumn, {
			items: sheet('DRYCOL').map((row, index) => ({ ...row, dry: index === 0 })),
		});
		expect(disagree.error?.message).toMatch(
			/^Dry Run is .* for row 1 but .* for row 2: it holds for the whole run, so nothing was sent/,
		);
		expect(sentPayouts()).toEqual([]);
	});

	test("Maximum Total per Run: 45,500 against 40,000 sends nothing, in the README's words", async () => {
		const items = [
			{ reference_no: 'TOTAL-1', mobile_number: '09171234567', amount: 45000 },
			{ reference_no: 'TOTAL-2', mobile_number: '09171234567', amount: 500 },
		];
		const result = await run(
			s,
			eWallet({ options: { maxTotalPerRun: 40000, maxAmountPerPayout: 50000 } }),
			{ items },
		);
		expect(result.error?.message).toBe(
			'The rows add up to 45,500, above the Maximum Total per Run (40,000): nothing was sent',
		);
		expect(sentPayouts()).toEqual([]);
	});
});

describe('README: Behaviour every operation has', () => {
	test.each<[string, string | number, string]>([
		['1.000,50', '1.000,50', 'Amount "1.000,50" is not a number'],
		[
			'an amount above 50,000',
			50000.01,
			'Amount 50000.01 is outside the allowed range 0.01 to 50,000',
		],
		['a reference of 65 characters', 'R'.repeat(65), 'Reference No is longer than 64 characters'],
		[
			'a number cell beyond 15 digits',
			1234567890123456789,
			'Reference No "1234567890123456800" is a number that cannot be kept exactly (more than 15 digits, or decimals)',
		],
		['NaN', 'NaN', 'Reference No "NaN" is a missing value or a broken formula, not a reference'],
		[
			'[object Object]',
			'[object Object]',
			'Reference No "[object Object]" is a missing value or a broken formula, not a reference',
		],
	])('checked before any request: %s', async (_name, value, message) => {
		const isAmount = message.startsWith('Amount');
		const item = {
			reference_no: isAmount ? 'CHECK-1' : value,
			mobile_number: '09171234567',
			amount: isAmount ? value : 100,
		};
		const result = await run(s, eWallet(), { items: [item] });
		expect(result.error?.message).toBe(`${message} (row 1)`);
		expect(sentPayouts()).toEqual([]);
	});

	test('checked before any request: a callback URL that is not http(s)', async () => {
		const item = { reference_no: 'CHECK-URL', mobile_number: '09171234567', amount: 100 };
		const result = await run(s, eWallet({ callbackWebhookUrl: 'ftp://n8n.example.com/callback' }), {
			items: [item],
		});
		expect(result.error?.message).toBe(
			'Callback Webhook URL must start with https:// or http:// (row 1)',
		);
		expect(sentPayouts()).toEqual([]);
	});

	test('On Error: the error output gives the input row plus error; Continue gives {error, itemIndex, errorDetails, httpCode, fieldErrors}', async () => {
		const items = [bankRow('ONERR-1'), bankRow('ONERR-2', { receiverType: 'NOBODY' })];
		const viaErrorOutput = await run(s, bankTransferParameters(), {
			items,
			onError: 'continueErrorOutput',
		});
		expect(jsonOf(viaErrorOutput, 0).map((item) => item.reference_no)).toEqual(['ONERR-1']);
		expect(jsonOf(viaErrorOutput, 1)).toEqual([
			{ ...items[1], error: expect.stringMatching(/ \(row 2\)$/) },
		]);
		const regular = await run(s, bankTransferParameters(), {
			items: [bankRow('ONERR-3', { receiverType: 'NOBODY' })],
			onError: 'continueRegularOutput',
		});
		const [failed] = jsonOf(regular);
		expect(Object.keys(failed).sort()).toEqual([
			'error',
			'errorDetails',
			'fieldErrors',
			'httpCode',
			'itemIndex',
		]);
		expect(failed).toMatchObject({
			itemIndex: 0,
			httpCode: 422,
			fieldErrors: { 'fields.receiver.type': expect.any(Array) },
		});
	});

	test('redirects are not followed: a 3xx fails the item with a message to check the Base URL', async () => {
		s.gw.faults.add({
			path: '/',
			method: 'POST',
			mode: 'error-before',
			status: 307,
			location: 'https://elsewhere.example.com/',
		});
		const result = await run(s, bankTransferParameters(), { items: [bankRow('REDIRECT-1')] });
		s.gw.faults.clear();
		expect(result.error?.message).toMatch(
			/redirected the request \(HTTP 307 to elsewhere\.example\.com\) instead of answering it: check the Base URL/,
		);
	});
});

describe('README: Money safety, as the examples run it twice', () => {
	test('the same rows again come back replayed: true; another amount for a used reference is refused', async () => {
		const first = await run(s, bankTransferParameters(), { items: [bankRow('TWICE-1')] });
		expect(jsonOf(first)[0]).toMatchObject({ replayed: false });
		const again = await run(s, bankTransferParameters(), { items: [bankRow('TWICE-1')] });
		expect(jsonOf(again)[0]).toMatchObject({ reference_no: 'TWICE-1', replayed: true });
		const other = await run(s, bankTransferParameters(), {
			items: [bankRow('TWICE-1', { amount: 1600 })],
		});
		expect(other.error?.message).toMatch(
			/^reference_no "TWICE-1" is already used for a different payout: /,
		);
		expect(s.gw.stats().creationsByReference['TWICE-1']).toBe(1);
	});
});

describe('README: Troubleshooting, each message as the README quotes it', () => {
	const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
	const rows = README.slice(README.indexOf('\n## Troubleshooting\n'))
		.split('\n')
		.filter((line) => line.startsWith('| `'));
	/** The README's quote that starts with `start`, as a pattern: its "..." stand for any text. */
	const quoted = (start: string): RegExp => {
		const quote = rows
			.flatMap((row) => [...row.split(' | ')[0].matchAll(/`([^`]+)`/g)].map((match) => match[1]))
			.find((text) => text.startsWith(start));
		if (!quote) throw new Error(`Troubleshooting quotes nothing starting "${start}"`);
		return new RegExp(
			`^${quote
				.split('...')
				.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
				.join('.*')}`,
		);
	};
	const walletGetMany = { resource: 'wallet', operation: 'getMany', status: 'all' };

	test('a wrong password: the credential was refused', async () => {
		const wrong = addCredential(s, { password: 'not-the-password' });
		const result = await run(s, walletGetMany, { items: [{}], credentialId: wrong });
		expect(result.error?.message).toMatch(quoted('The Disbursement credential was refused'));
	});

	test('a Base URL nobody answers at: the token request could not reach the service', async () => {
		const nowhere = addCredential(s, { baseUrl: 'http://127.0.0.1:1' });
		const result = await run(s, walletGetMany, { items: [{}], credentialId: nowhere });
		expect(result.error?.message).toMatch(quoted('The ... token request could not reach'));
	});

	test('a Base URL ending in /v1: the 404 says to set the host only', async () => {
		const withPath = addCredential(s, { baseUrl: `${s.gw.url}/v1/` });
		const result = await run(s, walletGetMany, { items: [{}], credentialId: withPath });
		expect(result.error?.message).toBe(
			`The Disbursement token request failed with HTTP 404: the credential's Base URL ends in "/v1", but the nodes add the service's paths (/v1/...) themselves: set Base URL to the host only (${s.gw.url}) (the service said: "Not found.") (row 1)`,
		);
		expect(result.error?.message).toMatch(quoted('The ... token request failed with HTTP 404'));
	});

	test('a path the service does not have: Not found (HTTP 404)', async () => {
		const result = await run(
			s,
			{ ...walletGetMany, options: { endpointPath: '/v1/api/nowhere' } },
			{ items: [{}] },
		);
		expect(result.error?.message).toMatch(quoted('Not found (HTTP 404)'));
	});

	test('amounts: 1,250.50 and ₱1,250.50 are read, 1.000,50 is refused; a limit of 20,000 stops the node', async () => {
		const items = [
			{ reference_no: 'TROUBLE-A1', mobile_number: '09171234567', amount: '1,250.50' },
			{ reference_no: 'TROUBLE-A2', mobile_number: '09171234567', amount: '₱1,250.50' },
			{ reference_no: 'TROUBLE-A3', mobile_number: '09171234567', amount: '1.000,50' },
		];
		const result = await run(s, eWallet(), { items, onError: 'continueRegularOutput' });
		const [first, second, third] = jsonOf(result);
		expect([first.amount, second.amount]).toEqual([1250.5, 1250.5]);
		expect(third.error).toMatch(quoted('Amount "..." is not a number'));
		const limited = await run(s, eWallet({ options: { maxAmountPerPayout: '20,000' } }), {
			items: [items[0]],
		});
		expect(limited.error?.message).toMatch(quoted('Maximum per Payout is "20,000"'));
	});

	test('no attempt answered clearly and nothing found: the outcome is not known yet, check it and keep the reference', async () => {
		s.gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, mode: 'error-before', status: 503 });
		const result = await run(s, eWallet(), { items: [sheet('TROUBLE-U')[0]] });
		s.gw.faults.clear();
		expect(result.error?.message).toMatch(
			quoted('The outcome of the payout "..." is not known yet'),
		);
		expect(result.error?.description).toMatch(
			/^Check it with Payout > Get or Payout > Reconcile before anything else\. To try again, use the same reference_no/,
		);
		expect(s.gw.stats().attemptsByReference['TROUBLE-U-001']).toBe(3);
		// An answer lost after the payout was made, and a look-up that fails: the same row of the table.
		s.gw.faults.add({ method: 'POST', path: PAYOUT_PROCESS, mode: 'drop-after', times: 1 });
		s.gw.faults.add({ method: 'GET', path: PAYOUT_LOOKUP, mode: 'drop-before' });
		const lost = await run(s, eWallet(), { items: [sheet('TROUBLE-U')[1]] });
		s.gw.faults.clear();
		expect(lost.error?.message).toMatch(
			quoted('Could not confirm whether the payout "..." was created'),
		);
		expect(s.gw.stats().creationsByReference['TROUBLE-U-002']).toBe(1);
	});

	test('a run stopped by an unreadable limit: every row says Not sent, because the run stopped', async () => {
		const items = sheet('TROUBLE-S');
		const result = await run(s, eWallet({ options: { maxAmountPerPayout: '₱20,000' } }), {
			items,
			onError: 'continueRegularOutput',
		});
		const errors = jsonOf(result).map((item) => item.error);
		expect(errors).toHaveLength(3);
		for (const error of errors) expect(error).toMatch(quoted('Not sent, because the run stopped'));
		expect(sentPayouts()).toEqual([]);
	});
});
