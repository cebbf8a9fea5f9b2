/**
 * What the editor's "Test" button does on n8n's server (CredentialsTester.testCredentials) for a
 * credential type with a `test.request`: a temporary No-Op node whose one parameter routes that
 * request, run through n8n-core's RoutingNode. Being the No-Op test node makes the credentials
 * helper run preAuthentication first, so the test proves the token request and the token's use.
 */
import './bootstrap';

import { ExecuteContext, RoutingNode } from 'n8n-core';
import type { INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes, Workflow, createRunExecutionData } from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import type { CredentialStore } from './credentialStore';
import { HarnessCredentialsHelper } from './credentialsHelper';
import { getCredentialType } from './credentialTypes';
import { logLinesSince, logMark } from './logging';
import { CREDENTIAL_TEST_NODE_TYPE, singleNodeTypes } from './mockNodeTypes';
import { assertNoSecret, assertNoSecretInLogs } from './secretGuard';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** Tests a stored credential (default: the first of its type). The message never holds a secret. */
export async function testCredential(
	store: CredentialStore,
	type: string,
	id?: string,
): Promise<CredentialTestResult> {
	const mark = logMark();
	const result = await runCredentialTest(store, type, id);
	assertNoSecret(store, `the message of the ${type} credential test`, result.message);
	assertNoSecretInLogs(store, logLinesSince(mark));
	return result;
}

async function runCredentialTest(
	store: CredentialStore,
	type: string,
	id?: string,
): Promise<CredentialTestResult> {
	const testRequest = getCredentialType(type).test;
	if (!testRequest)
		return { status: 'Error', message: 'No testing function found for this credential.' };
	const reference = id ? { id, name: store.get(type, id).name } : store.firstOf(type);
	if (!reference) throw new Error(`No ${type} credential in the store`);

	const helper = new HarnessCredentialsHelper(store);
	let data;
	try {
		data = helper.applyDefaults(store.get(type, reference.id).getData(), type, 'internal');
	} catch (error) {
		return { status: 'Error', message: String((error as Error).message) };
	}

	const testNodeType: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: CREDENTIAL_TEST_NODE_TYPE,
			group: ['organization'],
			version: 1,
			description: 'Carries the credential test request',
			defaults: { name: 'No Operation, do nothing' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: CREDENTIAL_TEST_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [type]: reference },
	};
	// The constructor fills in parameter defaults: `temp` becomes '', which marks the test.
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: singleNodeTypes(CREDENTIAL_TEST_NODE_TYPE, testNodeType),
	});
	const additionalData = buildAdditionalData({ store, mode: 'internal' });
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({ resultData: { runData: {} } }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, testNodeType, {
		id: reference.id,
		name: reference.name,
		type,
		data,
	});

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		return describeFailure(error as TestFailure, testRequest.rules);
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json as Record<string, unknown> | undefined;
		if (readPath(body, String(rule.properties.key)) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

interface TestFailure {
	message?: string;
	cause?: { response?: { status: number; statusText?: string }; code?: string };
}

/** The server's mapping of a failed test request to the message the editor shows. */
function describeFailure(
	error: TestFailure,
	rules: Array<{ type: string; properties: Record<string, unknown> }> | undefined,
): CredentialTestResult {
	const response = error.cause?.response;
	if (response) {
		for (const rule of rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === response.status) {
				return { status: 'Error', message: String(rule.properties.message) };
			}
		}
		if (response.status < 199 || response.status > 299) {
			return {
				status: 'Error',
				message: response.statusText || `Received HTTP status code: ${response.status}`,
			};
		}
	} else if (error.cause?.code) {
		return { status: 'Error', message: error.cause.code };
	}
	return { status: 'Error', message: String(error.message) };
}

function readPath(value: Record<string, unknown> | undefined, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((inner, key) => (inner as Record<string, unknown> | undefined)?.[key], value);
}
