/**
 * The CredentialsHelper n8n's server gives the engine (n8n's packages/cli/src/credentials-helper.ts),
 * rebuilt over the in-memory store. What matters for our nodes is reproduced as the server does
 * it: defaults applied on read, generic `authenticate` expressions resolved against
 * `$credentials`, and `preAuthentication` run when the expirable field is '' or after a 401, its
 * token written back so the next request and the next run reuse it.
 */
import type { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow, isExpression } from 'n8n-workflow';

import type { CredentialStore } from './credentialStore';
import { expirablePropertyOf, getCredentialType, getParentTypes } from './credentialTypes';
import { CREDENTIAL_TEST_NODE_TYPE, mockNodeTypes } from './mockNodeTypes';

/** The stand-in node the server resolves credential expressions against outside a run. */
const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(readonly store: CredentialStore) {
		super();
	}

	getParentTypes(name: string): string[] {
		return getParentTypes(name);
	}

	/**
	 * Asked by newer n8n-core (2.41) before every credential read. Like n8n's server: a type that
	 * restricts itself to named nodes (`restrictToSupportedNodes`, none of ours) is refused here,
	 * since the harness keeps no list of supported nodes.
	 */
	isCredentialUsableByNode(credentialType: string): boolean {
		const type = getCredentialType(credentialType) as { restrictToSupportedNodes?: boolean };
		return type.restrictToSupportedNodes !== true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = getCredentialType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			requestOptions.headers ??= {};
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [part, entries] of Object.entries(authenticate.properties)) {
				for (const [name, value] of Object.entries(entries as Record<string, unknown>)) {
					const resolvedName = resolveWithCredentials(name, credentials, workflow, node);
					target[part] ??= {};
					target[part][resolvedName] = resolveWithCredentials(value, credentials, workflow, node);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = getCredentialType(typeName);
		const expirable = expirablePropertyOf(typeName)?.name;
		if (expirable === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}
		// The server's test for "this is a credential test, not a workflow run".
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === CREDENTIAL_TEST_NODE_TYPE;
		if (credentials[expirable] !== '' && !credentialsExpired && !isTestingCredentials) {
			return undefined;
		}
		this.store.recordPreAuthentication(typeName);
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		// Without the expirable field in the output the server stores nothing.
		if (output?.[expirable] === undefined) return undefined;
		const reference = node.credentials?.[typeName];
		if (!reference) return undefined;
		const stored = this.store.get(typeName, reference.id).getData();
		const toPersist: ICredentialDataDecryptedObject = { ...stored };
		for (const [name, value] of Object.entries(output as ICredentialDataDecryptedObject)) {
			// A field the user stored as an expression keeps its expression, not this run's value.
			if (name === expirable || !isExpression(stored[name])) toPersist[name] = value;
		}
		await this.updateCredentials(reference, typeName, toPersist);
		return Object.assign(credentials, output);
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		return this.store.get(type, nodeCredentials.id);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.store.get(type, nodeCredentials.id).getData();
		if (raw === true) return stored;
		return this.applyDefaults(stored, type, mode, executeData, expressionResolveValues);
	}

	/** Defaults of the credential type filled in, then expressions in the data resolved. */
	applyDefaults(
		stored: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (!Object.values(withDefaults).some((value) => isExpression(value))) return withDefaults;
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			return workflow.expression.getParameterValue(
				withDefaults as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				{},
				executeData,
				false,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		}
		const workflow = new Workflow({
			nodes: [mockNode],
			connections: {},
			active: false,
			nodeTypes: mockNodeTypes,
		});
		return workflow.expression.getComplexParameterValue(
			mockNode,
			withDefaults as INodeParameters,
			mode,
			{},
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.update(type, nodeCredentials.id, data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.store.get(type, nodeCredentials.id).getData();
		this.store.update(type, nodeCredentials.id, { ...stored, oauthTokenData: data.oauthTokenData });
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = getCredentialType(type);
		if (!credentialType.extends) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		// The type's own properties win over its parents'.
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}

/** Resolves `={{$credentials.x}}` the way the server does: against the node, '' when empty. */
function resolveWithCredentials(
	value: unknown,
	credentials: ICredentialDataDecryptedObject,
	workflow: Workflow,
	node: INode,
): string {
	if (typeof value !== 'string' || !isExpression(value)) return value as string;
	const resolved = workflow.expression.getSimpleParameterValue(
		node,
		value,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
	return resolved ? resolved.toString() : '';
}
