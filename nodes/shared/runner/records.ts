/**
 * The runner's read-only plans on one record: a look-up by reference_no (Get), and "Wait for Final
 * Status", which looks the reference up until it is completed or cancelled, with a growing pause
 * between look-ups, for n8n instances the service's callback cannot reach (a laptop, a firewall).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { findByReference } from '../transport/lookups';
import type { LookUpPlan, PollPlan } from './operation';

const FINAL_STATUSES = ['completed', 'cancelled'];

export async function lookUpRecord(
	ctx: IExecuteFunctions,
	itemIndex: number,
	plan: LookUpPlan,
): Promise<IDataObject[]> {
	const { kind, referenceNo, timeoutMs } = plan.lookUp;
	const found = await findByReference(ctx, kind, referenceNo, timeoutMs);
	if (found) return [found];
	if (plan.onNotFound === 'outputNothing') return [];
	throw new NodeOperationError(ctx.getNode(), `No ${kind} has reference_no "${referenceNo}"`, {
		itemIndex,
		description: `Check the reference (it is case-sensitive) and that the credential belongs to the account that created the ${kind}, or set Options > On Not Found to "Output Nothing" to carry on without an item`,
	});
}

export async function pollUntilFinal(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ poll }: PollPlan,
): Promise<IDataObject> {
	const started = Date.now();
	let pause = poll.firstMs;
	let lookUps = 0;
	for (;;) {
		await sleep(Math.min(pause, Math.max(0, started + poll.limitMs - Date.now())));
		const record = await findByReference(ctx, poll.kind, poll.referenceNo, poll.timeoutMs);
		lookUps++;
		if (!record) {
			throw new NodeOperationError(
				ctx.getNode(),
				`No ${poll.kind} has reference_no "${poll.referenceNo}"`,
				{
					itemIndex,
					description: `Check the reference (it is case-sensitive) and that the credential belongs to the account that created the ${poll.kind}.`,
				},
			);
		}
		const waitedSeconds = Math.round((Date.now() - started) / 100) / 10;
		if (FINAL_STATUSES.includes(String(record.status)))
			return { ...record, finalStatus: true, waitedSeconds, lookUps };
		if (Date.now() - started >= poll.limitMs) {
			const minutes = Math.round(poll.limitMs / 600) / 100;
			return {
				...record,
				finalStatus: false,
				waitedSeconds,
				lookUps,
				message: `Still ${String(record.status ?? 'pending')} after ${minutes} minute${minutes === 1 ? '' : 's'}: look it up again later, or raise Give Up After`,
			};
		}
		pause = Math.min(pause * 2, poll.longestMs);
	}
}
