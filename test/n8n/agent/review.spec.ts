// A person's review in front of Confirm, proven in real n8n 2.41.1 with example 08 as shipped: a
// public chat, n8n's AI Agent on a scripted model (modelScripts.ts REVIEW_SCRIPTS), Prepare and
// Confirm (node version 2), and n8n's human review holding Confirm. The check reads the review on
// the chat socket and presses its buttons as a browser does. The review shows the summary of the
// token Confirm receives (the payout in words) and the token's last characters, not its signed
// part: approve pays once, deny pays nothing, and a model that prepares two payouts and passes the
// second one's token gets a review naming the second one.
import { targetFor } from '../../../scripts/n8n/targets';
import { chat, press, type ChatTurn } from './chat';
import { expect, test } from './fixtures';

test.use({ n8nTarget: targetFor('2.41.1') });
test.describe.configure({ mode: 'serial' });

const summaryOf = (reference: string, mobile: string) =>
	`Pay PHP 500.00 to e-wallet mobile number ${mobile} on GCASH, reference ${reference} (Sandbox)`;

/** The line example 08's review ends with: the token's last 8 characters before its closing "]". */
const endingOf = (token: unknown) => `Approval token ending ${String(token).trim().slice(-9, -1)}`;

/** The review as a sentence: the summary alone, no signed part. */
function expectSentence(text: string, summary: string, token: unknown): void {
	expect(text, 'the review names the payout').toContain(summary);
	expect(text, "the review ends with the token's last characters").toContain(endingOf(token));
	expect(text, 'the review shows no signed part').not.toContain('pa3.');
}

async function converse(
	chatN8n: { url: string; webhookId: string },
	script: string,
): Promise<ChatTurn> {
	return await chat(chatN8n.url, chatN8n.webhookId, `session-${script}`, `script: ${script}`);
}

test('review, approved: the review shows the payout in full, and it is paid once', async ({
	chatN8n,
	sandbox,
	model,
}) => {
	const turn = await converse(chatN8n, 'review-approve');
	try {
		const review = await turn.review();
		const [prepared] = model.answersOf('review-approve');
		expectSentence(review.text, summaryOf('REVIEW-OK-1', '09171234567'), prepared?.approvalToken);
		expect((await sandbox.stats()).creationsByReference, 'paid before approval').not.toHaveProperty(
			'REVIEW-OK-1',
		);
		expect(await press(review.approve, chatN8n.url), 'the approve link').toBe(200);
		await turn.message();
		await turn.finished;
	} finally {
		turn.close();
	}
	expect(model.problems, 'requests the scripted model could not answer').toEqual([]);
	const [, confirmed] = model.answersOf('review-approve');
	expect(confirmed, 'what Confirm answered the agent').toMatchObject({
		reference_no: 'REVIEW-OK-1',
		replayed: false,
	});
	expect((await sandbox.stats()).creationsByReference).toHaveProperty('REVIEW-OK-1', 1);
});

test('review, denied: nothing is paid', async ({ chatN8n, sandbox, model }) => {
	const turn = await converse(chatN8n, 'review-deny');
	try {
		const review = await turn.review();
		const [prepared] = model.answersOf('review-deny');
		expectSentence(review.text, summaryOf('REVIEW-NO-1', '09171234567'), prepared?.approvalToken);
		expect(await press(review.deny, chatN8n.url), 'the deny link').toBe(200);
		await turn.message();
		await turn.finished;
	} finally {
		turn.close();
	}
	const [, denied] = model.answersOf('review-deny');
	expect(JSON.stringify(denied), 'what the agent was told').toMatch(/rejected/i);
	expect((await sandbox.stats()).creationsByReference).not.toHaveProperty('REVIEW-NO-1');
});

test('review of a swapped token: it names the payout of the token passed, not the one shown', async ({
	chatN8n,
	sandbox,
	model,
}) => {
	const turn = await converse(chatN8n, 'review-swap');
	try {
		const review = await turn.review();
		const [shown, passed] = model.answersOf('review-swap');
		expectSentence(
			review.text,
			summaryOf('REVIEW-SWAP-PASSED', '09181234567'),
			passed?.approvalToken,
		);
		expect(review.text, 'the review does not name the other').not.toContain('REVIEW-SWAP-SHOWN');
		expect(review.text, "the other token's ending").not.toContain(endingOf(shown?.approvalToken));
		expect(await press(review.deny, chatN8n.url)).toBe(200);
		await turn.message();
		await turn.finished;
	} finally {
		turn.close();
	}
	const created = (await sandbox.stats()).creationsByReference;
	expect(created).not.toHaveProperty('REVIEW-SWAP-PASSED');
	expect(created).not.toHaveProperty('REVIEW-SWAP-SHOWN');
});
