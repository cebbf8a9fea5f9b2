// A scripted stand-in for an OpenAI-compatible chat model on 127.0.0.1: no model, no internet.
// n8n's OpenAI Chat Model reaches it through its credential's Base URL. Each conversation names its
// script in the user's first message (`script: <name>`); the server answers each request with the
// script's next tool call, built from the tool answers so far, and once every call has its answer,
// with a final assistant message. What each tool answered is recorded for the checks.
import {
	startChatModelServer,
	textOf,
	toolAnswerOf,
	type ChatRequest,
	type ModelTurn,
	type ToolAnswer,
} from '../../../scripts/n8n/chatModelServer';

export type { ToolAnswer };

/** One tool call: the tool's name as the model sees it, and its arguments from the answers so far. */
export interface ScriptedCall {
	tool: string;
	args: (answers: ToolAnswer[]) => Record<string, unknown>;
}

export interface ScriptedModel {
	/** The Base URL for the OpenAI credential, ending in /v1. */
	baseUrl: string;
	/** What each tool answered in the conversation of a script, in call order. */
	answersOf(script: string): ToolAnswer[];
	/** The tool names offered to the model in the conversation of a script. */
	toolsOfferedTo(script: string): string[];
	/** Requests the server could not answer from a script, with why. */
	problems: string[];
	close(): Promise<void>;
}

const SCRIPT_NAME = /script: *([a-z0-9-]+)/i;

export async function startScriptedModel(
	scripts: Record<string, ScriptedCall[]>,
): Promise<ScriptedModel> {
	const answers = new Map<string, ToolAnswer[]>();
	const offered = new Map<string, string[]>();
	const problems: string[] = [];

	function reply(request: ChatRequest): ModelTurn {
		const messages = request.messages ?? [];
		const firstUser = messages.find((m) => m.role === 'user');
		const name = SCRIPT_NAME.exec(textOf(firstUser?.content))?.[1];
		const script = name ? scripts[name] : undefined;
		if (!name || !script) {
			problems.push(
				`a request named no known script (first user message: ${textOf(firstUser?.content).slice(0, 80)})`,
			);
			return { text: 'No script for this conversation.' };
		}
		const sofar = messages.filter((m) => m.role === 'tool').map((m) => toolAnswerOf(m.content));
		answers.set(name, sofar);
		offered.set(
			name,
			(request.tools ?? []).map((t) => t.function?.name ?? ''),
		);
		const next = script[sofar.length];
		if (!next) return { text: `Script ${name} is done.` };
		try {
			return { tool: next.tool, args: next.args(sofar) };
		} catch (error) {
			problems.push(`script ${name}, call ${next.tool}: ${(error as Error).message}`);
			return { text: `Script ${name} failed.` };
		}
	}

	const server = await startChatModelServer('scripted', reply, {
		onUnexpected: (what) => problems.push(what),
	});
	return {
		baseUrl: server.baseUrl,
		answersOf: (script) => answers.get(script) ?? [],
		toolsOfferedTo: (script) => offered.get(script) ?? [],
		problems,
		close: () => server.close(),
	};
}
