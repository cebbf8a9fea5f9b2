/**
 * Running our nodes as an AI agent's tools through n8n's own tool execution path: an agent node (a
 * stub, no model) asks n8n-core for its tools (`getInputConnectionData`, which wraps our nodes with
 * `createNodeAsTool`) and calls each once; and the tool variant n8n 2.x agents run as an ordinary
 * node of type "...Tool".
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { MANUAL_TRIGGER_TYPE, runWorkflow, type CredentialStore } from './index';

/** An agent without a model: it takes every tool n8n gives it and calls each once. */
export class ToolCallingAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tool Calling Agent',
		name: 'harness.toolCallingAgent',
		description: 'Calls every tool it is given once',
		group: ['transform'],
		version: 1,
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions) {
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
			invoke(args: IDataObject): Promise<string>;
		}>;
		const answers = [];
		for (const tool of tools) answers.push({ json: { answer: JSON.parse(await tool.invoke({})) } });
		return [answers];
	}
}

/** The tool variant n8n makes of a node that is `usableAsTool`: named "...Tool", an ai_tool output. */
export function toolVariant(node: INodeType, main = false): INodeType {
	const { description } = node;
	node.description = {
		...description,
		name: `${description.name}Tool`,
		inputs: main ? [NodeConnectionTypes.Main] : [],
		outputs: [main ? NodeConnectionTypes.Main : NodeConnectionTypes.AiTool],
	} as INodeTypeDescription;
	return node;
}

/** What the agent got back from the tool `node` with these parameters: its first item. */
export async function askTool(
	store: CredentialStore,
	node: INodeType,
	parameters: INodeParameters,
): Promise<IDataObject> {
	const [answer] = await askToolForItems(store, node, parameters);
	return answer;
}

/** Every item the agent got back from the tool `node` with these parameters. */
export async function askToolForItems(
	store: CredentialStore,
	node: INodeType,
	parameters: INodeParameters,
): Promise<IDataObject[]> {
	const tool = toolVariant(node);
	const run = await runWorkflow({
		store,
		extraNodeTypes: [new ToolCallingAgent(), tool],
		nodes: [
			{ name: 'Trigger', type: MANUAL_TRIGGER_TYPE, parameters: {} },
			{ name: 'Agent', type: 'harness.toolCallingAgent', parameters: {} },
			{
				name: 'Tool',
				type: `n8n-nodes-payment-gateway.${tool.description.name}`,
				parameters,
				credentials: store.credentialsFor(tool.description.credentials),
			},
		],
		connections: {
			Trigger: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			Tool: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
		},
	});
	if (run.runError) throw run.runError;
	return run.outputOf('Agent')[0][0].json.answer as IDataObject[];
}
