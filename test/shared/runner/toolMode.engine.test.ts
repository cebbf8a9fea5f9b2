/**
 * Tool mode fails closed, through n8n's own tool execution path: an agent node (a stub, no model)
 * asks n8n-core for its tools (`getInputConnectionData`, which wraps our nodes with
 * `createNodeAsTool`) and calls them. Payout > Create, Payout > Confirm and Transaction > Generate
 * refuse without their cap; Allowed Recipients is enforced; a refusal is the tool's answer, not a
 * failed run. n8n 2.x agents also run a tool node as an ordinary node of type "...Tool": the last
 * tests run that variant the same way.
 */
import type { ICredentialDataDecryptedObject, INodeParameters, INodeType } from 'n8n-workflow';

import { Disbursement } from '../../../nodes/Disbursement/Disbursement.node';
import { PaymentCollection } from '../../../nodes/PaymentCollection/PaymentCollection.node';
import { SANDBOX_CREDENTIALS } from '../../../sandbox';
import { runNode } from '../../harness';
import { freshStart, gatewayPerSuite, setUp, type Setup } from '../../harness/disbursementRuns';
import { PAYOUT_PROCESS_KEY } from '../../harness/servicePaths';
import { askTool as askToolOf, askToolForItems, toolVariant } from '../../harness/toolRuns';

const s = gatewayPerSuite(
	async (): Promise<Setup> => {
		const setup = await setUp();
		setup.store.add('paymentCollectionApi', {
			environment: 'sandbox',
			baseUrl: setup.gw.url,
			...SANDBOX_CREDENTIALS.collection,
		});
		return setup;
	},
	{ beforeEach: freshStart },
);

/** What the agent got back from the node run as its tool. */
const askTool = async (node: INodeType, parameters: INodeParameters) =>
	await askToolOf(s.store, node, parameters);

const payout = (referenceNo: string, options: INodeParameters = {}): INodeParameters => ({
	resource: 'payout',
	operation: 'create',
	channelType: 'bankTransfer',
	channel: 'INSTAPAY',
	// Version 2 maps input columns automatically unless told otherwise; these fields are set here.
	mappingMode: 'defineBelow',
	amount: 1500,
	referenceNo,
	bankCode: 'BDO',
	senderFirstName: 'Maria',
	senderLastName: 'Santos',
	receiverAccountName: 'Juan Dela Cruz',
	receiverAccountNumber: '001234567890',
	receiverType: 'INDIVIDUAL',
	options,
});

const sentPayouts = () => s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0;

