/**
 * Dry Run: every row is prepared exactly as for a real run, nothing that creates money is sent, and
 * the output shows per row what would be sent, and apart from the rows one summary item (rows, total
 * per channel, rows that would fail and why), so a sheet can be checked before it is paid.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { maskedRecipient } from '../validation/recipient';
import { shownText } from '../validation/shownText';
import { toCentavos } from '../validation/validation';
import type { Operation } from './operation';
import { RepeatedReferences } from './repeatedReferences';
import type { RunContext } from './runContext';

export function dryRunItems(
	run: RunContext,
	operation: Operation,
	maxTotal: number | undefined,
): INodeExecutionData[][] {
	const { ctx } = run;
	const itemCount = ctx.getInputData().length;
	const items: INodeExecutionData[] = [];
	const totals = new Map<string, number>();
	const failures: IDataObject[] = [];
	let total = 0;
	let sameAsEarlierRow = 0;
	const repeats = new RepeatedReferences();
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const row = itemIndex + 1;
		let json: IDataObject;
		try {
			const plan = operation.prepare(run, itemIndex);
			repeats.claim(ctx.getNode(), itemIndex, plan);
			if (!('send' in plan) || !plan.creates)
				throw new Error('This operation creates nothing, so it has no dry run');
			const { referenceNo, amount, channel, recipient } = plan.creates;
			const payee = recipient && maskedRecipient(recipient);
			const earlier = repeats.earlierRow(itemIndex);
			if (earlier) {
				// A real run sends nothing for it: the look-up gives back the earlier row's record, or a conflict.
				const first = earlier.creates;
				if (toCentavos(first.amount) !== toCentavos(amount) || first.channel !== channel) {
					throw new Error(
						`reference_no "${referenceNo}" is also on row ${earlier.itemIndex + 1}, for ${first.amount} on ${shownText(first.channel, 40)}: this row asks for ${amount} on ${shownText(channel, 40)}`,
					);
				}
				sameAsEarlierRow++;
				items.push({
					json: {
						dryRun: true,
						row,
						wouldSend: false,
						sameAsRow: earlier.itemIndex + 1,
						reference_no: referenceNo,
						channel,
						amount,
					},
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			total += toCentavos(amount);
			// The totals are named by channel as a person reads them: a row's text passes shownText.
			const named = shownText(channel, 40);
			totals.set(named, (totals.get(named) ?? 0) + toCentavos(amount));
			json = {
				dryRun: true,
				row,
				wouldSend: true,
				reference_no: referenceNo,
				channel,
				amount,
				...(payee ? { payee } : {}),
			};
		} catch (error) {
			const problem = error instanceof Error ? error.message : String(error);
			failures.push({ row, problem });
			json = { dryRun: true, row, wouldSend: false, problem };
		}
		items.push({ json, pairedItem: { item: itemIndex } });
	}
	const summary: IDataObject = {
		dryRun: true,
		summary: true,
		rows: itemCount,
		wouldSend: itemCount - failures.length - sameAsEarlierRow,
		...(sameAsEarlierRow > 0 ? { sameAsEarlierRow } : {}),
		wouldFail: failures.length,
		totalAmount: total / 100,
		totalByChannel: Object.fromEntries([...totals].map(([channel, sum]) => [channel, sum / 100])),
		failures,
	};
	if (maxTotal !== undefined) {
		summary.maximumTotalPerRun = maxTotal;
		summary.overMaximumTotal = total > toCentavos(maxTotal);
	}
	const summaryItem = {
		json: summary,
		pairedItem: Array.from({ length: itemCount }, (_, item) => ({ item })),
	};
	return [items, [summaryItem]];
}

/** The sum of what the prepared rows would create, in pesos, exact to the centavo. */
export function totalOf(amounts: number[]): number {
	return amounts.reduce((sum, amount) => sum + toCentavos(amount), 0) / 100;
}
