/**
 * Payout > Create's Channel: a dropdown loaded from the service's payout channel list for the
 * chosen Channel Type, and a refused channel explained with the codes that Channel Type offers.
 */
import { loadOptions } from '../harness';
import {
	NODE_TYPE,
	bankRow,
	bankTransferParameters,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
	type Setup,
} from '../harness/disbursementRuns';

const CHANNELS = '/v1/api/disbursement/channels';
const PROCESS = '/v1/api/disbursement/transactions/process';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

async function loadChannels(setup: Setup, channelType?: string, typeVersion = 1) {
	return await loadOptions({
		type: NODE_TYPE,
		method: 'getPayoutChannels',
		store: setup.store,
		typeVersion,
		parameters: {
			resource: 'payout',
			operation: 'create',
			...(channelType ? { channelType } : {}),
		},
		path: 'parameters.channel',
	});
}

describe('the Channel dropdown', () => {
	test('lists every payout channel named with its type, those of the chosen Channel Type first', async () => {
		const bank = [
			{
				name: 'InstaPay (Bank Transfer)',
				value: 'INSTAPAY',
				description: 'Bank Transfer channel INSTAPAY',
			},
			{
				name: 'PESONet (Bank Transfer)',
				value: 'PESONET',
				description: 'Bank Transfer channel PESONET',
			},
		];
		const wallet = [
			{ name: 'GCash (E-Wallet)', value: 'GCASH', description: 'E-Wallet channel GCASH' },
			{ name: 'Maya (E-Wallet)', value: 'PAYMAYA', description: 'E-Wallet channel PAYMAYA' },
		];
		expect(await loadChannels(s, 'bankTransfer')).toEqual([...bank, ...wallet]);
		expect(await loadChannels(s, 'eWallet')).toEqual([...wallet, ...bank]);
		// Channel Type left at its default is Bank Transfer.
		expect((await loadChannels(s)).map((option) => option.value)).toEqual([
			'INSTAPAY',
			'PESONET',
			'GCASH',
			'PAYMAYA',
		]);
		expect(s.gw.stats().requestsByPath[`GET ${CHANNELS}`]).toBe(3);
	});

	test('version 2 lists only the channels of the chosen Channel Type', async () => {
		const values = async (channelType?: string) =>
			(await loadChannels(s, channelType, 2)).map((option) => option.value);
		expect(await values('bankTransfer')).toEqual(['INSTAPAY', 'PESONET']);
		expect(await values('eWallet')).toEqual(['GCASH', 'PAYMAYA']);
		expect(await values()).toEqual(['INSTAPAY', 'PESONET']);
	});

	test('version 2, a Channel Type the account has no channel of: the message says to choose the other type', async () => {
		s.gw.faults.add({
			method: 'GET',
			path: CHANNELS,
			mode: 'error-before',
			status: 200,
			body: { data: { channels: [{ code: 'INSTAPAY', name: 'InstaPay', type: 'bankTransfer' }] } },
		});
		await expect(loadChannels(s, 'eWallet', 2)).rejects.toThrow(
			'The service lists no E-Wallet payout channel for this account: choose the other Channel Type, or enter the code with an expression',
		);
	});

	test('a service without the list gets a message saying to enter the code with an expression', async () => {
		s.gw.faults.add({ method: 'GET', path: CHANNELS, mode: 'error-before', status: 404 });
		await expect(loadChannels(s, 'eWallet')).rejects.toThrow(
			`The service offers no payout channel list at ${CHANNELS}: enter the channel code with an expression, e.g. INSTAPAY`,
		);
	});
});

describe('a channel the service refuses', () => {
	test('an unknown code: the error names the valid codes of the Channel Type, with the row counted from 1', async () => {
		const result = await run(s, bankTransferParameters(), {
			items: [
				bankRow('CH-OK-1'),
				bankRow('CH-BAD-1', { channel: 'INSTAPAY_X' }),
				bankRow('CH-BAD-2', { channel: 'instapay' }),
			],
			onError: 'continueRegularOutput',
		});
		const out = jsonOf(result);
		expect(out[0]).toMatchObject({
			reference_no: 'CH-OK-1',
			channel: 'INSTAPAY',
			status: 'pending',
		});
		expect(out[1]).toEqual({
			error:
				'Channel "INSTAPAY_X" is not a Bank Transfer channel of this account; Bank Transfer channels: INSTAPAY, PESONET (row 2)',
			itemIndex: 1,
			errorDetails:
				'Nothing was sent: the service refused the payout (The service rejected the request: channel: The selected channel is invalid.). Pick the channel from the Channel list (codes are case-sensitive), or change Channel Type.',
			httpCode: 422,
			fieldErrors: { channel: ['The selected channel is invalid.'] },
		});
		expect(out[2].error).toBe(
			'Channel "instapay" is listed as "INSTAPAY": codes are case-sensitive; Bank Transfer channels: INSTAPAY, PESONET (row 3)',
		);
		const stats = s.gw.stats();
		// One list for the whole run, fetched only once the service had refused a payout.
		expect(stats.requestsByPath[`GET ${CHANNELS}`]).toBe(1);
		expect(Object.keys(stats.creationsByReference)).toEqual(['CH-OK-1']);
	});

	test('a channel of the other type: the error says which Channel Type it belongs to', async () => {
		const bank = await run(s, bankTransferParameters(), {
			items: [bankRow('CH-TYPE-1', { channel: 'GCASH' })],
		});
		expect(bank.error?.message).toBe(
			'Channel "GCASH" is for E-Wallet payouts, but Channel Type is Bank Transfer; Bank Transfer channels: INSTAPAY, PESONET (row 1)',
		);
		expect(bank.error?.httpCode).toBe('422');
		const wallet = await run(s, eWalletParameters(), {
			items: [{ ref: 'CH-TYPE-2', amount: 50, mobile: '09171234567', channel: 'PESONET' }],
		});
		expect(wallet.error?.message).toBe(
			'Channel "PESONET" is for Bank Transfer payouts, but Channel Type is E-Wallet; E-Wallet channels: GCASH, PAYMAYA (row 1)',
		);
		expect(s.gw.stats().creationsByReference).toEqual({});
	});

	test("a refusal the channel does not explain keeps the service's own message", async () => {
		const result = await run(s, bankTransferParameters(), {
			items: [bankRow('CH-BANK-1', { bank: 'NOPE' })],
		});
		expect(result.error?.message).toBe(
			'The service rejected the request: fields.bank_code: The selected fields.bank code is invalid. (row 1)',
		);
	});

	test("without a readable channel list the service's own refusal stands, and nothing is sent twice", async () => {
		s.gw.faults.add({ method: 'GET', path: CHANNELS, mode: 'malformed' });
		const result = await run(s, bankTransferParameters(), {
			items: [bankRow('CH-NOLIST-1', { channel: 'NOPE' })],
		});
		expect(result.error?.message).toBe(
			'The service rejected the request: channel: The selected channel is invalid. (row 1)',
		);
		expect(s.gw.stats().requestsByPath[`POST ${PROCESS}`]).toBe(1);
	});

	test('valid payouts never ask for the channel list', async () => {
		const result = await run(s, bankTransferParameters(), {
			items: [bankRow('CH-NOLIST-2'), bankRow('CH-NOLIST-3', { channel: 'PESONET' })],
		});
		expect(result.error).toBeUndefined();
		expect(s.gw.stats().requestsByPath[`GET ${CHANNELS}`]).toBeUndefined();
	});
});
