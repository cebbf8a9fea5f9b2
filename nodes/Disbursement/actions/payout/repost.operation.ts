/**
 * Payout > Repost Callback (docs/endpoints.md): asks the service to send a payout's webhook
 * callback again. The service offers it for testing only, so it is refused for a production
 * credential before anything is sent.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { executionOptionsProperty, referenceNoProperty } from '../../../shared/descriptions/properties';
import { carryOut } from '../../../shared/runner/itemRunner';
import { readExecutionOptions, type ItemPlan, type SendPlan } from '../../../shared/runner/operation';
import { credentialsFor } from '../../../shared/transport/transport';
import { parseReferenceNo } from '../../../shared/validation/validation';

const properties: INodeProperties[] = [
	{
		displayName:
			'Sandbox only: the service re-sends callbacks for testing. The credential\'s Environment must be Sandbox.',
		name: 'repostNotice',
		type: 'notice',
		default: '',
	},
	referenceNoProperty('e.g. PAYOUT-2026-0001', 'The reference_no of the payout whose callback is sent again'),
	executionOptionsProperty(),
];

export const description = updateDisplayOptions({ show: { resource: ['payout'], operation: ['repost'] } }, properties);

export function prepare(ctx: IExecuteFunctions, itemIndex: number): ItemPlan {
	const node = ctx.getNode();
	const referenceNo = parseReferenceNo(node, itemIndex, ctx.getNodeParameter('referenceNo', itemIndex, ''));
	const { timeoutMs } = readExecutionOptions(ctx, itemIndex);
	const repost: SendPlan = {
		send: { endpoint: 'repostPayout', body: { reference_no: referenceNo }, timeoutMs },
		output: ({ message, data }) => {
			const payload = data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : {};
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
	return {
		// The credential's environment is known only once it is read, just before sending.
		read: async () => {
			const credentials = await credentialsFor(ctx, 'disbursement');
			if (credentials.environment !== 'sandbox') {
				throw new NodeOperationError(
					node,
					`Repost Callback is available in the sandbox only, and this Disbursement credential's Environment is "${String(credentials.environment ?? 'not set')}"`,
					{
						itemIndex,
						description:
							'Nothing was sent. Use a credential whose Environment is Sandbox; in production the service sends callbacks by itself.',
					},
				);
			}
			return await carryOut(ctx, itemIndex, repost);
		},
	};
}
