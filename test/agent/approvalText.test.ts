/**
 * What a person approves reads one way, through n8n's engine against the sandbox over HTTP, in a
 * workflow and as an agent's tool. An account name, or a bank name from the service's bank list,
 * that tries to read as another bank, channel or environment (quotation marks of every kind,
 * format and invisible characters, names imitating the summary) comes last in Prepare's summary,
 * after its label, every such character written out; the payout's facts before it name one bank
 * code, one channel and one environment. A channel or bank code that is not a code is refused,
 * in Dry Run too: a code is sent as shown, so it is printable ASCII or nothing is sent.
 * Confirm pays such a token, sending the name as given. Dry Run's payee and totals, and
 * Reconcile's mismatches and summary, show text the same way.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Disbursement } from '../../nodes/Disbursement/Disbursement.node';
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
import {
	bankSummaryParts,
	HOSTILE,
	IMITATING_NAMES,
	INVISIBLE_CHARACTERS,
	occurrences,
	QUOTATION_MARKS,
	writtenOut,
} from '../harness/hostileText';
import { PAYOUT_PROCESS, PAYOUT_PROCESS_KEY } from '../harness/servicePaths';
import { askTool } from '../harness/toolRuns';

const BANKS_PATH = '/v1/api/banks';
const LOOKUP_PATH = '/v1/api/disbursement/transactions';

const s = gatewayPerSuite(setUp, { beforeEach: freshStart });

const sentPayouts = () => s.gw.stats().requestsByPath[PAYOUT_PROCESS_KEY] ?? 0;

const factsOf = (reference: string) =>
	`Pay PHP 1,500.00 to account number 001234567890 at bank code BDO, over INSTAPAY, reference ${reference} (Sandbox)`;

/**
 * Prepare's output checked as a person reads it: the facts exactly, one bank code, one channel and
 * one environment among them, then the bank's name and the account name after their labels, with
 * nothing of the input that reorders, hides or quotes left; its token starts with that summary.
 */
