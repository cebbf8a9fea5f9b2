// A scripted stand-in for an OpenAI-compatible chat model on 127.0.0.1: no model, no internet.
// n8n's OpenAI Chat Model reaches it through its credential's Base URL. Each conversation names its
// script in the user's first message (`script: <name>`); the server answers each request with the
// script's next tool call, built from the tool answers so far, and once every call has its answer,
// with a final assistant message. What each tool answered is recorded for the checks.
import http from 'http';
import type { AddressInfo } from 'net';

export type ToolAnswer = Record<string, unknown>;

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

interface ChatMessage {
	role: string;
	content?: unknown;
}

interface ChatRequest {
	messages?: ChatMessage[];
	tools?: Array<{ function?: { name?: string } }>;
	stream?: boolean;
}

const SCRIPT_NAME = /script: *([a-z0-9-]+)/i;

const textOf = (content: unknown): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((part: { text?: string }) => part?.text ?? '').join('')
			: '';

/** A tool's answer as the agent passes it back: JSON text of an object, or of a list of them. */
function parseAnswer(content: unknown): ToolAnswer {
	const text = textOf(content);
	try {
		const value = JSON.parse(text) as unknown;
		const first = Array.isArray(value) ? (value[0] as unknown) : value;
		if (first && typeof first === 'object') {
			const item = first as ToolAnswer;
			return item.json && typeof item.json === 'object' ? (item.json as ToolAnswer) : item;
		}
		return { text };
	} catch {
		return { text };
	}
}

export async function startScriptedModel(
	scripts: Record<string, ScriptedCall[]>,
): Promise<ScriptedModel> {
	const answers = new Map<string, ToolAnswer[]>();
	const offered = new Map<string, string[]>();
	const problems: string[] = [];
	let counter = 0;

	function reply(request: ChatRequest): Record<string, unknown> {
		const messages = request.messages ?? [];
		const firstUser = messages.find((m) => m.role === 'user');
		const name = SCRIPT_NAME.exec(textOf(firstUser?.content))?.[1];
		const script = name ? scripts[name] : undefined;
		if (!name || !script) {
			problems.push(
				`a request named no known script (first user message: ${textOf(firstUser?.content).slice(0, 80)})`,
			);
			return { role: 'assistant', content: 'No script for this conversation.' };
		}
		const sofar = messages.filter((m) => m.role === 'tool').map((m) => parseAnswer(m.content));
		answers.set(name, sofar);
		offered.set(
			name,
			(request.tools ?? []).map((t) => t.function?.name ?? ''),
		);
		const next = script[sofar.length];
		if (!next) return { role: 'assistant', content: `Script ${name} is done.` };
		let args: Record<string, unknown>;
		try {
			args = next.args(sofar);
		} catch (error) {
			problems.push(`script ${name}, call ${next.tool}: ${(error as Error).message}`);
			return { role: 'assistant', content: `Script ${name} failed.` };
		}
		counter += 1;
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: `call_${counter}`,
					type: 'function',
					function: { name: next.tool, arguments: JSON.stringify(args) },
				},
			],
		};
	}

	function completion(message: Record<string, unknown>): Record<string, unknown> {
		return {
			id: `chatcmpl-${counter}`,
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model: 'scripted',
			choices: [
				{
					index: 0,
					message,
					finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
				},
			],
			usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
		};
	}

	/** The same answer as server-sent events, for a client that asked to stream. */
	function streamed(message: Record<string, unknown>): string {
		const base = { id: `chatcmpl-${counter}`, object: 'chat.completion.chunk', model: 'scripted' };
		const calls = message.tool_calls as Array<Record<string, unknown>> | undefined;
		const delta = calls
			? { role: 'assistant', tool_calls: calls.map((call, index) => ({ index, ...call })) }
			: { role: 'assistant', content: message.content };
		const chunks = [
			{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
			{
				...base,
				choices: [{ index: 0, delta: {}, finish_reason: calls ? 'tool_calls' : 'stop' }],
				usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
			},
		];
		return (
			chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n'
		);
	}

	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			const url = req.url ?? '';
			if (req.method === 'GET' && url.endsWith('/models')) {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model' }] }));
				return;
			}
			if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
				problems.push(`unexpected request ${req.method} ${url}`);
				res.writeHead(404, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: `${url} is not served here` } }));
				return;
			}
			const request = JSON.parse(body || '{}') as ChatRequest;
			const message = reply(request);
			if (request.stream) {
				res.writeHead(200, { 'content-type': 'text/event-stream' });
				res.end(streamed(message));
			} else {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(completion(message)));
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		answersOf: (script) => answers.get(script) ?? [],
		toolsOfferedTo: (script) => offered.get(script) ?? [],
		problems,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
