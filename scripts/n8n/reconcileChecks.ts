// The e2e checks of Payout > Reconcile: after part of a sheet was paid, example 07 ("After a crash:
// what was paid?") reconciles the whole sheet in real n8n. The paid rows come back with the
// service's status and facts, the rows never sent as "not found", a wrong amount as a mismatch,
// and nothing is sent that could create a payout.
import { assert, assertEqual, type Check } from './check';
import type { WorkflowJson } from './instance';

export const RECONCILE_WORKFLOW = 'pgwReconcilePaid';
// The payout sheet of example 05, partly paid by it, reconciled with the same workflow.
const BONUS_WORKFLOW = 'pgwReconcileBonus';
const RECONCILE_NODE = 'What was paid?';

type Json = Record<string, unknown>;

interface SandboxStats {
	creationsByReference: Record<string, number>;
	attemptsByReference: Record<string, number>;
}

export interface ReconcileCheckContext {
	check: Check;
	/** Runs a workflow with `n8n execute`; returns (node name, output index) -> item json list. */
	execute: (id: string) => Promise<(node: string, output?: number) => Json[]>;
	importWorkflows: (workflows: WorkflowJson[]) => Promise<void>;
	/** Example 07 as imported. */
	reconcileExample: WorkflowJson;
	sandbox: { stats(): SandboxStats };
}

/** [reference, status, recorded amount, recorded channel, mismatches] of each row item. */
const rowFacts = (rows: Json[]) =>
	rows.map((row) => [
		row.payout_id,
		row.status,
		row.recordedAmount ?? null,
		row.recordedChannel ?? null,
		row.mismatches,
	]);

/** The rows' items and the summary (the last item) of the Reconcile node's main output. */
function reconciled(out: (node: string, output?: number) => Json[]) {
	const items = out(RECONCILE_NODE);
	const summary = items[items.length - 1];
	assert(summary?.summary === true, `the last item is not the summary: ${JSON.stringify(summary)}`);
	return { rows: items.slice(0, -1), summary };
}

/** Runs a workflow and asserts that no create request of any kind reached the sandbox meanwhile. */
async function executeSendingNothing(
	{ execute, sandbox }: ReconcileCheckContext,
	id: string,
): Promise<(node: string, output?: number) => Json[]> {
	const before = sandbox.stats();
	const out = await execute(id);
	const after = sandbox.stats();
	assertEqual(after.attemptsByReference, before.attemptsByReference, 'create requests');
	assertEqual(after.creationsByReference, before.creationsByReference, 'records created');
	return out;
}

/** Example 07 on the sheet of example 05: two rows paid as they are, one with another amount, two never sent. */
function bonusSheetWorkflow(example: WorkflowJson): WorkflowJson {
	const rows = [
		"{ payout_id: 'BONUS-2026-03-001', mobile: '09171234567', amount: '2,500.00' }",
		"{ payout_id: 'BONUS-2026-03-002', mobile: '09181234567', amount: 1800 }",
		"{ payout_id: 'BONUS-2026-03-003', mobile: '+639191234567', amount: 3200 }",
		"{ payout_id: 'BONUS-2026-03-004', mobile: '09201234567', amount: 950 }",
		"{ payout_id: 'BONUS-2026-03-005', mobile: '09211234567', amount: 1200 }",
	];
	const workflow = structuredClone(example);
	workflow.id = BONUS_WORKFLOW;
	workflow.name = 'Reconcile the bonus sheet';
	for (const node of workflow.nodes) {
		if (node.name === 'Spreadsheet rows')
			node.parameters = {
				jsCode: `return [\n  ${rows.join(',\n  ')},\n].map((row) => ({ json: row }));`,
			};
		if (node.name === RECONCILE_NODE) {
			const { bankCode, receiverAccountNumber, ...kept } = node.parameters;
			assert(bankCode && receiverAccountNumber, 'example 07 no longer maps the bank account');
			node.parameters = { ...kept, channel: 'GCASH', mobileNumber: '={{ $json.mobile }}' };
		}
	}
	return workflow;
}

/**
 * Run after examples 01 (PAYROLL rows 1 to 3 paid, pending; rows 4 and 5 refused before sending)
 * and 05 (BONUS rows 1 to 3 paid and completed).
 */
export async function reconcileChecks(context: ReconcileCheckContext): Promise<void> {
	const { check } = context;
	await check(
		'after a crash, what was paid? (example 07): the paid rows pending with their facts, the unsent row not found, a bad cell on the error output, nothing sent',
		async () => {
			const out = await executeSendingNothing(context, RECONCILE_WORKFLOW);
			const { rows, summary } = reconciled(out);
			assertEqual(
				rowFacts(rows),
				[
					['PAYROLL-2026-02-001', 'pending', 12500, 'INSTAPAY', []],
					['PAYROLL-2026-02-002', 'pending', 9800.5, 'INSTAPAY', []],
					['PAYROLL-2026-02-003', 'pending', 15000, 'INSTAPAY', []],
					['PAYROLL-2026-02-004', 'not found', null, null, []],
				],
				'reconciled rows',
			);
			assertEqual(
				out('Write status back').map((row) => [row.payout_id, row.status, row.mismatches]),
				rowFacts(rows).map(([reference, status]) => [reference, status, '']),
				'status written back',
			);
			const [notChecked, ...more] = out('Rows not checked');
			assertEqual(
				[notChecked?.payout_id, more.length],
				['PAYROLL-2026-02-005', 0],
				'rows on the error output',
			);
			assert(/amount/i.test(String(notChecked.problem)), `names the amount: ${notChecked.problem}`);
			assertEqual(out('Summary'), [summary], 'the Summary branch');
			assertEqual(
				summary,
				{
					summary: true,
					rows: 5,
					byStatus: {
						completed: { rows: 0, amount: 0 },
						pending: { rows: 3, amount: 37300.5 },
						cancelled: { rows: 0, amount: 0 },
					},
					notFound: 1,
					ambiguous: 0,
					mismatched: 0,
					notChecked: 1,
				},
				'summary',
			);
		},
	);

	await check(
		'a sheet partly paid, reconciled whole: paid rows completed, a wrong amount named, rows never sent not found',
		async () => {
			await context.importWorkflows([bonusSheetWorkflow(context.reconcileExample)]);
			const out = await executeSendingNothing(context, BONUS_WORKFLOW);
			const { rows, summary } = reconciled(out);
			assertEqual(
				rowFacts(rows),
				[
					['BONUS-2026-03-001', 'completed', 2500, 'GCASH', []],
					['BONUS-2026-03-002', 'completed', 1800, 'GCASH', []],
					[
						'BONUS-2026-03-003',
						'completed',
						3200.5,
						'GCASH',
						[{ fact: 'amount', expected: '3200', recorded: '3200.5' }],
					],
					['BONUS-2026-03-004', 'not found', null, null, []],
					['BONUS-2026-03-005', 'not found', null, null, []],
				],
				'reconciled rows',
			);
			assertEqual(
				out('Write status back')[2]?.mismatches,
				'amount: sheet 3200, service 3200.5',
				'the mismatch written back',
			);
			assertEqual(out('Rows not checked'), [], 'rows on the error output');
			assertEqual(
				[summary.rows, summary.byStatus, summary.notFound, summary.mismatched, summary.notChecked],
				[
					5,
					{
						completed: { rows: 3, amount: 7500.5 },
						pending: { rows: 0, amount: 0 },
						cancelled: { rows: 0, amount: 0 },
					},
					2,
					1,
					0,
				],
				'summary',
			);
		},
	);
}
