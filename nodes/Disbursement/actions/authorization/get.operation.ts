/** Authorization > Get (documented, docs/endpoints.md): POST with the code as a path parameter. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executionOptionsProperty } from '../../../shared/descriptions/properties';
import { pathParameterProblem } from '../../../shared/transport/endpoints';
import { readExecutionOptions, type ItemPlan } from '../../../shared/runner/operation';
import { ItemProblems } from '../../../shared/validation/problems';
import { parseJsonObject, requireText } from '../../../shared/validation/validation';
import type { RunContext } from '../../../shared/runner/runContext';

const properties: INodeProperties[] = [
	{
		displayName: 'Code',
		name: 'code',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. AUTH-1001',
		description: 'The authorization code to look up',
	},
	{
		displayName: 'Body (JSON)',
		name: 'jsonBody',
		type: 'json',
		default: '{}',
		description:
			'Optional JSON object sent as the request body. The interface document does not show which fields the service expects; leave {} when none.',
	},
	executionOptionsProperty(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['authorization'], operation: ['get'] } },
	properties,
);

export function prepare(run: RunContext, itemIndex: number): ItemPlan {
	const { ctx } = run;
	const node = ctx.getNode();
	const problems = new ItemProblems(node, itemIndex);
	const code = problems.check(() =>
		requireText(node, itemIndex, 'Code', ctx.getNodeParameter('code', itemIndex, '')),
	);
	// The code is a segment of the request's path: it must not be able to change that path.
	const codeProblem = code === undefined ? undefined : pathParameterProblem(code);
	if (codeProblem)
		problems.add(
			`Code ${codeProblem}`,
			'Give the code as the service issued it: letters, digits and signs, without "/", "\\" or control characters, and not "." or ".."',
		);
	const body = problems.check(() =>
		parseJsonObject(
			node,
			itemIndex,
			'Body (JSON)',
			ctx.getNodeParameter('jsonBody', itemIndex, '{}'),
		),
	);
	problems.throwIfAny();
	const { timeoutMs } = readExecutionOptions(run, itemIndex);
	return {
		// Both are present once no problem was collected.
		send: {
			endpoint: 'getAuthorization',
			pathParams: { code: code! },
			body: body as IDataObject,
			timeoutMs,
		},
		output: ({ message, data }) =>
			data && typeof data === 'object' && !Array.isArray(data)
				? (data as IDataObject)
				: { code, data: (data ?? null) as IDataObject, message },
		explain: ({ status, serviceMessage }) =>
			status === 404
				? {
						message: `Authorization code "${code}" was not found (HTTP 404)${serviceMessage ? `. The service said: "${serviceMessage}"` : ''}`,
						description:
							'Check the code for typos and that it belongs to the account of this credential',
					}
				: undefined,
	};
}
