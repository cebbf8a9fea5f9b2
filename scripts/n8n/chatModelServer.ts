// An OpenAI-compatible chat completions server on 127.0.0.1 for scripted models (no model, no
// internet): n8n's OpenAI Chat Model reaches it through its credential's Base URL. `reply` decides
// each answer (a tool call or a text) from the request; this file speaks the wire format, plain
// and streamed, and lists one model.
import http from 'http';
import type { AddressInfo } from 'net';

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ChatRequest {
	messages?: ChatMessage[];
	tools?: Array<{ function?: { name?: string; parameters?: { properties?: object } } }>;
	stream?: boolean;
}

/** What the model says next: text, or one tool call. */
export type ModelTurn = { text: string } | { tool: string; args: Record<string, unknown> };

export interface ChatModelServer {
	/** The Base URL for the OpenAI credential, ending in /v1. */
	baseUrl: string;
	close(): Promise<void>;
}

/** A message's text, whether the client sent a string or a list of parts. */
export const textOf = (content: unknown): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((part: { text?: string }) => part?.text ?? '').join('')
			: '';

/** A tool's answer as n8n's agent passes it back to the model: the first item's JSON, else the text. */
export type ToolAnswer = Record<string, unknown>;

/**
 * Reads a tool message: JSON text of an object or of a list of items (`{ json }` or plain), or
 * text (n8n's review passes a denial as text), which comes back as `{ text }`.
 */
export function toolAnswerOf(content: unknown): ToolAnswer {
	const text = textOf(content);
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { text };
	}
	const first = (Array.isArray(value) ? value[0] : value) as ToolAnswer | undefined;
	if (!first || typeof first !== 'object') return { text };
	return first.json && typeof first.json === 'object' ? (first.json as ToolAnswer) : first;
}

export async function startChatModelServer(
	model: string,
	reply: (request: ChatRequest) => ModelTurn,
	{ port = 0, onUnexpected = (_what: string) => {} } = {},
): Promise<ChatModelServer> {
	let counter = 0;

	function message(turn: ModelTurn): Record<string, unknown> {
		if ('text' in turn) return { role: 'assistant', content: turn.text };
		counter += 1;
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: `call_${counter}`,
					type: 'function',
					function: { name: turn.tool, arguments: JSON.stringify(turn.args) },
				},
			],
		};
	}

	function completion(answer: Record<string, unknown>): Record<string, unknown> {
		return {
			id: `chatcmpl-${counter}`,
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model,
			choices: [
				{ index: 0, message: answer, finish_reason: answer.tool_calls ? 'tool_calls' : 'stop' },
			],
			usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
		};
	}

	/** The same answer as server-sent events, for a client that asked to stream. */
	function streamed(answer: Record<string, unknown>): string {
		const base = { id: `chatcmpl-${counter}`, object: 'chat.completion.chunk', model };
		const calls = answer.tool_calls as Array<Record<string, unknown>> | undefined;
		const delta = calls
			? { role: 'assistant', tool_calls: calls.map((call, index) => ({ index, ...call })) }
			: { role: 'assistant', content: answer.content };
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
				res.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model' }] }));
				return;
			}
			if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
				onUnexpected(`unexpected request ${req.method} ${url}`);
				res.writeHead(404, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: `${url} is not served here` } }));
				return;
			}
			let request: ChatRequest;
			try {
				request = JSON.parse(body || '{}') as ChatRequest;
			} catch {
				res.writeHead(400, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: 'the request is not JSON' } }));
				return;
			}
			const answer = message(reply(request));
			if (request.stream) {
				res.writeHead(200, { 'content-type': 'text/event-stream' });
				res.end(streamed(answer));
			} else {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(completion(answer)));
			}
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const { port: bound } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${bound}/v1`,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
