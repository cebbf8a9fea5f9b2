/**
 * One spelling of every code, through n8n's engine against the sandbox over HTTP: a channel or bank
 * code is sent exactly as Prepare's summary, Dry Run's payee and the approval token show it. That
 * is the service's own spelling from its channel or bank list where Prepare reads one, otherwise the code as
 * typed when it is printable ASCII; any other code is refused for its row, naming it. Codes are
 * compared with their ASCII letters folded and nothing else: the long s (`ſ`) is never an S, nor
 * the dotless i (`ı`) an I, in the summary, in Allowed Recipients or in a record check.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { readApprovalToken } from '../../nodes/shared/validation/approvalToken';
import * as collection from '../harness/collectionRuns';
import {
	bankRow,
	bankTransferParameters,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../harness/disbursementRuns';
import { PAYOUT_PROCESS, PAYOUT_PROCESS_KEY } from '../harness/servicePaths';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

const CHANNELS = '/v1/api/disbursement/channels';

const sentPayouts = () => s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0;

const LONG_S = '\u017f';
const DOTLESS_I = '\u0131';

const refused = (label: string, code: string) =>
	`${label} "${code}" is not a code the service issues (printable ASCII letters, digits and signs only, no blanks): choose it from the list, or type the code as the service spells it`;

const preparing = (extra: INodeParameters = {}) => ({ ...extra, operation: 'prepare' });
const allowing = (allowedRecipients: string, extra: INodeParameters = {}) => ({
	...extra,
	options: { allowedRecipients, ...((extra.options as IDataObject) ?? {}) },
});

/** The request an approval token lets Confirm send. */
function sentBodyOf(out: IDataObject): IDataObject {
	const token = readApprovalToken(out.approvalToken);
	expect(token).toBeDefined();
	return token!.payload.send.body as IDataObject;
}

describe('a code that is not printable ASCII is refused for its row, naming it', () => {
	test.each([
		['channel', `GCA${LONG_S}H`],
		['channel', `${DOTLESS_I}nstapay`],
	])('Prepare, e-wallet %s %j: nothing prepared, the next row is', async (_, channel) => {
		const result = await run(s, eWalletParameters(preparing()), {
			items: [
				{ ref: 'OS-ODD-1', amount: 100, mobile: '09171234567', channel },
				{ ref: 'OS-ODD-2', amount: 100, mobile: '09171234567', channel: 'GCASH' },
			],
			onError: 'continueRegularOutput',
		});
		const [odd, fine] = jsonOf(result);
		expect(odd).toMatchObject({ error: `${refused('Channel', channel)} (row 1)` });
		expect(odd.approvalToken).toBeUndefined();
		expect(fine.summary).toBe(
			'Pay PHP 100.00 to e-wallet mobile number 09171234567 on GCASH, reference OS-ODD-2 (Sandbox)',
		);
		expect(sentPayouts()).toBe(0);
	});

	test('Create, bank code "bpı" that Allowed Recipients "BPI:001234567890" would admit once upper-cased: refused, nothing sent', async () => {
		const result = await run(s, bankTransferParameters(allowing('BPI:001234567890')), {
			items: [bankRow('OS-BPI-1', { bank: `bp${DOTLESS_I}` })],
		});
		expect(result.error?.message).toBe(`${refused('Bank Code', `bp${DOTLESS_I}`)} (row 1)`);
		expect(sentPayouts()).toBe(0);
	});
});

describe('a code is sent exactly as it is shown', () => {
	test('Prepare, channel "gcash": the summary shows the channel list\'s GCASH, and the token sends GCASH', async () => {
		const result = await run(s, eWalletParameters(preparing()), {
			items: [{ ref: 'OS-CASE-1', amount: 100, mobile: '09171234567', channel: 'gcash' }],
		});
		const [out] = jsonOf(result);
		expect(out.summary).toBe(
			'Pay PHP 100.00 to e-wallet mobile number 09171234567 on GCASH, reference OS-CASE-1 (Sandbox)',
		);
		expect(sentBodyOf(out).channel).toBe('GCASH');
		expect(out).toMatchObject({ channel: 'GCASH', recipient: { channel: 'GCASH' } });
	});

	test('Prepare, channel "gcash" without a readable channel list: shown and sent as typed', async () => {
		s.gw.faults.add({ method: 'GET', path: CHANNELS, mode: 'error-before', status: 404 });
		const result = await run(s, eWalletParameters(preparing()), {
			items: [{ ref: 'OS-CASE-2', amount: 100, mobile: '09171234567', channel: 'gcash' }],
		});
		const [out] = jsonOf(result);
		expect(out.summary).toBe(
			'Pay PHP 100.00 to e-wallet mobile number 09171234567 on gcash, reference OS-CASE-2 (Sandbox)',
		);
		expect(sentBodyOf(out).channel).toBe('gcash');
	});

	test('Prepare, bank code "bpi": the summary shows the bank list\'s BPI, and Confirm sends BPI', async () => {
		const prepared = await run(s, bankTransferParameters(preparing()), {
			items: [bankRow('OS-LIST-1', { bank: 'bpi' })],
		});
		expect(prepared.error).toBeUndefined();
		const [out] = jsonOf(prepared);
		expect(String(out.summary)).toMatch(
			/^Pay PHP 1,500\.00 to account number 001234567890 at bank code BPI, over INSTAPAY, reference OS-LIST-1 \(Sandbox\)\. Bank name as listed: "Bank of the Philippine Islands"/,
		);
		expect(sentBodyOf(out).fields).toMatchObject({ bank_code: 'BPI' });
		expect(out.recipient).toMatchObject({ bankCode: 'BPI' });
		const paid = await run(
			s,
			{ resource: 'payout', operation: 'confirm', approvalToken: '={{ $json.token }}' },
			{ items: [{ token: String(out.approvalToken) }] },
		);
		expect(paid.error).toBeUndefined();
		expect(jsonOf(paid)[0]).toMatchObject({ reference_no: 'OS-LIST-1', replayed: false });
		expect(s.gw.lastRequestBody(PAYOUT_PROCESS)).toMatchObject({ fields: { bank_code: 'BPI' } });
	});

	test('Dry Run, bank code "bpi" under Allowed Recipients "BPI:…": admitted (ASCII case folded), its payee shows bpi as sent', async () => {
		const result = await run(
			s,
			bankTransferParameters(allowing('BPI:001234567890', { options: { dryRun: true } })),
			{ items: [bankRow('OS-DRY-1', { bank: 'bpi' })] },
		);
		const [row] = jsonOf(result);
		expect(row).toMatchObject({ wouldSend: true, payee: 'bpi ••••••••7890' });
		expect(sentPayouts()).toBe(0);
	});
});

describe('Payment Collection', () => {
	const c = collection.gatewayPerSuite(async () => await collection.setUp(), {
		beforeEach: freshStart,
	});

	test('Generate, channel "GCAſH": refused naming it, nothing sent', async () => {
		const result = await collection.run(c, collection.generateParameters(), {
			items: [{ ref: 'OS-GEN-1', amount: 100, channel: `GCA${LONG_S}H` }],
		});
		expect(result.error?.message).toBe(`${refused('Channel', `GCA${LONG_S}H`)} (row 1)`);
		expect(c.gw.stats().creationsByReference['OS-GEN-1']).toBeUndefined();
	});
});
