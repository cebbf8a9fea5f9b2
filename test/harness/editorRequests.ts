/**
 * Calls a node's `methods.loadOptions` / `methods.listSearch` the way the editor's requests reach
 * them on n8n's server (DynamicNodeParametersService): a one-node temporary workflow and
 * n8n-core's LoadOptionsContext, so credentials and preAuthentication behave as in the editor.
 */
import './bootstrap';

import { LoadOptionsContext } from 'n8n-core';
import type {
	INode,
	INodeCredentials,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import type { CredentialStore } from './credentialStore';
import { logLinesSince, logMark } from './logging';
import type { AnyNodeType, HarnessNodeTypes } from './nodeTypes';
import { defaultNodeTypes } from './nodeTypes';
import { assertNoSecret, assertNoSecretInLogs } from './secretGuard';

export interface LoadOptionsOptions {
	/** A registered type name, or a node type instance. */
	type: string | AnyNodeType;
	/** Name of the method under `methods.loadOptions` (or `methods.listSearch`). */
	method: string;
	/** The node's current parameters, as the editor sends them. */
	parameters?: INodeParameters;
	/** Default: for each credential the node type declares, the first one in the store. */
	credentials?: INodeCredentials;
	store: CredentialStore;
	typeVersion?: number;
	/** Path of the parameter asking, e.g. 'parameters.channelCode' (what `getCurrentNodeParameter` sees). */
	path?: string;
	nodeTypes?: HarnessNodeTypes;
}

export async function loadOptions(options: LoadOptionsOptions): Promise<INodePropertyOptions[]> {
	return await callMethod('loadOptions', options, []);
}

export async function listSearch(
	options: LoadOptionsOptions & { filter?: string; paginationToken?: string },
): Promise<INodeListSearchResult> {
	return await callMethod('listSearch', options, [options.filter, options.paginationToken]);
}

async function callMethod<T>(
	kind: 'loadOptions' | 'listSearch',
	options: LoadOptionsOptions,
	args: unknown[],
): Promise<T> {
	const nodeTypes = (options.nodeTypes ?? defaultNodeTypes()).clone();
	const type = typeof options.type === 'string' ? options.type : nodeTypes.register(options.type);
	const nodeType = nodeTypes.getByNameAndVersion(type, options.typeVersion);
	const method = nodeType.methods?.[kind]?.[options.method] as
		| ((this: LoadOptionsContext, ...rest: unknown[]) => Promise<T>)
		| undefined;
	if (typeof method !== 'function') {
		throw new Error(`Node type "${type}" has no ${kind} method "${options.method}"`);
	}
	const version = options.typeVersion ?? latest(nodeType.description.version);
	const node: INode = {
		id: 'uuid-1234',
		name: 'Temp-Node',
		type,
		typeVersion: version,
		position: [0, 0],
		parameters: options.parameters ?? {},
		credentials:
			options.credentials ?? options.store.credentialsFor(nodeType.description.credentials),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = buildAdditionalData({ store: options.store, mode: 'internal' });
	additionalData.currentNodeParameters = node.parameters;
	const context = new LoadOptionsContext(
		workflow,
		workflow.nodes['Temp-Node'],
		additionalData,
		options.path ?? 'parameters',
	);

	const mark = logMark();
	try {
		const result = await method.call(context, ...args);
		assertNoSecret(options.store, `the result of ${kind} "${options.method}"`, result);
		return result;
	} catch (error) {
		assertNoSecret(options.store, `the error of ${kind} "${options.method}"`, errorText(error));
		throw error;
	} finally {
		assertNoSecretInLogs(options.store, logLinesSince(mark));
	}
}

function errorText(error: unknown): unknown {
	const shown = error as { message?: string; description?: string; context?: unknown };
	return {
		json: error,
		message: shown?.message,
		description: shown?.description,
		context: shown?.context,
	};
}

function latest(version: number | number[]): number {
	return Array.isArray(version) ? version[version.length - 1] : version;
}
