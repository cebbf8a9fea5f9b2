// A person's review in front of Confirm, proven in real n8n 2.41.1 with example 08 as shipped: a
// public chat, n8n's AI Agent on a scripted model (modelScripts.ts REVIEW_SCRIPTS), Prepare and
// Confirm (node version 2), and n8n's human review holding Confirm. The check reads the review on
// the chat socket and presses its buttons as a browser does. The review shows the summary of the
// token Confirm receives (the payout in words) and the token's last characters, not its signed
// part: approve pays once, deny pays nothing, and a model that prepares two payouts and passes the
// second one's token gets a review naming the second one. Confirm's Maximum Total per Day (1,500, its
// day kept in the payout ledger set up in this n8n) refuses, as the tool's answer, a payout approved
// past it, and a paid payout's answer states the day's total.
import { publicApi } from '../../../scripts/n8n/ledger';
import { targetFor } from '../../../scripts/n8n/targets';
import { chat, press, type ChatTurn, type Review } from './chat';
import { expect, test } from './fixtures';
import { reviewWorkflow } from './workflow';

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

/** Example 08's Confirm payout: its Maximum Total per Day, in pesos. */
const DAY_MAXIMUM = Number(
	(
		reviewWorkflow().nodes.find((node) => node.name === 'Confirm payout')?.parameters?.options as
			| { maxTotalPerDay?: string }
			| undefined
	)?.maxTotalPerDay,
);
const DAY = /^\d{4}-\d\d-\d\d$/;

async function converse(
	chatN8n: { url: string; webhookId: string },
	script: string,
): Promise<ChatTurn> {
	return await chat(chatN8n.url, chatN8n.webhookId, `session-${script}`, `script: ${script}`);
}

/** One chat turn through example 08's review: `check` reads the review, then the person presses `choice`. */
async function throughReview(
	chatN8n: { url: string; webhookId: string },
	script: string,
	choice: 'approve' | 'deny',
	check: (review: Review) => void | Promise<void>,
): Promise<void> {
	const turn = await converse(chatN8n, script);
	try {
		const review = await turn.review();
		await check(review);
		expect(await press(review[choice], chatN8n.url), `the ${choice} link`).toBe(200);
		await turn.message();
		await turn.finished;
	} finally {
		turn.close();
	}
}

test('review, approved: the review shows the payout in full, and it is paid once', async ({
	chatN8n,
	sandbox,
	model,
}) => {
	await throughReview(chatN8n, 'review-approve', 'approve', async (review) => {
		const [prepared] = model.answersOf('review-approve');
		expectSentence(review.text, summaryOf('REVIEW-OK-1', '09171234567'), prepared?.approvalToken);
		expect((await sandbox.stats()).creationsByReference, 'paid before approval').not.toHaveProperty(
			'REVIEW-OK-1',
		);
	});
	expect(model.problems, 'requests the scripted model could not answer').toEqual([]);
	const [, confirmed] = model.answersOf('review-approve');
	expect(confirmed, 'what Confirm answered the agent').toMatchObject({
		reference_no: 'REVIEW-OK-1',
		replayed: false,
	});
	expect(DAY_MAXIMUM, "example 08's Maximum Total per Day").toBe(1500);
	expect(confirmed?.dailyTotal, "the day's figures Confirm answered").toEqual({
		day: expect.stringMatching(DAY),
		timeZone: 'Asia/Manila',
		maximum: 1500,
		totalBefore: 0,
		total: 500,
		remaining: 1000,
	});
	expect((await sandbox.stats()).creationsByReference).toHaveProperty('REVIEW-OK-1', 1);
});

test("review, approved, of a payout past the day's maximum: Confirm's answer is the refusal, and nothing is paid", async ({
	chatN8n,
	sandbox,
	model,
}) => {
	await throughReview(chatN8n, 'review-day-over', 'approve', async (review) => {
		const [prepared] = model.answersOf('review-day-over');
		expect(prepared?.refused, 'Prepare refused').toBeFalsy();
		expect(review.text, 'the review names the payout').toContain(
			'Pay PHP 1,500.00 to e-wallet mobile number 09171234567 on GCASH, reference REVIEW-DAY-OVER (Sandbox)',
		);
	});
	expect(model.problems, 'requests the scripted model could not answer').toEqual([]);
	const [, refused] = model.answersOf('review-day-over');
	expect(refused, 'what Confirm answered the agent').toEqual({
		refused: true,
		error: expect.stringMatching(
			/^Refused: this payout of PHP 1,500\.00 would bring the total of \d{4}-\d\d-\d\d \(Asia\/Manila\) to PHP 2,000\.00, above the Maximum Total per Day of PHP 1,500\.00, so nothing was sent \(row 1\)$/,
		),
		whatToDo: expect.stringContaining('add up to PHP 500.00; PHP 1,000.00 remain'),
	});
	expect(
		(await sandbox.stats()).creationsByReference,
		'payouts the sandbox created',
	).not.toHaveProperty('REVIEW-DAY-OVER');
	// The ledger keeps the paid payout; the refused one's reservation was removed.
	const { ledger } = chatN8n;
	const rows = await publicApi(ledger, 'GET', `/data-tables/${ledger.dataTableId}/rows?limit=250`);
	expect(rows.status, `the ledger's rows: ${rows.text}`).toBe(200);
	const kept = (rows.json as { data: Array<Record<string, unknown>> }).data.map(
		({ reference, centavos, state }) => ({ reference, centavos, state }),
	);
	expect(kept, "the payout ledger's rows").toEqual([
		{ reference: 'REVIEW-OK-1', centavos: 50000, state: 'paid' },
	]);
});

test('review, denied: nothing is paid', async ({ chatN8n, sandbox, model }) => {
	await throughReview(chatN8n, 'review-deny', 'deny', async (review) => {
		const [prepared] = model.answersOf('review-deny');
		expectSentence(review.text, summaryOf('REVIEW-NO-1', '09171234567'), prepared?.approvalToken);
	});
	const [, denied] = model.answersOf('review-deny');
	expect(JSON.stringify(denied), 'what the agent was told').toMatch(/rejected/i);
	expect((await sandbox.stats()).creationsByReference).not.toHaveProperty('REVIEW-NO-1');
});

test('review of a swapped token: it names the payout of the token passed, not the one shown', async ({
	chatN8n,
	sandbox,
	model,
}) => {
	await throughReview(chatN8n, 'review-swap', 'deny', async (review) => {
		const [shown, passed] = model.answersOf('review-swap');
		expectSentence(
			review.text,
			summaryOf('REVIEW-SWAP-PASSED', '09181234567'),
			passed?.approvalToken,
		);
		expect(review.text, 'the review does not name the other').not.toContain('REVIEW-SWAP-SHOWN');
		expect(review.text, "the other token's ending").not.toContain(endingOf(shown?.approvalToken));
	});
	const created = (await sandbox.stats()).creationsByReference;
	expect(created).not.toHaveProperty('REVIEW-SWAP-PASSED');
	expect(created).not.toHaveProperty('REVIEW-SWAP-SHOWN');
});
