// The demo's chat model: a script, not an AI, so example 08 runs with no account and no key. It
// answers n8n's OpenAI Chat Model (its credential's Base URL) on 127.0.0.1 and understands a few
// requests: "pay 500 to GCash 09171234567" calls Prepare and repeats its summary; "yes" then calls
// Confirm with the token of the summary it repeated, which n8n's human review holds for the person
// in the chat; anything else gets a line saying what it understands.
import {
	startChatModelServer,
	textOf,
	toolAnswerOf,
	type ChatModelServer,
	type ChatRequest,
	type ModelTurn,
	type ToolAnswer,
} from './chatModelServer';

export const DEMO_MODEL_NAME = 'Demo model (scripted, no AI)';

const PAY =
	/\bpay\s+(?:php\s*|₱\s*)?(\d[\d,]*(?:\.\d{1,2})?)\s+(?:pesos?\s+)?to\s+(?:(?:gcash|maya|paymaya)\s+)?(\+?\d[\d\s-]{9,15}\d)/i;
const YES = /^\s*(yes|y|ok|okay|go ahead|go|confirm|send it|sure|pay it)\b/i;
const HELP =
	'I am the demo model: a script, not an AI. Ask me "pay 500 to GCash 09171234567": I prepare the payout and show its summary; reply "yes" and a person reviews it in this chat before it is sent.';

type Answer = ToolAnswer;

const said = (answer: Answer) =>
	[answer.error, answer.whatToDo].filter((part) => typeof part === 'string').join(' ');

export async function startDemoModel(port = 0): Promise<ChatModelServer> {
	// The tokens of the summaries this model showed, so that "yes" confirms exactly the one shown.
	const tokens = new Map<string, string>();

	function toolNamed(request: ChatRequest, pattern: RegExp) {
		return (request.tools ?? []).find((tool) => pattern.test(tool.function?.name ?? ''))?.function;
	}

	function afterTool(request: ChatRequest, toolName: string, answer: Answer): ModelTurn {
		if (/prepare/i.test(toolName)) {
			if (answer.refused) return { text: said(answer) };
			const summary = String(answer.summary ?? '');
			if (typeof answer.approvalToken === 'string') tokens.set(summary, answer.approvalToken);
			return {
				text: `${summary}\n\nReply "yes" to pay it: a person then reviews it here before it is sent.`,
			};
		}
		if (answer.refused) return { text: said(answer) };
		if (typeof answer.reference_no === 'string')
			return {
				text: `Sent: payout ${answer.reference_no} is ${String(answer.status)}${answer.replayed ? ' (it had been sent before)' : ''}.`,
			};
		return { text: 'Not sent: the payout was not approved.' };
	}

	function afterUser(request: ChatRequest, text: string): ModelTurn {
		const prepare = toolNamed(request, /prepare/i);
		const confirm = toolNamed(request, /confirm/i);
		const pay = PAY.exec(text);
		if (pay && prepare?.name) {
			const reference = `DEMO-${Date.now().toString(36).toUpperCase()}`;
			return {
				tool: prepare.name,
				args: {
					amount: Number(pay[1].replace(/,/g, '')),
					referenceNo: reference,
					mobileNumber: pay[2].replace(/[\s-]/g, ''),
				},
			};
		}
		if (YES.test(text) && confirm?.name) {
			const shown = (request.messages ?? [])
				.filter((m) => m.role === 'assistant')
				.map((m) => textOf(m.content))
				.reverse()
				.flatMap((reply) => [...tokens.keys()].filter((summary) => reply.includes(summary)));
			const token = shown.length > 0 ? tokens.get(shown[0]) : undefined;
			if (!token) return { text: `There is nothing to confirm yet. ${HELP}` };
			// Behind n8n's human review, the tool's own arguments go under toolParameters.
			const reviewed = 'toolParameters' in (confirm.parameters?.properties ?? {});
			const args = { approvalToken: token };
			return { tool: confirm.name, args: reviewed ? { toolParameters: args } : args };
		}
		return { text: HELP };
	}

	function reply(request: ChatRequest): ModelTurn {
		const messages = request.messages ?? [];
		const last = messages[messages.length - 1];
		if (last?.role === 'tool') {
			const call = messages
				.flatMap((m) => m.tool_calls ?? [])
				.find((c) => c.id === last.tool_call_id);
			return afterTool(request, call?.function.name ?? '', toolAnswerOf(last.content));
		}
		if (last?.role === 'user') return afterUser(request, textOf(last.content));
		return { text: HELP };
	}

	return await startChatModelServer('demo-script', reply, { port });
}
