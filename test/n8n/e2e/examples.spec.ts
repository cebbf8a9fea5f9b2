// The packed package in the project's n8n version: it loads, the sandbox credentials and the
// example workflows import, and the examples run headless (`n8n execute`) against the sandbox
// gateway, which shows who was paid what. The examples hold Disbursement node version 2; a
// workflow of version 1 nodes, as saved before version 2, runs last (../version1Payouts.ts).
import { BATCH_WEBHOOK_HEADER } from '../../../scripts/n8n/credentials';
import { PACKAGE_NAME } from '../../../scripts/n8n/paths';
import { major } from '../../../scripts/n8n/targets';
import { exportNodeTypes } from '../cli';
import { VERSION_1_PAYOUTS, version1PayoutsWorkflow } from '../version1Payouts';
import { test, expect, WF, SHEET_PAYOUTS, VALID_PAYOUTS, INVALID_PAYOUTS, ORDER } from './fixtures';

test.describe.configure({ mode: 'serial' });

/** The fields of the items these checks read, as the example workflows output them. */
interface PayoutItem {
	payout_id: string;
	reference_no: string;
	status: string;
	replayed: boolean;
	amount: number;
	finalStatus?: boolean;
}
interface RowToFix {
	payout_id: string;
	reference_no: string;
	problem: string;
}
interface DryRunRow {
	reference_no: string;
	wouldSend: boolean;
}
interface DryRunItem {
	rows: number;
	wouldFail: number;
	totalAmount: number;
	overMaximumTotal: boolean;
}
interface PaymentLinkItem {
	order_id: string;
	pay_here: string;
	status: string;
	amount_due: number;
}
interface SandboxPayout {
	amount: number;
	channel: string;
	callback_webhook_url?: string;
	fields: { mobile_number: string };
}
interface SandboxBankPayout {
	amount: number;
	channel: string;
	fields: Record<string, unknown>;
}

// Example 06: each row paid its own amount to its own number; the row with a misspelt column not.
const AUTO_MAPPED_PAID = [
	['TIPS-2026-04-001', 1250, '09171234567'],
	['TIPS-2026-04-002', 980.5, '09181234567'],
	['TIPS-2026-04-003', 1500, '+639191234567'],
] as const;
const MISSPELT = 'TIPS-2026-04-004';

test('the n8n of this project is installed on the Node.js it requires', ({
	runtime,
	n8nTarget,
}) => {
	expect(runtime.n8nVersion, 'n8n version').toBe(n8nTarget.n8n);
	// The machine's own Node.js when its major version matches, else the one fetched for it.
	expect(major(runtime.node.version), 'Node.js major version').toBe(major(n8nTarget.node));
});

test(`the packed package loads as ${PACKAGE_NAME}.*`, async ({ leg }) => {
	const names = (await exportNodeTypes(leg.instance)).map((t) => t.name);
	for (const node of ['paymentCollection', 'disbursement', 'paymentGatewayTrigger'])
		expect(names, "n8n's node types").toContain(`${PACKAGE_NAME}.${node}`);
});

test('the sandbox credentials and the example workflows import', async ({ leg }) => {
	await leg.importSandboxCredentials();
	await leg.instance.importWorkflows(Object.values(leg.examples));
});

test('spreadsheet rows -> payouts: valid rows paid, invalid rows on the error output', async ({
	leg,
}) => {
	const out = await leg.execute(WF.payouts);
	const accepted = out<PayoutItem>('Payout accepted');
	expect(
		accepted.map((p) => p.payout_id),
		'payouts accepted',
	).toEqual(VALID_PAYOUTS);
	expect(
		accepted.map((p) => [p.status, p.replayed]),
		'new payouts are pending, not replayed',
	).toEqual(VALID_PAYOUTS.map(() => ['pending', false]));
	const toFix = out<RowToFix>('Rows to fix');
	expect(
		toFix.map((r) => r.payout_id),
		'rows on the error output',
	).toEqual(INVALID_PAYOUTS);
	expect(toFix[0].problem, 'row 4 names the missing field').toMatch(/Account Number/i);
	expect(toFix[1].problem, 'row 5 names the bad amount').toMatch(/amount/i);
	const created = leg.sandbox.stats().creationsByReference;
	for (const ref of VALID_PAYOUTS)
		expect(created[ref], `payouts created in the sandbox for ${ref}`).toBe(1);
	for (const ref of INVALID_PAYOUTS)
		expect(created[ref], `sandbox requests for ${ref}`).toBeUndefined();
	const payout = leg.sandbox.getPayout(VALID_PAYOUTS[0]) as SandboxPayout | undefined;
	expect(payout?.callback_webhook_url, 'callback_webhook_url sent').toBe(leg.webhookUrl);
});

