// The e2e check of "Map Input Columns Automatically": the example workflow that pays spreadsheet
// rows by their column names (examples/06-payouts-columns-mapped-automatically.json) runs in real
// n8n, and the sandbox shows who was paid what.
import { assert, assertEqual, type Check } from './check';

export const AUTO_MAPPED_WORKFLOW = 'pgwAutoMapPayout';
const PAID = [
	['TIPS-2026-04-001', 1250, '09171234567'],
	['TIPS-2026-04-002', 980.5, '09181234567'],
	['TIPS-2026-04-003', 1500, '+639191234567'],
] as const;
const MISSPELT = 'TIPS-2026-04-004';

type Json = Record<string, unknown>;

export interface ColumnCheckContext {
	check: Check;
	/** Runs a workflow with `n8n execute`; returns (node name, output index) -> item json list. */
	execute: (id: string) => Promise<(node: string, output?: number) => Json[]>;
	sandbox: {
		getPayout(referenceNo: string): object | undefined;
		stats(): {
			creationsByReference: Record<string, number>;
			attemptsByReference: Record<string, number>;
		};
	};
}

export async function columnChecks({ check, execute, sandbox }: ColumnCheckContext): Promise<void> {
	await check(
		'spreadsheet columns mapped automatically -> payouts: each row pays its own amount to its own number, a misspelt column is named',
		async () => {
			const out = await execute(AUTO_MAPPED_WORKFLOW);
			assertEqual(
				out('Payout accepted').map((p) => [p.reference_no, p.amount, p.replayed]),
				PAID.map(([reference, amount]) => [reference, amount, false]),
				'payouts accepted',
			);
			for (const [reference, amount, mobile] of PAID) {
				const payout = sandbox.getPayout(reference) as {
					amount: number;
					channel: string;
					fields: { mobile_number: string };
				};
				assertEqual(
					[payout.amount, payout.channel, payout.fields.mobile_number],
					[amount, 'GCASH', mobile],
					`the sandbox's payout ${reference}`,
				);
				assertEqual(
					sandbox.stats().creationsByReference[reference],
					1,
					`creations of ${reference}`,
				);
			}
			const [toFix, ...more] = out('Rows to fix');
			assertEqual([toFix?.reference_no, more.length], [MISSPELT, 0], 'rows on the error output');
			assert(
				String(toFix.problem).startsWith(
					'Column "amount" (Amount) missing: the item has columns "reference_no", "name", "mobile_number", "amout"',
				),
				`the error names the missing column and the row's columns: ${toFix.problem}`,
			);
			assertEqual(
				sandbox.stats().attemptsByReference[MISSPELT],
				undefined,
				`requests for ${MISSPELT}`,
			);
		},
	);
}
