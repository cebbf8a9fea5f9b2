/** The "Options" every operation offers, and reading them back. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ENDPOINTS, type EndpointName } from '../transport/endpoints';
import { clampConcurrency, MAX_CONCURRENCY } from '../runner/concurrency';
import { DEFAULT_TIMEOUT_MS } from '../transport/transport';
import { runParameter } from '../runner/runParameters';

export interface ExecutionOptions {
	concurrency: number;
	timeoutMs: number;
	endpointPath?: string;
}

/**
 * @param show the displayOptions.show of the operation these options belong to
 * @param overridable the endpoint whose assumed path the user may replace
 */
export function executionOptionsProperty(
	show: Record<string, string[]>,
	overridable?: EndpointName,
	extra: INodeProperties[] = [],
): INodeProperties {
	const options: INodeProperties[] = [
		...extra,
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
			default: 8, // DEFAULT_CONCURRENCY: the lint rules want a literal
			description: 'How many items are sent to the service at the same time. Output order always follows input order.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 300 },
			default: 30, // DEFAULT_TIMEOUT_MS in seconds
			description: 'How long to wait for the service to answer one request',
		},
	];
	if (overridable) {
		options.push({
			displayName: 'Endpoint Path',
			name: 'endpointPath',
			type: 'string',
			default: '',
			placeholder: ENDPOINTS[overridable].path,
			description: `The interface document does not show this path, so ${ENDPOINTS[overridable].path} is assumed. Fill this in only if your service uses another path.`,
		});
	}
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options,
	};
}

/** One value of the Options collection: every option is read through here (once per run unless it is an expression). */
export function readOption(ctx: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): unknown {
	return runParameter(ctx, `options.${name}`, itemIndex, fallback);
}

export function readExecutionOptions(ctx: IExecuteFunctions, itemIndex = 0): ExecutionOptions {
	const raw = runParameter(ctx, 'options', itemIndex, {}) as {
		concurrency?: number;
		timeoutSeconds?: number;
		endpointPath?: string;
	};
	const timeoutSeconds = Number(raw.timeoutSeconds ?? DEFAULT_TIMEOUT_MS / 1000);
	return {
		concurrency: clampConcurrency(raw.concurrency),
		timeoutMs: Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds * 1000 : DEFAULT_TIMEOUT_MS,
		endpointPath: raw.endpointPath?.trim() || undefined,
	};
}