test('running the payout workflow again pays nobody twice', async ({ leg }) => {
	const out = await leg.execute(WF.payouts);
	expect(
		out<PayoutItem>('Payout accepted').map((p) => p.replayed),
		'the second run returns the existing payouts',
	).toEqual(VALID_PAYOUTS.map(() => true));
	for (const ref of VALID_PAYOUTS)
		expect(leg.sandbox.stats().creationsByReference[ref], `creations of ${ref}`).toBe(1);
});

test('the token fetched by the first n8n process is reused by the second', ({ leg }) => {
	// Two `n8n execute` runs above, each its own process: n8n stored the token in the credential.
	expect(leg.sandbox.stats().tokenRequests.disbursement, 'disbursement token requests').toBe(1);
});

test('check a payout sheet, then pay it: a dry run pays nothing, then every row is paid and its final status read', async ({
	leg,
}) => {
	// The sandbox settles these payouts a moment after they are created (no callback URL is sent).
	for (const ref of SHEET_PAYOUTS) leg.sandbox.scriptOutcome(ref, 'completed', 1000);
	const out = await leg.execute(WF.checkThenPay);
	expect(
		out<DryRunRow>('Check the sheet').map((row) => [row.reference_no, row.wouldSend]),
		'dry run rows, on the Rows output',
	).toEqual(SHEET_PAYOUTS.map((ref) => [ref, true]));
	const [summary, ...more] = out<DryRunItem>('Check the sheet', 1);
	expect(
		[
			summary?.rows,
			summary?.wouldFail,
			summary?.totalAmount,
			summary?.overMaximumTotal,
			more.length,
		],
		'dry run summary, alone on the Summary output',
	).toEqual([3, 0, 7500.5, false, 0]);
	expect(
		out<PayoutItem>('Pay the sheet').map((p) => p.reference_no),
		'payouts sent after the check',
	).toEqual(SHEET_PAYOUTS);
	expect(
		out<PayoutItem>('Wait for final status').map((p) => [p.reference_no, p.status, p.finalStatus]),
		'final statuses',
	).toEqual(SHEET_PAYOUTS.map((ref) => [ref, 'completed', true]));
	for (const ref of SHEET_PAYOUTS)
		expect(leg.sandbox.stats().creationsByReference[ref], `creations of ${ref}`).toBe(1);
});

test('spreadsheet columns mapped automatically -> payouts: each row pays its own amount to its own number, a misspelt column is named', async ({
	leg,
}) => {
	const out = await leg.execute(WF.autoMapped);
	expect(
		out<PayoutItem>('Payout accepted').map((p) => [p.reference_no, p.amount, p.replayed]),
		'payouts accepted',
	).toEqual(AUTO_MAPPED_PAID.map(([reference, amount]) => [reference, amount, false]));
	for (const [reference, amount, mobile] of AUTO_MAPPED_PAID) {
		const payout = leg.sandbox.getPayout(reference) as SandboxPayout;
		expect(
			[payout.amount, payout.channel, payout.fields.mobile_number],
			`the sandbox's payout ${reference}`,
		).toEqual([amount, 'GCASH', mobile]);
		expect(leg.sandbox.stats().creationsByReference[reference], `creations of ${reference}`).toBe(
			1,
		);
	}
	const [toFix, ...more] = out<RowToFix>('Rows to fix');
	expect([toFix?.reference_no, more.length], 'rows on the error output').toEqual([MISSPELT, 0]);
	expect(String(toFix.problem), "the error names the missing column and the row's columns").toMatch(
		/^Column "amount" \(Amount\) missing: the item has columns "reference_no", "name", "mobile_number", "amout"/,
	);
	expect(
		leg.sandbox.stats().attemptsByReference[MISSPELT],
		`requests for ${MISSPELT}`,
	).toBeUndefined();
});

test('new order -> payment link from the sandbox', async ({ leg }) => {
	const out = await leg.execute(WF.paymentLink);
	const [link] = out<PaymentLinkItem>('Payment link for the customer');
	expect(link, 'the payment link item').toBeDefined();
	expect(link.order_id, 'order_id').toBe(ORDER);
	expect(link.pay_here, 'web_payment_url').toBe(`${leg.sandbox.url}/pay/${ORDER}`);
	expect(link.status, 'status').toBe('pending');
	expect(link.amount_due, 'amount_due').toBeGreaterThanOrEqual(1499);
	expect(leg.sandbox.stats().creationsByReference[ORDER], 'transactions created').toBe(1);
});

