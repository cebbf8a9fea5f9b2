/**
 * "Wait for Final Status": for n8n instances the service's callback cannot reach (a laptop, a
 * firewall), look the reference up until it is completed or cancelled, with a growing pause
 * between look-ups, or until the time limit passes.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep, updateDisplayOptions } from 'n8n-workflow';

import { executionOptionsProperty, referenceNoProperty } from '../descriptions/properties';
import type { RecordKind } from '../validation/records';
import { findByReference } from '../transport/lookups';
import { readExecutionOptions, readOption, type Operation } from '../runner/operation';

const FINAL_STATUSES = ['completed', 'cancelled'];

export interface WaitSpec {
	show: Record<string, string[]>;
	kind: RecordKind;
	placeholder: string;
	parseReference(node: INode, itemIndex: number, value: unknown): string;
}

export function waitForFinalStatusOperation(spec: WaitSpec): Operation {
	const description: INodeProperties[] = [
		referenceNoProperty(spec.placeholder, `The reference_no of the ${spec.kind} to wait for`),
		{
			displayName: 'Give Up After (Minutes)',
			name: 'timeLimitMinutes',
			type: 'number',
			typeOptions: { minValue: 0.01, maxValue: 1440, numberPrecision: 2 },
			default: 10,
			description: 'How long to keep looking before the item comes out as still pending',
		},
		executionOptionsProperty(undefined, [
			{
				displayName: 'First Look-Up After (Seconds)',
				name: 'firstPollSeconds',
				type: 'number',
				typeOptions: { minValue: 0.1, maxValue: 600, numberPrecision: 1 },
				default: 5,
				description: 'The pause before the first look-up; each later pause is twice as long, up to Longest Pause',
			},
			{
				displayName: 'Longest Pause (Seconds)',
				name: 'maxPollSeconds',
				type: 'number',
				typeOptions: { minValue: 0.1, maxValue: 3600, numberPrecision: 1 },
				default: 60,
				description: 'The longest pause between two look-ups',
			},
		]),
	];

	return {
		description: updateDisplayOptions({ show: spec.show }, description),
		prepare(ctx, itemIndex) {
			const node = ctx.getNode();
			const referenceNo = spec.parseReference(node, itemIndex, ctx.getNodeParameter('referenceNo', itemIndex, ''));
			const limitMs = positive(ctx.getNodeParameter('timeLimitMinutes', itemIndex, 10), 10) * 60_000;
			const firstMs = positive(readOption(ctx, 'firstPollSeconds', itemIndex, 5), 5) * 1000;
			const longestMs = Math.max(firstMs, positive(readOption(ctx, 'maxPollSeconds', itemIndex, 60), 60) * 1000);
			const { timeoutMs } = readExecutionOptions(ctx, itemIndex);
			return {
				read: async () =>
					await waitUntilFinal(ctx, node, itemIndex, { referenceNo, limitMs, firstMs, longestMs, timeoutMs }),
			};
		},
	};

	async function waitUntilFinal(
		ctx: IExecuteFunctions,
		node: INode,
		itemIndex: number,
		wait: { referenceNo: string; limitMs: number; firstMs: number; longestMs: number; timeoutMs: number },
	): Promise<IDataObject> {
		const started = Date.now();
		let pause = wait.firstMs;
		let lookUps = 0;
		for (;;) {
			await sleep(Math.min(pause, Math.max(0, started + wait.limitMs - Date.now())));
			const record = await findByReference(ctx, spec.kind, wait.referenceNo, wait.timeoutMs);
			lookUps++;
			if (!record) {
				throw new NodeOperationError(node, `No ${spec.kind} has reference_no "${wait.referenceNo}"`, {
					itemIndex,
					description: `Check the reference (it is case-sensitive) and that the credential belongs to the account that created the ${spec.kind}.`,
				});
			}
			const waitedSeconds = Math.round((Date.now() - started) / 100) / 10;
			if (FINAL_STATUSES.includes(String(record.status))) return { ...record, finalStatus: true, waitedSeconds, lookUps };
			if (Date.now() - started >= wait.limitMs) {
				const minutes = Math.round(wait.limitMs / 600) / 100;
				return {
					...record,
					finalStatus: false,
					waitedSeconds,
					lookUps,
					message: `Still ${String(record.status ?? 'pending')} after ${minutes} minute${minutes === 1 ? '' : 's'}: look it up again later, or raise Give Up After`,
				};
			}
			pause = Math.min(pause * 2, wait.longestMs);
		}
	}
}

function positive(value: unknown, fallback: number): number {
	const number = Number(value);
	return Number.isFinite(number) && number > 0 ? number : fallback;
}