describe('Payout > Create as a tool', () => {
	test('without Maximum per Payout it refuses, as its answer, with nothing sent', async () => {
		const answer = await askTool(new Disbursement(), payout('TM-NOCAP-1'));
		expect(answer).toEqual({
			refused: true,
			error:
				'Refused: this tool moves money and its "Maximum per Payout" is not set, so nothing was sent.',
			whatToDo: expect.stringMatching(/owner of this workflow must set "Maximum per Payout"/),
		});
		expect(sentPayouts()).toBe(0);
	});

	test('Send and Wait for Final Status is not offered: one stored on reads as off, and the tool answers at once', async () => {
		// The switch is hidden from a tool, so n8n reads it as its default: Create as without it.
		const answer = await askTool(new Disbursement(), {
			...payout('TM-WAIT-1', { maxAmountPerPayout: 2000 }),
			sendAndWait: true,
		});
		expect(answer).toEqual({
			reference_no: 'TM-WAIT-1',
			status: 'pending',
			amount: 1500,
			channel: 'INSTAPAY',
			replayed: false,
		});
		expect(sentPayouts()).toBe(1);
	});

	test('with the cap set it pays; above the cap it refuses', async () => {
		const paid = await askTool(
			new Disbursement(),
			payout('TM-CAP-1', { maxAmountPerPayout: 2000 }),
		);
		expect(paid).toMatchObject({ reference_no: 'TM-CAP-1', amount: 1500 });
		expect(sentPayouts()).toBe(1);
		const above = await askTool(
			new Disbursement(),
			payout('TM-CAP-2', { maxAmountPerPayout: 1000 }),
		);
		expect(above).toMatchObject({
			refused: true,
			error: expect.stringMatching(/Maximum per Payout/),
		});
		expect(sentPayouts()).toBe(1);
	});

	test('a refusal reads as sentences a person is told: no spreadsheet row, a full stop after each', async () => {
		const above = await askTool(
			new Disbursement(),
			payout('TM-WORDS-1', { maxAmountPerPayout: 1000 }),
		);
		const { error, whatToDo } = above as { error: string; whatToDo: string };
		expect([error, whatToDo].map((text) => /\(row \d+\)/.test(text))).toEqual([false, false]);
		expect([error, whatToDo].map((text) => /[.!?]$/.test(text))).toEqual([true, true]);
		expect(error).not.toMatch(/Refused: .*Refused:/);
		expect(sentPayouts()).toBe(0);
	});

	test('a recipient outside Allowed Recipients is refused; one inside is paid', async () => {
		const outside = await askTool(
			new Disbursement(),
			payout('TM-ALLOW-1', {
				maxAmountPerPayout: 2000,
				allowedRecipients: '0917*\nBDO:009999999999',
			}),
		);
		expect(outside).toMatchObject({
			refused: true,
			error: expect.stringMatching(
				/recipient \(account number 001234567890 at bank BDO\) is not in this node's Allowed Recipients/,
			),
		});
		expect(sentPayouts()).toBe(0);
		const inside = await askTool(
			new Disbursement(),
			payout('TM-ALLOW-2', { maxAmountPerPayout: 2000, allowedRecipients: 'BDO:0012345*' }),
		);
		expect(inside).toMatchObject({ reference_no: 'TM-ALLOW-2' });
		expect(sentPayouts()).toBe(1);
	});
});

describe('Allowed Recipients as a tool: an account number names its bank', () => {
	const capped = { maxAmountPerPayout: 2000 };
	const atBank = (referenceNo: string, bankCode: string, allowedRecipients: string) => ({
		...payout(referenceNo, { ...capped, allowedRecipients }),
		bankCode,
	});

	test('an account number without its bank: Create, Prepare and Confirm refuse, saying how to write it, with nothing sent', async () => {
		const refusal = {
			refused: true,
			error:
				'Allowed Recipients has an account number without its bank: "001234567890". Write it with its bank code, as BDO:001234567890, or as ANY:001234567890 for that number at any bank. Nothing was sent.',
			whatToDo: expect.stringMatching(/BDO:001234567890, or ANY:001234567890/),
		};
		const created = await askTool(new Disbursement(), atBank('TM-BANK-1', 'BDO', '001234567890'));
		expect(created).toEqual(refusal);
		const prepared = await askTool(new Disbursement(), {
			...atBank('TM-BANK-2', 'BDO', '001234567890'),
			operation: 'prepare',
		});
		expect(prepared).toEqual(refusal);
		const token = await askTool(new Disbursement(), {
			...payout('TM-BANK-3'),
			operation: 'prepare',
		});
		const confirmed = await askTool(new Disbursement(), {
			resource: 'payout',
			operation: 'confirm',
			approvalToken: token.approvalToken as string,
			options: { ...capped, allowedRecipients: '001234567890' },
		});
		expect(confirmed).toEqual(refusal);
		expect(sentPayouts()).toBe(0);
	});

	test('BDO:… pays the account at BDO only; ANY:… at any bank', async () => {
		const elsewhere = await askTool(
			new Disbursement(),
			atBank('TM-BANK-4', 'BPI', 'BDO:001234567890'),
		);
		expect(elsewhere).toMatchObject({
			refused: true,
			error: expect.stringMatching(/account number 001234567890 at bank BPI\) is not in/),
		});
		expect(sentPayouts()).toBe(0);
		const atBdo = await askTool(new Disbursement(), atBank('TM-BANK-5', 'BDO', 'BDO:001234567890'));
		expect(atBdo).toMatchObject({ reference_no: 'TM-BANK-5' });
		for (const bank of ['BDO', 'BPI']) {
			const any = await askTool(
				new Disbursement(),
				atBank(`TM-BANK-ANY-${bank}`, bank, 'ANY:001234567890'),
			);
			expect(any).toMatchObject({ reference_no: `TM-BANK-ANY-${bank}` });
		}
		expect(sentPayouts()).toBe(3);
	});
});

