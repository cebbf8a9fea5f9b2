// The workflow the agent check runs: Manual Trigger, a Set node giving the chat input, n8n's AI
// Agent with n8n's OpenAI Chat Model (its credential's Base URL is the scripted model), and this
// package's Disbursement tool three times: Prepare and Confirm with a cap and an allow-list, and
// Create with no cap. The agent fills the row fields and the token through `$fromAI(...)`; the caps
// and allow-lists are the workflow author's.
import type { INodeParameters } from 'n8n-workflow';
import { DEMO_CREDENTIALS, type CredentialRef } from '../../../scripts/n8n/credentials';
import type { WorkflowJson } from '../../../scripts/n8n/instance';
import fs from 'fs';
import path from 'path';
import { EXAMPLES_DIR, PACKAGE_NAME } from '../../../scripts/n8n/paths';

export const MODEL_CREDENTIAL: CredentialRef = {
	id: 'pgwScriptedModel',
	name: 'Scripted model (OpenAI-compatible, 127.0.0.1)',
	type: 'openAiApi',
};

export const MAX_AMOUNT = 5000;
export const ALLOWED_RECIPIENTS = 'BDO:001234567890, 0917*';
/** The tool names the model sees: n8n names a tool after its node. */
export const TOOLS = { prepare: 'Prepare', confirm: 'Confirm', create: 'Create' } as const;
export const AGENT = 'AI Agent';

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

/** The payout row, as the agent fills it; sender and bank fixed by the author. */
const payoutRow: INodeParameters = {
	resource: 'payout',
	channelType: 'bankTransfer',
	channel: 'INSTAPAY',
	amount: fromAI('amount', 'The amount in pesos', 'number'),
	referenceNo: fromAI('referenceNo', 'A unique reference for this payout'),
	bankCode: 'BDO',
	senderFirstName: 'Maria',
	senderLastName: 'Santos',
	receiverAccountName: fromAI('receiverAccountName', 'The name on the receiving account'),
	receiverAccountNumber: fromAI('receiverAccountNumber', 'The receiving account number'),
	receiverType: 'INDIVIDUAL',
};

const limits = { maxAmountPerPayout: MAX_AMOUNT, allowedRecipients: ALLOWED_RECIPIENTS };

function toolNode(name: string, position: [number, number], parameters: INodeParameters) {
	return {
		id: `agent-${name.toLowerCase()}`,
		name,
		type: `${PACKAGE_NAME}.disbursementTool`,
		typeVersion: 1,
		position,
		parameters,
		credentials: {
			[DEMO_CREDENTIALS.disbursement.type]: {
				id: DEMO_CREDENTIALS.disbursement.id,
				name: DEMO_CREDENTIALS.disbursement.name,
			},
		},
	};
}

/** One workflow per script; the chat input names the script the model plays. */
export function agentWorkflow(script: string): WorkflowJson {
	const toAgent = (type: string) => [[{ node: AGENT, type, index: 0 }]];
	return {
		id: `pgwAgentE2e${script.toUpperCase()}`.slice(0, 16),
		name: `Agent e2e: script ${script}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'agent-trigger',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'agent-chat-input',
				name: 'Chat Input',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: {
					assignments: {
						assignments: [
							{
								id: 'chat-input',
								name: 'chatInput',
								value: `script: ${script}`,
								type: 'string',
							},
						],
					},
					options: {},
				},
			},
			{
				id: 'agent-agent',
				name: AGENT,
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3,
				position: [440, 0],
				parameters: {
					promptType: 'define',
					text: '={{ $json.chatInput }}',
					options: { maxIterations: 10 },
				},
			},
			{
				id: 'agent-model',
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.3,
				position: [300, 220],
				parameters: {
					model: { __rl: true, mode: 'id', value: 'scripted' },
					responsesApiEnabled: false,
					options: {},
				},
				credentials: { openAiApi: { id: MODEL_CREDENTIAL.id, name: MODEL_CREDENTIAL.name } },
			},
			toolNode(TOOLS.prepare, [460, 220], {
				...payoutRow,
				operation: 'prepare',
				options: limits,
			}),
			toolNode(TOOLS.confirm, [600, 220], {
				resource: 'payout',
				operation: 'confirm',
				approvalToken: fromAI('approvalToken', 'The approvalToken Prepare returned, unchanged'),
				options: limits,
			}),
			// No cap: as a tool, Create must refuse.
			toolNode(TOOLS.create, [740, 220], { ...payoutRow, operation: 'create', options: {} }),
		],
		connections: {
			Start: { main: [[{ node: 'Chat Input', type: 'main', index: 0 }]] },
			'Chat Input': { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: toAgent('ai_languageModel') },
			[TOOLS.prepare]: { ai_tool: toAgent('ai_tool') },
			[TOOLS.confirm]: { ai_tool: toAgent('ai_tool') },
			[TOOLS.create]: { ai_tool: toAgent('ai_tool') },
		},
	} as WorkflowJson;
}

/**
 * Example 08 as shipped, its OpenAI Chat Model pointed at the scripted model: a public chat, an AI
 * Agent with Prepare and Confirm, and n8n's human review in front of Confirm.
 */
export function reviewWorkflow(): WorkflowJson {
	const file = path.join(EXAMPLES_DIR, '08-ai-agent-pays-after-approval.json');
	const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as WorkflowJson;
	for (const node of workflow.nodes) {
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')
			node.credentials = { openAiApi: { id: MODEL_CREDENTIAL.id, name: MODEL_CREDENTIAL.name } };
	}
	return workflow;
}

/** The webhook id of a workflow's Chat Trigger. */
export function chatWebhookId(workflow: WorkflowJson): string {
	const trigger = workflow.nodes.find(
		(node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger',
	);
	if (!trigger?.webhookId)
		throw new Error(`${workflow.name} has no Chat Trigger with a webhook id`);
	return trigger.webhookId;
}
