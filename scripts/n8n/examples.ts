// The example workflows in /examples, ready to import into an n8n on a given address.
import fs from 'fs';
import path from 'path';
import { EXAMPLES_DIR, PACKAGE_NAME } from './paths';
import type { WorkflowJson } from './instance';

// The examples are written for an n8n on the default address; a demo or test on another port
// gets its own address in the callback URLs instead.
export const DEFAULT_N8N_URL = 'http://127.0.0.1:5678';

export const TRIGGER_TYPE = `${PACKAGE_NAME}.paymentGatewayTrigger`;
// The trigger's webhook path (fixed in its description): n8n serves it at /webhook/<webhookId>/<path>.
const TRIGGER_WEBHOOK_PATH = 'callback';

export interface Example {
	file: string;
	workflow: WorkflowJson;
}

/** [{ file, workflow }] for every examples/*.json, sorted by file name, each named with its number. */
export function loadExamples({ n8nUrl = DEFAULT_N8N_URL }: { n8nUrl?: string } = {}): Example[] {
	if (!fs.existsSync(EXAMPLES_DIR)) return [];
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const text = fs
				.readFileSync(path.join(EXAMPLES_DIR, name), 'utf8')
				.split(DEFAULT_N8N_URL)
				.join(n8nUrl);
			const workflow = JSON.parse(text) as WorkflowJson;
			return { file: name, workflow: { ...workflow, name: numberedName(name, workflow.name) } };
		});
}

/**
 * "01 Payouts from spreadsheet rows": the number the README and the file name give an example
 * leads its name, so n8n's workflow list and the demo's banner show the examples in order.
 */
export function numberedName(file: string, name: string): string {
	const number = /^(\d+)-/.exec(file)?.[1];
	return number ? `${number} ${name}` : name;
}

/** The banner's list of examples: one line each, their links in one column. */
export function exampleLines(examples: Example[], n8nUrl: string): string[] {
	const width = Math.max(0, ...examples.map(({ workflow }) => workflow.name.length));
	return examples.map(
		({ workflow }) => `    ${workflow.name.padEnd(width)}   ${n8nUrl}/workflow/${workflow.id}`,
	);
}

export function hasTrigger(workflow: WorkflowJson): boolean {
	return workflow.nodes.some((node) => node.type === TRIGGER_TYPE);
}

/** The production webhook URL of a workflow's Payment Gateway Trigger. */
export function triggerWebhookUrl(workflow: WorkflowJson, n8nUrl: string): string {
	const node = workflow.nodes.find((n) => n.type === TRIGGER_TYPE);
	if (!node) throw new Error(`${workflow.name} has no Payment Gateway Trigger`);
	return `${n8nUrl}/webhook/${node.webhookId}/${TRIGGER_WEBHOOK_PATH}`;
}

export const CHAT_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.chatTrigger';
const CHAT_MODEL_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';

export function hasChatTrigger(workflow: WorkflowJson): boolean {
	return workflow.nodes.some((node) => node.type === CHAT_TRIGGER_TYPE);
}

/** The public chat of a workflow's Chat Trigger (its page; messages are POSTed to it). */
export function chatUrl(workflow: WorkflowJson, n8nUrl: string): string {
	const node = workflow.nodes.find((n) => n.type === CHAT_TRIGGER_TYPE);
	if (!node) throw new Error(`${workflow.name} has no Chat Trigger`);
	return `${n8nUrl}/webhook/${node.webhookId}/chat`;
}

/** The workflow with every OpenAI Chat Model that has no credential given this one. */
export function withChatModel(workflow: WorkflowJson, model: { id: string; name: string }) {
	for (const node of workflow.nodes)
		if (node.type === CHAT_MODEL_TYPE && !node.credentials)
			node.credentials = { openAiApi: { id: model.id, name: model.name } };
	return workflow;
}
