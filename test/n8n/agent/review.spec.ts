// A person's review in front of Confirm, proven in real n8n 2.41.1 with example 08 as shipped: a
// public chat, n8n's AI Agent on a scripted model (modelScripts.ts REVIEW_SCRIPTS), Prepare, and
// n8n's human review holding Confirm. The check reads the review on the chat socket and presses
// its buttons as a browser does. The review shows the token Confirm receives, which starts with the
// payout in words: approve pays once, deny pays nothing, and a model that prepares two payouts and
// passes the second one's token gets a review naming the second one.
import { targetFor } from '../../../scripts/n8n/targets';
import { chat, press, type ChatTurn } from './chat';
import { expect, test } from './fixtures';

test.use({ n8nTarget: targetFor('2.41.1') });
test.describe.configure({ mode: 'serial' });

const summaryOf = (reference: string, mobile: string) =>
	`Pay PHP 500.00 to e-wallet mobile number ${mobile} on GCASH, reference ${reference} (Sandbox)`;

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
		expect(review.text, 'the review message').toContain(
			`${summaryOf('REVIEW-OK-1', '09171234567')} [pa3.`,
		);
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
		expect(review.text).toContain(summaryOf('REVIEW-NO-1', '09171234567'));
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
}) => {
	const turn = await converse(chatN8n, 'review-swap');
	try {
		const review = await turn.review();
		expect(review.text, 'the review names the payout Confirm would send').toContain(
			summaryOf('REVIEW-SWAP-PASSED', '09181234567'),
		);
		expect(review.text, 'the review does not name the other').not.toContain('REVIEW-SWAP-SHOWN');
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
