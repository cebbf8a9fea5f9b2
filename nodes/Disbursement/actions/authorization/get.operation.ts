/** Authorization > Get (interface document 4.7): POST with the code as a path parameter. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ServiceError } from '../../../shared/transport/errors';
import { executionOptionsProperty, readExecutionOptions } from '../../../shared/descriptions/executionOptions';
import type { ItemPlan } from '../../../shared/runner/operation';
import { ItemProblems } from '../../../shared/validation/problems';
import { parseJsonObject, requireText } from '../../../shared/validation/validation';

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

export function prepare(ctx: IExecuteFunctions, itemIndex: number): ItemPlan {
	const node = ctx.getNode();
	const problems = new ItemProblems(node, itemIndex);
	const code = problems.check(() => requireText(node, itemIndex, 'Code', ctx.getNodeParameter('code', itemIndex, '')));
	const body = problems.check(() =>
		parseJsonObject(node, itemIndex, 'Body (JSON)', ctx.getNodeParameter('jsonBody', itemIndex, '{}')),
	);
	problems.throwIfAny();
	const { timeoutMs } = readExecutionOptions(ctx, itemIndex);
	return {
		// Both are present once no problem was collected.
		send: { endpoint: 'getAuthorization', pathParams: { code: code! }, body: body as IDataObject, timeoutMs },
		output: ({ message, data }) =>
			data && typeof data === 'object' && !Array.isArray(data)
				? (data as IDataObject)
				: { code, data: (data ?? null) as IDataObject, message },
		explain: (error) =>
			error.failure.status === 404
				? new ServiceError(
						node,
						error.failure,
						`Authorization code "${code}" was not found (HTTP 404)${error.failure.serviceMessage ? `. The service said: "${error.failure.serviceMessage}"` : ''}`,
						'Check the code for typos and that it belongs to the account of this credential',
					)
				: undefined,
	};
}