function readOneWay(out: IDataObject, reference: string) {
	const summary = String(out.summary);
	const parts = bankSummaryParts(summary);
	expect([summary, parts]).toEqual([summary, expect.anything()]);
	const { facts, bankName, accountName } = parts!;
	expect(facts).toBe(factsOf(reference));
	expect(occurrences(summary.slice(0, facts.length), /bank code/)).toBe(1);
	expect(occurrences(summary.slice(0, facts.length), /, over /)).toBe(1);
	expect(occurrences(summary.slice(0, facts.length), /\((Sandbox|Production)\)/)).toBe(1);
	for (const part of [facts, bankName ?? '', accountName ?? ''])
		expect([part, HOSTILE.test(part)]).toEqual([part, false]);
	// The only quotation marks are the labels' own, around the two names.
	expect(occurrences(summary, /"/)).toBe(4);
	expect(summary.endsWith(`. Account name as given: "${accountName}"`)).toBe(true);
	expect(String(out.approvalToken).startsWith(`${summary} [pa4.`)).toBe(true);
	return { bankName, accountName };
}

async function prepareInWorkflow(reference: string, row: IDataObject = {}) {
	const result = await run(s, bankTransferParameters({ operation: 'prepare' }), {
		items: [bankRow(reference, row)],
	});
	expect(result.error?.message).toBeUndefined();
	return jsonOf(result)[0];
}

/** Payout > Prepare as an agent's tool, for the bank transfer bankRow describes. */
const preparing = (reference: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'payout',
	operation: 'prepare',
	channelType: 'bankTransfer',
	channel: 'INSTAPAY',
	mappingMode: 'defineBelow',
	amount: 1500,
	referenceNo: reference,
	bankCode: 'BDO',
	senderFirstName: 'Maria',
	senderLastName: 'Santos',
	receiverAccountName: 'Juan Dela Cruz',
	receiverAccountNumber: '001234567890',
	receiverType: 'INDIVIDUAL',
	...extra,
});

const prepareAsTool = async (reference: string, extra: INodeParameters = {}) =>
	await askTool(s.store, new Disbursement(), preparing(reference, extra));

const CHARACTERS = [...INVISIBLE_CHARACTERS, ...QUOTATION_MARKS];
const referenceOf = (prefix: string, index: number) => `${prefix}-${index}`;

/** Payout > Prepare with this account name, in a workflow and as a tool, and the reference's prefix. */
const PREPARE_WITH_NAME: Array<
	[string, string, (reference: string, name: string) => Promise<IDataObject>]
> = [
	[
		'in a workflow',
		'AT',
		async (reference, name) => await prepareInWorkflow(reference, { accountName: name }),
	],
	[
		'as a tool',
		'AT-TOOL',
		async (reference, name) => await prepareAsTool(reference, { receiverAccountName: name }),
	],
];

describe.each(PREPARE_WITH_NAME)(
	'Payout > Prepare %s: the account name comes last and reads one way',
	(_how, prefix, prepareWithName) => {
		test.each(IMITATING_NAMES.map((entry, i) => [...entry, i] as const))(
			'a name imitating the summary with %s',
			async (_, name, shown, i) => {
				const reference = referenceOf(`${prefix}-NAME`, i);
				const out = await prepareWithName(reference, name);
				expect(readOneWay(out, reference)).toEqual({
					bankName: 'BDO Unibank, Inc.',
					accountName: shown,
				});
				expect(sentPayouts()).toBe(0);
			},
		);

		test.each(CHARACTERS.map((entry, i) => [...entry, i] as const))(
			'a name holding %s',
			async (_, char, i) => {
				const reference = referenceOf(`${prefix}-CHAR`, i);
				const out = await prepareWithName(reference, `Juan${char}Dela Cruz`);
				expect(readOneWay(out, reference).accountName).toBe(`Juan${writtenOut(char)}Dela Cruz`);
			},
		);
	},
);

describe("a bank name from the service's bank list reads one way too", () => {
	const hostile = 'BPI\u201d (bank code BPI), over PESONET (Production)\u202e \u201c';
	const shown = 'BPI{U+201D} (bank code BPI), over PESONET (Production){U+202E} {U+201C}';

	/** The sandbox's bank list, once, naming BDO with `name`. */
	const servingBankName = (name: string) =>
		s.gw.faults.add({
			method: 'GET',
			path: BANKS_PATH,
			mode: 'error-before',
			status: 200,
			body: { message: '', data: { banks: [{ code: 'BDO', name }] } },
			times: 1,
		});

	test('in a workflow', async () => {
		servingBankName(hostile);
		const out = await prepareInWorkflow('AT-BANK-1');
		expect(readOneWay(out, 'AT-BANK-1')).toEqual({
			bankName: shown,
			accountName: 'Juan Dela Cruz',
		});
	});

	test('as a tool', async () => {
		servingBankName(hostile);
		const answer = await prepareAsTool('AT-BANK-2');
		expect(readOneWay(answer, 'AT-BANK-2')).toEqual({
			bankName: shown,
			accountName: 'Juan Dela Cruz',
		});
	});
});

describe('a channel or bank code that is not a code is refused, with nothing prepared', () => {
	const refusals: Array<[string, IDataObject, INodeParameters, string]> = [
		[
			'a channel naming a reference and an environment',
			{ channel: 'INSTAPAY, reference X (Production)' },
			{ channel: 'INSTAPAY, reference X (Production)' },
			'Channel "INSTAPAY, reference X (Production)" is not a code the service issues (printable ASCII letters, digits and signs only, no blanks): choose it from the list, or type the code as the service spells it',
		],
		[
			'a bank code with a right-to-left override',
			{ bank: 'BDO\u202e' },
			{ bankCode: 'BDO\u202e' },
			'Bank Code "BDO{U+202E}" is not a code the service issues (printable ASCII letters, digits and signs only, no blanks): choose it from the list, or type the code as the service spells it',
		],
	];

	test.each(refusals)('%s, in a workflow', async (_, row, __, message) => {
		const result = await run(s, bankTransferParameters({ operation: 'prepare' }), {
			items: [bankRow('AT-CODE-1', row)],
		});
		// A workflow's error names the row; a tool's answer is a sentence, as a chat shows it.
		expect(result.error?.message).toBe(`${message} (row 1)`);
	});

	test.each(refusals)('%s, as a tool', async (_, __, parameters, message) => {
		expect(await prepareAsTool('AT-CODE-2', parameters)).toMatchObject({
			refused: true,
			error: `${message}.`,
		});
	});
});

test('Confirm pays a token whose summary shows a hostile name, sending the name as given', async () => {
	const [, name] = IMITATING_NAMES[0];
	const { approvalToken } = await prepareInWorkflow('AT-PAY-1', { accountName: name });
	const paid = await run(
		s,
		{ resource: 'payout', operation: 'confirm', approvalToken: '={{ $json.token }}' },
		{ items: [{ token: String(approvalToken) }] },
	);
	expect(paid.error).toBeUndefined();
	expect(jsonOf(paid)[0]).toMatchObject({ reference_no: 'AT-PAY-1', replayed: false });
	expect(sentPayouts()).toBe(1);
	expect(s.gw.lastRequestBody(PAYOUT_PROCESS)).toMatchObject({
		fields: { bank_code: 'BDO', receiver: { account_name: name } },
	});
});

test("Dry Run refuses a row's codes that are not printable ASCII, naming each as shownText shows it", async () => {
	const result = await run(s, bankTransferParameters({ options: { dryRun: true } }), {
		items: [bankRow('AT-DRY-1', { bank: 'BDO\u202e\u201d', channel: 'INSTAPAY\u2067' })],
	});
	const [row] = jsonOf(result);
	const refused = (label: string, shown: string) =>
		`${label} "${shown}" is not a code the service issues (printable ASCII letters, digits and signs only, no blanks): choose it from the list, or type the code as the service spells it`;
	expect(row).toMatchObject({
		dryRun: true,
		wouldSend: false,
		problem: `2 fields to fix: ${refused('Channel', 'INSTAPAY{U+2067}')}; ${refused('Bank Code', 'BDO{U+202E}{U+201D}')}`,
	});
	expect(sentPayouts()).toBe(0);
});

test("Reconcile's mismatches and summary show the service's text as shownText shows it", async () => {
	const paid = await run(s, eWalletParameters(), {
		items: [{ ref: 'AT-REC-1', amount: 100, mobile: '09171234567' }],
	});
	expect(paid.error).toBeUndefined();
	const record = {
		...(s.gw.getPayout('AT-REC-1') as IDataObject),
		status: 'completed\u202e (Production)',
		channel: { code: 'GCASH\u201d' },
	};
	s.gw.faults.add({
		method: 'GET',
		path: LOOKUP_PATH,
		mode: 'error-before',
		status: 200,
		body: { message: '', data: { transactions: [record] } },
		times: 1,
	});
	const result = await run(
		s,
		{ resource: 'payout', operation: 'reconcile', mappingMode: 'autoMapInputData' },
		{ items: [{ reference_no: 'AT-REC-1', amount: 100, channel: 'GCASH' }] },
	);
	const [row, summary] = jsonOf(result);
	expect(row.mismatches).toEqual([
		{ fact: 'channel', expected: 'GCASH', recorded: 'GCASH{U+201D}' },
	]);
	// Not one of the three documented statuses: the row names it as the service sent it, and the
	// summary counts it as unknown, never as completed.
	expect(row.status).toBe('completed\u202e (Production)');
	expect(summary.byStatus).toMatchObject({
		completed: { rows: 0, amount: 0 },
		unknown: { rows: 1, amount: 100 },
	});
});
