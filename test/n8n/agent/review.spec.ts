// A person's review in front of Confirm, proven in real n8n 2.41.1 with example 08 as shipped: a
// public chat, n8n's AI Agent on a scripted model (modelScripts.ts REVIEW_SCRIPTS), Prepare and
// Confirm (node version 3), and n8n's human review holding Confirm. The check reads the review on
// the chat socket and presses its buttons as a browser does. The review shows the summary of the
// token Confirm receives (the payout in words) and no part of the token a person cannot use: approve pays once, deny pays nothing, and a model that prepares two payouts and passes the
// second one's token gets a review naming the second one. Prepare and Confirm carry a Maximum Total
// per Day (1,500, the day kept in the payout ledger set up in this n8n): the review states the day's
// total so far and what is left, Prepare refuses a payout past the day, Confirm refuses, as the
// tool's answer, a payout approved past a day that filled during the review, and a paid payout's
// answer states the day's total.
import { publicApi } from '../../../scripts/n8n/ledger';
import { targetFor } from '../../../scripts/n8n/targets';
import { chat, press, type ChatTurn, type Review } from './chat';
import { expect, test } from './fixtures';
import { reviewWorkflow } from './workflow';

test.use({ n8nTarget: targetFor('2.41.1') });
test.describe.configure({ mode: 'serial' });

const summaryOf = (reference: string, mobile: string) =>
	`Pay PHP 500.00 to e-wallet mobile number ${mobile} on GCASH, reference ${reference} (Sandbox)`;

/** The token's last 8 characters before its closing "]", which the review never shows. */
const endingOf = (token: unknown) => String(token).trim().slice(-9, -1);

/** The review as a sentence: the summary alone, no part of the token. */
function expectSentence(text: string, summary: string, token: unknown): void {
	expect(text, 'the review names the payout').toContain(summary);
	expect(text, "the review shows none of the token's characters").not.toContain(endingOf(token));
	expect(text, 'the review shows no signed part').not.toContain('pa4.');
}

/** Example 08's Prepare payout and Confirm payout: their Maximum Total per Day, in pesos. */
const dayMaximumOf = (name: string) =>
	Number(
		(
			reviewWorkflow().nodes.find((node) => node.name === name)?.parameters?.options as
				| { maxTotalPerDay?: string }
				| undefined
		)?.maxTotalPerDay,
	);
const DAY = /^\d{4}-\d\d-\d\d$/;

/** The day as the review states it, after the payout, ending the review (amounts as `PHP 500.00`). */
function dayInWords(before: string, after: string, left: string): RegExp {
	const text = (words: string) => words.replace(/[.()]/g, '\\$&');
	return new RegExp(
		`${text(' (Sandbox). Today (')}\\d{4}-\\d\\d-\\d\\d${text(`, Asia/Manila) so far ${before} of PHP 1,500.00; after this payout ${after}, ${left === 'PHP 0.00' ? 'nothing' : left} left`)}\\s*$`,
	);
}

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
		expect(review.text, "the review states the day's total so far and what remains").toMatch(
			dayInWords('PHP 0.00', 'PHP 500.00', 'PHP 1,000.00'),
		);
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
	for (const node of ['Prepare payout', 'Confirm payout'])
		expect(dayMaximumOf(node), `example 08's ${node}: its Maximum Total per Day`).toBe(1500);
	const [prepared] = model.answersOf('review-approve');
	expect(prepared?.dailyTotal, "Prepare's figures are Confirm's").toEqual(confirmed?.dailyTotal);
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

test("a payout past the day's maximum: Prepare's answer is the refusal, and there is nothing to review", async ({
	chatN8n,
	sandbox,
	model,
}) => {
	const turn = await converse(chatN8n, 'review-day-full');
	try {
		await turn.message();
		await turn.finished;
	} finally {
		turn.close();
	}
	expect(model.problems, 'requests the scripted model could not answer').toEqual([]);
	const [refused] = model.answersOf('review-day-full');
	expect(refused, 'what Prepare answered the agent').toEqual({
		refused: true,
		error: expect.stringMatching(
			/^Refused: this payout of PHP 1,500\.00 would bring the total of \d{4}-\d\d-\d\d \(Asia\/Manila\) to PHP 2,000\.00, above the Maximum Total per Day of PHP 1,500\.00, so nothing was prepared\.$/,
		),
		whatToDo: expect.stringContaining('add up to PHP 500.00, so PHP 1,000.00 is left for today.'),
	});
	expect(
		(await sandbox.stats()).creationsByReference,
		'payouts the sandbox created',
	).not.toHaveProperty('REVIEW-DAY-FULL');
});

test("review, approved, of a payout the day had room for when prepared but not when confirmed: Confirm's answer is the refusal, and nothing is paid", async ({
	chatN8n,
	sandbox,
	model,
}) => {
	const { ledger } = chatN8n;
	const rowsUrl = `/data-tables/${ledger.dataTableId}/rows`;
	/** Another execution's payout, paid while the person reads the review. */
	const other = {
		day: '',
		scope: '',
		reference: 'REVIEW-ELSEWHERE',
		centavos: 60000,
		state: 'paid',
	};
	try {
		await throughReview(chatN8n, 'review-day-over', 'approve', async (review) => {
			const [prepared] = model.answersOf('review-day-over');
			expect(prepared?.refused, 'Prepare refused').toBeFalsy();
			expect(review.text, 'the review names the payout and the day as Prepare read it').toMatch(
				dayInWords('PHP 500.00', 'PHP 1,000.00', 'PHP 500.00'),
			);
			const { day } = prepared?.dailyTotal as { day: string };
			const read = await publicApi(ledger, 'GET', `${rowsUrl}?limit=250`);
			const [paid] = (read.json as { data: Array<{ scope: string }> }).data;
			Object.assign(other, { day, scope: paid.scope });
			const written = await publicApi(ledger, 'POST', rowsUrl, { data: [other] });
			expect(written.status, `the other payout's row: ${written.text}`).toBe(200);
		});
	} finally {
		const filter = JSON.stringify({
			type: 'and',
			filters: [{ columnName: 'reference', condition: 'eq', value: other.reference }],
		});
		await publicApi(ledger, 'DELETE', `${rowsUrl}/delete?filter=${encodeURIComponent(filter)}`);
	}
	expect(model.problems, 'requests the scripted model could not answer').toEqual([]);
	const [, refused] = model.answersOf('review-day-over');
	expect(refused, 'what Confirm answered the agent').toEqual({
		refused: true,
		error: expect.stringMatching(
			/^Refused: this payout of PHP 500\.00 would bring the total of \d{4}-\d\d-\d\d \(Asia\/Manila\) to PHP 1,600\.00, above the Maximum Total per Day of PHP 1,500\.00, so nothing was sent\.$/,
		),
		whatToDo: expect.stringContaining('add up to PHP 1,100.00, so PHP 400.00 is left for today.'),
	});
	expect(
		(await sandbox.stats()).creationsByReference,
		'payouts the sandbox created',
	).not.toHaveProperty('REVIEW-DAY-OVER');
	// The ledger keeps the paid payout; the refused one's reservation was removed.
	const rows = await publicApi(ledger, 'GET', `${rowsUrl}?limit=250`);
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
