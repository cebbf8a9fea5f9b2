/**
 * Parameters read once per run: a field without an expression is the same for every row, so it
 * is read once; a field with one is still evaluated for each row, as before. Both against the
 * sandbox over real HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	bankRow,
	eWalletParameters,
	freshStart,
	jsonOf,
	run,
	setUp,
	type Setup,
} from '../harness/disbursementRuns';

let setup: Setup;
beforeAll(async () => {
	setup = await setUp();
});
afterAll(async () => await setup.gw.close());
beforeEach(() => freshStart(setup));

const payoutOf = (ref: string) => setup.gw.getPayout(ref) as IDataObject;

test('Channel Type, Channel and an option given by expressions still follow each row', async () => {
	const parameters = {
		...eWalletParameters(),
		channelType: '={{ $json.type }}',
		bankCode: '={{ $json.bank }}',
		senderFirstName: '={{ $json.senderFirst }}',
		senderLastName: '={{ $json.senderLast }}',
		receiverAccountName: '={{ $json.accountName }}',
		receiverAccountNumber: '={{ $json.accountNumber }}',
		options: { maxAmountPerPayout: '={{ $json.cap }}' },
	};
	const rows = [
		{
			ref: 'RUNP-1',
			amount: 100,
			mobile: '09171234567',
			type: 'eWallet',
			channel: 'GCASH',
			cap: 1000,
		},
		bankRow('RUNP-2', { amount: 900, type: 'bankTransfer', channel: 'INSTAPAY', cap: 1000 }),
		{
			ref: 'RUNP-3',
			amount: 600,
			mobile: '09181234567',
			type: 'eWallet',
			channel: 'PAYMAYA',
			cap: 500,
		},
	];
	const result = await run(setup, parameters, { items: rows, onError: 'continueRegularOutput' });
	expect(jsonOf(result).map((json) => json.error ?? json.reference_no)).toEqual([
		'RUNP-1',
		'RUNP-2',
		"Amount 600 is above the Maximum per Payout (500) set in this node's options (row 3)",
	]);
	expect([
		payoutOf('RUNP-1').channel,
		(payoutOf('RUNP-1').fields as IDataObject).mobile_number,
	]).toEqual(['GCASH', '09171234567']);
	expect([
		payoutOf('RUNP-2').channel,
		(payoutOf('RUNP-2').fields as IDataObject).bank_code,
	]).toEqual(['INSTAPAY', 'BDO']);
	expect(payoutOf('RUNP-3')).toBeUndefined();
});

test('fixed values (Channel Type, Channel, options) apply to every row of a run', async () => {
	const parameters = {
		...eWalletParameters(),
		channel: 'PAYMAYA',
		options: { maxAmountPerPayout: 500, concurrency: 3 },
	};
	const rows = Array.from({ length: 6 }, (_, i) => ({
		ref: `RUNF-${i + 1}`,
		amount: 300 + i * 50,
		mobile: '09171234567',
	}));
	const result = await run(setup, parameters, { items: rows, onError: 'continueRegularOutput' });
	expect(jsonOf(result).map((json) => json.error ?? json.reference_no)).toEqual([
		'RUNF-1',
		'RUNF-2',
		'RUNF-3',
		'RUNF-4',
		'RUNF-5',
		"Amount 550 is above the Maximum per Payout (500) set in this node's options (row 6)",
	]);
	expect(rows.slice(0, 5).map((row) => payoutOf(row.ref).channel)).toEqual(
		Array(5).fill('PAYMAYA'),
	);
});