describe('Prepare and Confirm as tools', () => {
	test('Prepare needs no cap; Confirm refuses without one and pays with one', async () => {
		const prepared = await askTool(new Disbursement(), {
			...payout('TM-CONFIRM-1'),
			operation: 'prepare',
		});
		expect(prepared).toMatchObject({ sent: false, reference_no: 'TM-CONFIRM-1' });
		const confirm = (options: INodeParameters): INodeParameters => ({
			resource: 'payout',
			operation: 'confirm',
			approvalToken: prepared.approvalToken as string,
			options,
		});
		const refused = await askTool(new Disbursement(), confirm({}));
		expect(refused).toMatchObject({ refused: true, error: expect.stringMatching(/not set/) });
		expect(sentPayouts()).toBe(0);
		const paid = await askTool(new Disbursement(), confirm({ maxAmountPerPayout: 5000 }));
		expect(paid).toMatchObject({ reference_no: 'TM-CONFIRM-1', replayed: false });
		expect(sentPayouts()).toBe(1);
	});
});

describe('Transaction > Generate as a tool', () => {
	const generate = (referenceNo: string, options: INodeParameters = {}): INodeParameters => ({
		resource: 'transaction',
		operation: 'generate',
		channelCode: 'GCASH_TRN',
		amount: 500,
		referenceNo,
		options,
	});
	test('refuses without Maximum Total per Run, creates with it', async () => {
		const refused = await askTool(new PaymentCollection(), generate('TM-GEN-1'));
		expect(refused).toMatchObject({
			refused: true,
			error: expect.stringMatching(/"Maximum Total per Run" is not set/),
		});
		expect(s.gw.stats().attemptsByReference['TM-GEN-1']).toBeUndefined();
		const created = await askTool(
			new PaymentCollection(),
			generate('TM-GEN-2', { maxTotalPerRun: 1000 }),
		);
		expect(created).toMatchObject({ reference_no: 'TM-GEN-2' });
	});
});

describe('the tool variant run by the engine as an ordinary node (n8n 2.x agents)', () => {
	test('its type name alone puts it in tool mode: no cap, no payout, a refusal as its output', async () => {
		const result = await runNode({
			type: toolVariant(new Disbursement(), true),
			store: s.store,
			parameters: payout('TM-ENGINE-1'),
			items: [{ toolCallId: 'call_1' }],
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0][0].json).toMatchObject({
			refused: true,
			error: expect.stringMatching(/Maximum per Payout/),
		});
		expect(sentPayouts()).toBe(0);
	});

	test('the same node, not a tool, pays without a cap as before', async () => {
		const result = await runNode({
			type: 'n8n-nodes-payment-gateway.disbursement',
			store: s.store,
			parameters: payout('TM-ENGINE-2'),
		});
		expect(result.error).toBeUndefined();
		expect(sentPayouts()).toBe(1);
	});
});

