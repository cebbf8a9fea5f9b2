/** Authorization > Get (interface document 4.7): POST with the code as a path parameter. */
import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { ServiceError } from '../../../shared/errors';
import { executionOptionsProperty, readExecutionOptions } from '../../../shared/executionOptions';
import { callService } from '../../../shared/transport';
import { parseJsonObject, requireText } from '../../../shared/validation';

const show = { resource: ['authorization'], operation: ['get'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Code',
		name: 'code',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. AUTH-1001',
		description: 'The authorization code to look up',
		displayOptions: { show },
	},
	{
		displayName: 'Body (JSON)',
		name: 'jsonBody',
		type: 'json',
		default: '{}',
		description:
			'Optional JSON object sent as the request body. The interface document does not show which fields the service expects; leave {} when none.',
		displayOptions: { show },
	},
	executionOptionsProperty(show),
];

export async function execute(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = ctx.getNode();
	const code = requireText(node, itemIndex, 'Code', ctx.getNodeParameter('code', itemIndex, ''));
	const body = parseJsonObject(node, itemIndex, 'Body (JSON)', ctx.getNodeParameter('jsonBody', itemIndex, '{}'));
	const { timeoutMs } = readExecutionOptions(ctx, itemIndex);
	try {
		const { message, data } = await callService(ctx, {
			endpoint: 'getAuthorization',
			pathParams: { code },
			body: body as IDataObject,
			timeoutMs,
		});
		if (data && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
		return { code, data: (data ?? null) as IDataObject, message };
	} catch (error) {
		throw namingUnknownCode(error, node, code);
	}
}

/** A 404 names the code; any other error is already a ServiceError that says what to fix. */
function namingUnknownCode(error: unknown, node: INode, code: string): unknown {
	if (!(error instanceof ServiceError) || error.failure.status !== 404) return error;
	return new ServiceError(
		node,
		error.failure,
		`Authorization code "${code}" was not found (HTTP 404)${error.failure.serviceMessage ? `. The service said: "${error.failure.serviceMessage}"` : ''}`,
		'Check the code for typos and that it belongs to the account of this credential',
	);
}
