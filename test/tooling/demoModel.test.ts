/**
 * The demo's scripted chat model over HTTP on 127.0.0.1, spoken to as n8n's OpenAI Chat Model
 * speaks to it: a payout request becomes a Prepare call, the tool's answer its summary, "yes" a
 * Confirm call with the token of the summary it showed, and a tool answer is read one way for every
 * shape n8n passes back.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { ChatMessage, ChatModelServer } from '../../scripts/n8n/chatModelServer';
import { toolAnswerOf } from '../../scripts/n8n/chatModelServer';
import { startDemoModel } from '../../scripts/n8n/demoModel';

const TOOLS = [
	{ function: { name: 'Prepare_payout', parameters: { properties: {} } } },
	{ function: { name: 'Confirm_payout', parameters: { properties: {} } } },
];

let model: ChatModelServer;
beforeAll(async () => {
	model = await startDemoModel();
});
afterAll(async () => await model.close());

async function say(messages: ChatMessage[]) {
	const response = await fetch(`${model.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ model: 'demo-script', messages, tools: TOOLS }),
	});
	expect(response.status).toBe(200);
	const body = (await response.json()) as { choices: Array<{ message: ChatMessage }> };
	return body.choices[0].message;
}

describe('toolAnswerOf', () => {
	test.each([
		['a list of items', '[{"json":{"summary":"S"}}]', { summary: 'S' }],
		['a list of plain objects', '[{"summary":"S"}]', { summary: 'S' }],
		['one object', '{"summary":"S"}', { summary: 'S' }],
		['a list of parts', [{ type: 'text', text: '{"summary":"S"}' }], { summary: 'S' }],
		['text (a denial)', 'The user denied this', { text: 'The user denied this' }],
		['a JSON number', '42', { text: '42' }],
		['an empty list', '[]', { text: '[]' }],
	])('%s', (_name, content, answer) => {
		expect(toolAnswerOf(content)).toEqual(answer);
	});
});

describe('the demo model', () => {
	it('prepares, repeats the summary, and confirms exactly the token of the summary it showed', async () => {
		const asked: ChatMessage = { role: 'user', content: 'pay 1,500 to GCash 0917 123 4567' };
		const prepare = await say([asked]);
		const call = prepare.tool_calls![0];
		expect(call.function.name).toBe('Prepare_payout');
		expect(JSON.parse(call.function.arguments)).toEqual({
			amount: 1500,
			referenceNo: expect.stringMatching(/^DEMO-/),
			mobileNumber: '09171234567',
		});

		const summary = 'Pay PHP 1,500.00 to mobile number 09171234567 over GCASH (Sandbox)';
		const prepared: ChatMessage = {
			role: 'tool',
			tool_call_id: call.id,
			content: JSON.stringify([{ json: { summary, approvalToken: 'TOKEN-SHOWN' } }]),
		};
		const shown = await say([asked, prepare, prepared]);
		expect(shown.content).toContain(summary);

		const confirm = await say([asked, prepare, prepared, shown, { role: 'user', content: 'yes' }]);
		expect(confirm.tool_calls![0].function.name).toBe('Confirm_payout');
		expect(JSON.parse(confirm.tool_calls![0].function.arguments)).toEqual({
			approvalToken: 'TOKEN-SHOWN',
		});
	});

	it('confirms nothing it did not show', async () => {
		const answer = await say([{ role: 'user', content: 'yes' }]);
		expect(answer.tool_calls).toBeUndefined();
		expect(answer.content).toMatch(/^There is nothing to confirm yet/);
	});

	it('says what a refusal said, in its words alone', async () => {
		const asked: ChatMessage = { role: 'user', content: 'pay 500 to GCash 09171234567' };
		const prepare = await say([asked]);
		const refused = await say([
			asked,
			prepare,
			{
				role: 'tool',
				tool_call_id: prepare.tool_calls![0].id,
				content: JSON.stringify({ refused: true, error: 'Over the cap.', whatToDo: 'Lower it.' }),
			},
		]);
		expect(refused.content).toBe('Over the cap. Lower it.');
	});
});

describe("example 08's chat, as it opens", () => {
	const example = JSON.parse(
		readFileSync(
			join(__dirname, '..', '..', 'examples', '08-ai-agent-pays-after-approval.json'),
			'utf8',
		),
	) as { nodes: Array<{ type: string; parameters: Record<string, unknown> }> };
	const chat = example.nodes.find((node) => node.type.endsWith('.chatTrigger'))!.parameters;
	const greeting = String(chat.initialMessages);

	it("says what it can do and that a person approves each payout, in place of n8n's stock greeting", () => {
		expect(greeting).not.toMatch(/Nathan/);
		expect(chat.options).toMatchObject({ title: 'Payouts, approved by a person' });
		expect(greeting).toMatch(/I pay out to GCash e-wallets/);
		expect(greeting).toMatch(/a person approves every payout before it is sent/);
	});

	it('gives an example request the demo model prepares, as the input placeholder too', async () => {
		const [, example] = /Try: (.+)/.exec(greeting)!;
		expect((chat.options as Record<string, unknown>).inputPlaceholder).toBe(example);
		const prepare = await say([{ role: 'user', content: example }]);
		expect(prepare.tool_calls?.[0].function.name).toBe('Prepare_payout');
	});
});
