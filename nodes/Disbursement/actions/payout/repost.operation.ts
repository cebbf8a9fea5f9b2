/**
 * Payout > Repost Callback (docs/endpoints.md): asks the service to send a payout's webhook
 * callback again. The service offers it for testing only, so it is refused for a production
 * credential before anything is sent.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	executionOptionsProperty,
	referenceNoProperty,
} from '../../../shared/descriptions/properties';
import { readExecutionOptions, type ItemPlan } from '../../../shared/runner/operation';
import { parseReferenceNo } from '../../../shared/validation/validation';
import type { RunContext } from '../../../shared/runner/runContext';

const properties: INodeProperties[] = [
	{
		displayName:
			"Sandbox only: the service re-sends callbacks for testing. The credential's Environment must be Sandbox.",
		name: 'repostNotice',
		type: 'notice',
		default: '',
	},
	referenceNoProperty(
		'e.g. PAYOUT-2026-0001',
		'The reference_no of the payout whose callback is sent again',
	),
	executionOptionsProperty(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['payout'], operation: ['repost'] } },
	properties,
);

export function prepare(run: RunContext, itemIndex: number): ItemPlan {
	const { ctx } = run;
	const node = ctx.getNode();
	const referenceNo = parseReferenceNo(
		node,
		itemIndex,
		ctx.getNodeParameter('referenceNo', itemIndex, ''),
	);
	const { timeoutMs } = readExecutionOptions(run, itemIndex);
	return {
		// The credential's Environment is read by the runner just before sending.
		sandboxOnly: 'Repost Callback',
		send: { endpoint: 'repostPayout', body: { reference_no: referenceNo }, timeoutMs },
		output: ({ message, data }) => {
			const payload =
				data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : {};
			return { reference_no: referenceNo, ...payload, message };
		},
		explain: ({ status, serviceMessage }) => {
			if (status !== 429) return undefined;
			const said = serviceMessage ? ` The service said: "${serviceMessage}"` : '';
			return {
				message: `The service limits how often a callback can be reposted, and refused this one for "${referenceNo}" (HTTP 429): wait a few seconds before reposting it again.${said}`,
			};
		},
	};
}