test('daily wallet report: transactions summarised by status', async ({ leg }) => {
	const out = await leg.execute(WF.report);
	const transactions = out('Get wallet transactions');
	const report = out<{ transactions: number }>('Send the report');
	expect(transactions.length, 'wallet transactions').toBeGreaterThan(0);
	expect(report.length, 'report rows').toBeGreaterThan(0);
	const counted = report.reduce((n, row) => n + row.transactions, 0);
	expect(counted, 'transactions counted in the report').toBe(transactions.length);
});

test('a workflow of Disbursement node version 1, as saved before version 2, runs as stored: Dry Run and the limit in Options, fields at the top level, mapped by hand', async ({
	leg,
}) => {
	const { id, paid, refused } = VERSION_1_PAYOUTS;
	await leg.instance.importWorkflows([version1PayoutsWorkflow()]);
	const out = await leg.execute(id);
	const checked = out<DryRunItem>('Check the sheet');
	const summary = checked[checked.length - 1];
	expect(
		[checked.length, summary?.rows, summary?.wouldFail, summary?.totalAmount],
		"version 1's Dry Run: the rows and a summary, the row above the limit counted as failing",
	).toEqual([3, 2, 1, 1250]);
	expect(
		out<PayoutItem>('Payout accepted').map((p) => [p.reference_no, p.status, p.replayed]),
		'the row within the limit paid once, after the dry run',
	).toEqual([[paid, 'pending', false]]);
	const payout = leg.sandbox.getPayout(paid) as SandboxBankPayout;
	expect(
		[payout.amount, payout.channel, payout.fields],
		'what the sandbox was sent: the mapped columns, the optional fields stored at the top level',
	).toEqual([
		1250,
		'INSTAPAY',
		{
			bank_code: 'BDO',
			sender: { first_name: 'Andrea', middle_name: 'Santos', last_name: 'Villanueva' },
			receiver: {
				account_name: 'Juan Dela Cruz',
				account_number: '001234567890',
				type: 'CORPORATE',
			},
		},
	]);
	expect(leg.sandbox.stats().attemptsByReference[paid], `requests for ${paid}`).toBe(1);
	const [toFix, ...more] = out<RowToFix & { error: string }>('Rows to fix');
	expect([toFix?.payout_id, more.length], 'rows on the error output').toEqual([refused, 0]);
	expect(String(toFix.error), 'the limit of 20,000 in Options').toMatch(
		/above the Maximum per Payout \(20,000\)/,
	);
	expect(
		leg.sandbox.stats().attemptsByReference[refused],
		`requests for ${refused}`,
	).toBeUndefined();
});

test('a large sheet in batches (example 09): its batch webhook pays only for a request holding the secret header', async ({
	leg,
}) => {
	const url = `${leg.n8nUrl}/webhook/pgw-payout-batch`;
	await leg.instance.activateWorkflow(WF.sheetBatches);
	await leg.start([url]);
	const batch = { sheet: 'E2E-SHEET', batch: 1, from: 1, to: 3 };
	const rows = ['E2E-SHEET-000001', 'E2E-SHEET-000002', 'E2E-SHEET-000003'];
	const post = async (headers: Record<string, string>) => {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(batch),
		});
		return { status: res.status, text: await res.text() };
	};
	try {
		const refusals = [await post({}), await post({ [BATCH_WEBHOOK_HEADER.name]: 'a guess' })];
		expect(
			refusals.map((answer) => answer.status),
			'a request without the header, and one with a wrong value',
		).toEqual([403, 403]);
		expect(
			rows.map((ref) => leg.sandbox.stats().attemptsByReference[ref]),
			'payout requests after the refused posts',
		).toEqual([undefined, undefined, undefined]);

		const paid = await post({ [BATCH_WEBHOOK_HEADER.name]: BATCH_WEBHOOK_HEADER.value });
		expect(paid.status, `the batch's answer: ${paid.text}`).toBe(200);
		expect(JSON.parse(paid.text), "the batch's summary").toMatchObject({
			batch: 1,
			paid: 3,
			replayed: 0,
			failed: 0,
		});
		expect(leg.created(rows), 'the three rows paid').toBe(true);
	} finally {
		await leg.stop();
	}
});
