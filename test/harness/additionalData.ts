/**
 * The `additionalData` n8n's server hands the engine for a run (WorkflowExecuteAdditionalData
 * .getBase). The URLs must be valid absolute URLs: n8n-core builds parameters and webhook URLs
 * from them and an empty string breaks `getNodeParameter`. Nothing listens on them.
 */
import './bootstrap';

import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import type {
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import type { CredentialStore } from './credentialStore';
import { HarnessCredentialsHelper } from './credentialsHelper';

const INSTANCE = 'http://127.0.0.1:5678';

export const HARNESS_URLS = {
	instanceBaseUrl: `${INSTANCE}/`,
	restApiUrl: `${INSTANCE}/rest`,
	formWaitingBaseUrl: `${INSTANCE}/form-waiting`,
	webhookBaseUrl: `${INSTANCE}/webhook`,
	webhookWaitingBaseUrl: `${INSTANCE}/webhook-waiting`,
	webhookTestBaseUrl: `${INSTANCE}/webhook-test`,
} as const;

let executions = 0;

export function nextExecutionId(): string {
	return `harness-${++executions}`;
}

export function buildAdditionalData(options: {
	store: CredentialStore;
	mode: WorkflowExecuteMode;
	executionId?: string;
	workflowData?: IWorkflowBase;
}): IWorkflowExecuteAdditionalData {
	const executionId = options.executionId ?? nextExecutionId();
	const additionalData: IWorkflowExecuteAdditionalData = {
		...HARNESS_URLS,
		credentialsHelper: new HarnessCredentialsHelper(options.store),
		executionId,
		currentNodeExecutionIndex: 0,
		userId: 'harness-user',
		variables: {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not supported by the test harness');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners (Code node) are not supported by the test harness');
		},
	};
	if (options.workflowData) {
		additionalData.hooks = new ExecutionLifecycleHooks(
			options.mode,
			executionId,
			options.workflowData,
		);
	}
	return additionalData;
}
