/**
 * Payout > Repost Callback (interface document 4.8): asks the service to send a payout's webhook
 * callback again. The service offers it for testing only, so it is refused for a production
 * credential before anything is sent.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ServiceError } from '../../../shared/errors';
import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { referenceNoField } from '../../../shared/fields';
import { callService, credentialsFor } from '../../../shared/transport';
import { parseReferenceNo } from '../../../shared/validation';

const show = { resource: ['payout'], operation: ['repost'] };

export const description: INodeProperties[] = [
	{
		displayName:
			'Sandbox only: the service re-sends callbacks for testing. The credential\'s Environment must be Sandbox.',
		name: 'repostNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	referenceNoField(show, 'e.g. PAYOUT-2026-0001', 'The reference_no of the payout whose callback is sent again'),
	executionOptionsProperty(show),
];

export async function execute(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const credentials = await credentialsFor(ctx, 'disbursement');
	if (credentials.environment !== 'sandbox') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Repost Callback is available in the sandbox only, and this Disbursement credential's Environment is "${String(credentials.environment ?? 'not set')}" (item ${itemIndex})`,
			{
				itemIndex,
				description:
					'Nothing was sent. Use a credential whose Environment is Sandbox; in production the service sends callbacks by itself.',
			},
		);
	}
	const referenceNo = parseReferenceNo(ctx.getNode(), itemIndex, ctx.getNodeParameter('referenceNo', itemIndex, ''));
	const { timeoutMs } = readExecutionOptions(ctx, itemIndex);
	try {
		const { message, data } = await callService(ctx, {
			endpoint: 'repostPayout',
			body: { reference_no: referenceNo },
			timeoutMs,
		});
		const payload = data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : {};
		return { reference_no: referenceNo, ...payload, message };
	} catch (error) {
		throw explainingRateLimit(error, ctx.getNode(), referenceNo);
	}
}

/** A 429 says to wait; any other error is already a ServiceError that says what to fix. */
function explainingRateLimit(error: unknown, node: INode, referenceNo: string): unknown {
	if (!(error instanceof ServiceError) || error.failure.status !== 429) return error;
	const said = error.failure.serviceMessage ? ` The service said: "${error.failure.serviceMessage}"` : '';
	return new ServiceError(
		node,
		error.failure,
		`The service limits how often a callback can be reposted, and refused this one for "${referenceNo}" (HTTP 429): wait a few seconds before reposting it again.${said}`,
	);
}
