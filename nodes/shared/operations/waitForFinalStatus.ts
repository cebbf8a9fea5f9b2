/**
 * "Wait for Final Status": its form and reading of the item; the runner looks the reference up
 * until it is completed or cancelled, or until the time limit passes (runner/recordLookUps.ts).
 */
import type { INode, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executionOptionsProperty, referenceNoProperty } from '../descriptions/properties';
import type { RecordKind } from '../validation/records';
import { readExecutionOptions, type Operation } from '../runner/operation';
import { readOption } from '../runner/options';

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
				displayName: 'First Pause (Seconds)',
				name: 'firstPollSeconds',
				type: 'number',
				typeOptions: { minValue: 0.1, maxValue: 600, numberPrecision: 1 },
				default: 5,
				description:
					'The pause before the first look-up; each later pause is twice as long, up to Longest Pause',
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
		prepare(run, itemIndex) {
			const { ctx } = run;
			const referenceNo = spec.parseReference(
				ctx.getNode(),
				itemIndex,
				ctx.getNodeParameter('referenceNo', itemIndex, ''),
			);
			const limitMs =
				positive(ctx.getNodeParameter('timeLimitMinutes', itemIndex, 10), 10) * 60_000;
			const firstMs = positive(readOption(run, 'firstPollSeconds', itemIndex, 5), 5) * 1000;
			const longestMs = Math.max(
				firstMs,
				positive(readOption(run, 'maxPollSeconds', itemIndex, 60), 60) * 1000,
			);
			const { timeoutMs } = readExecutionOptions(run, itemIndex);
			return { poll: { kind: spec.kind, referenceNo, timeoutMs, limitMs, firstMs, longestMs } };
		},
	};
}

function positive(value: unknown, fallback: number): number {
	const number = Number(value);
	return Number.isFinite(number) && number > 0 ? number : fallback;
}