describe('who is paid, as a tool', () => {
	const eWallet = (referenceNo: string, operation: string, options: INodeParameters = {}) => ({
		resource: 'payout',
		operation,
		channelType: 'eWallet',
		channel: 'GCASH',
		mappingMode: 'defineBelow',
		amount: 500,
		referenceNo,
		mobileNumber: '09998887777',
		options: { maxAmountPerPayout: 5000, ...options },
	});
	const confirmWith = (approvalToken: unknown): INodeParameters => ({
		resource: 'payout',
		operation: 'confirm',
		approvalToken: approvalToken as string,
		options: { maxAmountPerPayout: 5000 },
	});

	test('an account entry does not admit an e-wallet payout, even with that account in its extra fields', async () => {
		const smuggled = await askTool(new Disbursement(), {
			...eWallet('TM-WHO-1', 'create', { allowedRecipients: 'BDO:001234567890' }),
			extraChannelFields: '{"receiver": {"account_number": "001234567890"}}',
		});
		expect(smuggled).toMatchObject({
			refused: true,
			error: expect.stringMatching(/fields\.receiver\.account_number is not a recipient field/),
		});
		const plain = await askTool(
			new Disbursement(),
			eWallet('TM-WHO-2', 'prepare', { allowedRecipients: 'BDO:001234567890, +63 917*' }),
		);
		expect(plain).toMatchObject({
			refused: true,
			error: expect.stringMatching(/mobile number 09998887777\) is not in this node's Allowed/),
		});
		const unreadable = await askTool(
			new Disbursement(),
			eWallet('TM-WHO-3', 'create', { allowedRecipients: '0999*, ask the boss' }),
		);
		expect(unreadable).toMatchObject({
			refused: true,
			error: expect.stringMatching(/"ask the boss"/),
		});
		expect(sentPayouts()).toBe(0);
	});

	test('Prepare shows the recipient in full; Confirm refuses a token read with another summary', async () => {
		const shown = await askTool(new Disbursement(), eWallet('TM-WHO-SHOWN', 'prepare'));
		const other = await askTool(new Disbursement(), {
			...eWallet('TM-WHO-OTHER', 'prepare'),
			mobileNumber: '09171234567',
		});
		expect(other.summary).toBe(
			'Pay PHP 500.00 to e-wallet mobile number 09171234567 on GCASH, reference TM-WHO-OTHER (Sandbox)',
		);
		const token = String(other.approvalToken);
		const forged = `${String(shown.summary)}${token.slice(token.lastIndexOf(' [pa4.'))}`;
		const refused = await askTool(new Disbursement(), confirmWith(forged));
		expect(refused).toMatchObject({
			refused: true,
			error: expect.stringMatching(/does not read the summary Prepare wrote for it/),
		});
		expect(sentPayouts()).toBe(0);
	});

	/** Runs `check` with the tools' Disbursement credential changed, then puts it back. */
	async function withCredentialChanged(
		change: ICredentialDataDecryptedObject,
		check: () => Promise<void>,
	) {
		const id = s.store.firstOf('disbursementApi')!.id;
		const data = s.store.data('disbursementApi', id);
		s.store.update('disbursementApi', id, { ...data, ...change });
		try {
			await check();
		} finally {
			s.store.update('disbursementApi', id, data);
		}
	}

	test('a token prepared in Sandbox does not pay once the credential says Production', async () => {
		const prepared = await askTool(new Disbursement(), eWallet('TM-WHO-ENV', 'prepare'));
		await withCredentialChanged({ environment: 'production' }, async () => {
			const refused = await askTool(new Disbursement(), confirmWith(prepared.approvalToken));
			expect(refused).toMatchObject({
				refused: true,
				error: expect.stringMatching(/prepared for Sandbox .* now Production/),
			});
		});
		expect(sentPayouts()).toBe(0);
	});

	test('without a Signing Secret, Prepare and Confirm answer that one is needed', async () => {
		const prepared = await askTool(new Disbursement(), eWallet('TM-WHO-KEY', 'prepare'));
		await withCredentialChanged({ signingSecret: '' }, async () => {
			for (const parameters of [
				eWallet('TM-WHO-KEY-2', 'prepare'),
				confirmWith(prepared.approvalToken),
			]) {
				expect(await askTool(new Disbursement(), parameters)).toMatchObject({
					refused: true,
					error: expect.stringMatching(/Approvals need the credential's Signing Secret/),
					whatToDo: expect.stringMatching(/fill in Signing Secret/),
				});
			}
		});
		expect(sentPayouts()).toBe(0);
	});
});

describe('Reconcile as a tool', () => {
	test('the agent reads the rows and the summary as one list, as version 1 gives them, whatever outputs the node has in a workflow', async () => {
		const answer = await askToolForItems(s.store, new Disbursement(), {
			resource: 'payout',
			operation: 'reconcile',
			referenceNo: 'TM-RECONCILE-1',
		});
		expect(answer.map((item) => [item.status ?? null, item.summary ?? null])).toEqual([
			['not found', null],
			[null, true],
		]);
	});
});
