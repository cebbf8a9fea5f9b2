/**
 * docs/agent.md and the README's "Let an AI agent pay out safely", "Check before paying",
 * "Reconcile", "Money safety" and "Troubleshooting" on approvals and who is paid: the Allowed
 * Recipients table entry by entry against the nodes' reading of it, Prepare's output as the docs
 * show it, and every message they quote, produced in n8n's engine against the sandbox gateway and
 * compared word for word (`...` and `…` in a quote stand for any text).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { IDataObject, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../sandbox';
import { isAllowedRecipient, parseAllowList } from '../../nodes/shared/validation/allowList';
import {
	comparableAccount,
	comparableMobile,
	type Recipient,
} from '../../nodes/shared/validation/recipient';
import {
	addCredential,
	bankRow,
	bankTransferParameters,
	DISBURSEMENT,
	eWalletParameters,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../harness/disbursementRuns';
import { startDataTableApi } from '../harness/dataTableApi';
import { cappedPayout, LEDGER_CREDENTIAL, today } from '../harness/ledgerRuns';

const ROOT = join(__dirname, '..', '..');
const AGENT = readFileSync(join(ROOT, 'docs', 'agent.md'), 'utf8');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** A Markdown file's text from a `## ` heading to the next one. */
function section(markdown: string, heading: string): string {
	const start = markdown.indexOf(`\n${heading}\n`);
	if (start < 0) throw new Error(`no heading "${heading}"`);
	const rest = markdown.slice(start + heading.length + 2);
	const end = rest.search(/\n## /);
	return end < 0 ? rest : rest.slice(0, end);
}

const withoutCodeBlocks = (markdown: string) => markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '');

/** Every inline `code` span, its line breaks and indentation read as one space. */
const codeSpans = (markdown: string) =>
	[...withoutCodeBlocks(markdown).matchAll(/`([^`]+)`/g)].map((match) =>
		match[1].replace(/\s*\n\s*/g, ' '),
	);

/** A quote as a pattern: its `...` and `…` stand for any text. */
const patternOf = (quote: string) =>
	new RegExp(
		quote
			.split(/\.\.\.|…/)
			.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
			.join('.*?'),
	);

describe('docs/agent.md: the Allowed Recipients table is what the nodes admit and refuse', () => {
	const table = section(AGENT, '## Allowed Recipients')
		.split('\n')
		.filter((line) => /^\| `/.test(line))
		.map((line) => line.split(' | ').map((cell) => cell.replace(/^\| | \|$/g, '')));

	/** "an e-wallet payout to `X` (or `Y`)", "the bank account `X` (or `Y`) at BDO|at any bank". */
	function recipientsOf(phrase: string): Recipient[] {
		const numbers = [...phrase.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
		if (phrase.startsWith('an e-wallet payout to '))
			return numbers.map(
				(number): Recipient => ({
					kind: 'mobile',
					channel: 'GCASH',
					mobileNumber: comparableMobile(number)!,
				}),
			);
		expect([phrase, phrase.startsWith('the bank account ')]).toEqual([phrase, true]);
		const bank = / at ([A-Z]+)$/.exec(phrase)?.[1];
		const banks = bank ? [bank] : ['BDO', 'BPI'];
		return numbers.flatMap((number) =>
			banks.map(
				(bankCode): Recipient => ({
					kind: 'bankAccount',
					channel: 'INSTAPAY',
					bankCode,
					accountNumber: comparableAccount(number)!,
				}),
			),
		);
	}
	const phrasesOf = (cell: string) => cell.split(/, (?=an |the )/);

	test('the table has its rows', () => {
		expect(table.map(([entry]) => entry)).toEqual([
			'`09171234567`',
			'`0917*`',
			'`BDO:001234567890`',
			'`BDO:0012*`',
			'`ANY:001234567890`',
			'`ANY:09171234567`',
		]);
	});

	test.each(table.map((row) => [row[0], row] as const))(
		'%s',
		(_entry, [entry, admits, refuses]) => {
			const parsed = parseAllowList(entry.replace(/`/g, ''));
			if (!('allowed' in parsed)) throw new Error(`${entry} is unreadable`);
			for (const phrase of phrasesOf(admits))
				for (const recipient of recipientsOf(phrase))
					expect([phrase, recipient, isAllowedRecipient(recipient, parsed.allowed)]).toEqual([
						phrase,
						recipient,
						true,
					]);
			for (const phrase of phrasesOf(refuses))
				for (const recipient of recipientsOf(phrase))
					expect([phrase, recipient, isAllowedRecipient(recipient, parsed.allowed)]).toEqual([
						phrase,
						recipient,
						false,
					]);
		},
	);

	test('the entries it says admit nothing are unreadable, each one', () => {
		const line = section(AGENT, '## Allowed Recipients')
			.split('\n')
			.find((text) => text.endsWith('admit nothing: each stops the node.'))!;
		const entries = [...line.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
		expect(entries).toEqual(['juan@example.com', '*', 'BDO:', 'ask the boss', '0917+1']);
		for (const entry of entries)
			expect(parseAllowList(entry)).toEqual({ unreadable: [entry], withoutBank: [] });
	});

	test('the account numbers it says name no bank are refused as such, each one', () => {
		const line = section(AGENT, '## Allowed Recipients')
			.split('\n')
			.find((text) => text.endsWith('name no bank: each stops the node.'))!;
		const entries = [...line.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
		expect(entries).toEqual(['001234567890', '0012*', 'account:001234567890']);
		for (const entry of entries)
			expect(parseAllowList(entry)).toEqual({ unreadable: [], withoutBank: [entry] });
	});
});

const EXAMPLE_08 = JSON.parse(
	readFileSync(join(ROOT, 'examples', '08-ai-agent-pays-after-approval.json'), 'utf8'),
) as { nodes: Array<{ type: string; parameters: IDataObject }> };
/** Example 08's human review message, an n8n expression ("=..."). */
const REVIEW_MESSAGE = String(
	EXAMPLE_08.nodes.find((node) => node.type.endsWith('.chatHitlTool'))!.parameters.message,
);
const SUMMARY_SHOWN =
	"{{ $tool.parameters.approvalToken.slice(0, $tool.parameters.approvalToken.lastIndexOf(' [pa4.')) }}";

/** What n8n's expression engine makes of the review message when Confirm is called with `approvalToken`. */
function reviewOf(approvalToken: string): unknown {
	const nodeType = {
		description: { name: 'stub', version: 1, properties: [] } as unknown as INodeTypeDescription,
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node = { id: '1', name: 'Review', type: 'stub', typeVersion: 1, position: [0, 0] };
	const workflow = new Workflow({
		nodes: [{ ...node, parameters: {} }],
		connections: {},
		active: false,
		nodeTypes,
	} as never);
	// A tool's human review reads $tool; without execution data n8n takes it from these keys.
	const $tool = { name: 'Confirm_payout', parameters: { approvalToken } };
	return workflow.expression.getParameterValue(REVIEW_MESSAGE, null, 0, 0, 'Review', [], 'manual', {
		$tool,
	} as never);
}

describe("example 08's review shows the summary of the token Confirm receives, as the docs say", () => {
	test('its message is the one docs/agent.md shows, and the README quotes how it shows the summary', () => {
		const block = /```\n([\s\S]*?)\n```/.exec(section(AGENT, '## What the person sees'))!;
		expect(`=${block[1]}`).toBe(REVIEW_MESSAGE);
		expect(REVIEW_MESSAGE).toContain(SUMMARY_SHOWN);
		expect(section(README, '## Let an AI agent pay out safely')).toContain(`\`${SUMMARY_SHOWN}\``);
	});
});

describe('Prepare, Confirm and who is paid, as the docs quote them', () => {
	const s = gatewayPerSuite(setUp, { beforeEach: freshStart });
	const LOOKUP_PATH = '/v1/api/disbursement/transactions';
	const confirmParameters = (options: INodeParameters = {}): INodeParameters => ({
		resource: 'payout',
		operation: 'confirm',
		approvalToken: '={{ $json.token }}',
		options,
	});
	const prepareWallet = async (ref: string, amount: number, credentialId?: string) =>
		await run(s, eWalletParameters({ operation: 'prepare' }), {
			items: [{ ref, amount, mobile: '09171234567' }],
			credentialId,
		});
	const confirm = async (token: string, credentialId?: string, options?: INodeParameters) =>
		(
			await run(s, confirmParameters(options), {
				items: [{ token }],
				credentialId,
			})
		).error?.message ?? '';

	test("Prepare's output is docs/agent.md's example; the e-wallet summary and recipient are the ones quoted", async () => {
		const block = /```json\n([\s\S]*?)\n\s*```/.exec(section(AGENT, '## Prepare, then Confirm'))!;
		const shown = JSON.parse(block[1]) as IDataObject;
		const bank = await run(s, bankTransferParameters({ operation: 'prepare' }), {
			items: [bankRow(String(shown.reference_no))],
		});
		const [out] = jsonOf(bank);
		expect(Object.keys(out)).toEqual(Object.keys(shown));
		// Everything but the expiry and the token's signed part, which change with each run.
		const fixed = (item: IDataObject) =>
			Object.fromEntries(
				Object.entries(item).filter(([key]) => !['expiresAt', 'approvalToken'].includes(key)),
			);
		expect(fixed(out)).toEqual(fixed(shown));
		expect(String(out.expiresAt)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		const before = (token: unknown) => String(token).slice(0, String(token).indexOf(' [pa4.'));
		expect(before(out.approvalToken)).toBe(out.summary);
		expect(before(shown.approvalToken)).toBe(out.summary);

		const wallet = jsonOf(await prepareWallet('AGENT-1', 500))[0];
		const quotedSummaries = [...codeSpans(AGENT), ...codeSpans(README)].filter((span) =>
			span.startsWith('Pay PHP 500.00'),
		);
		expect(quotedSummaries.length).toBeGreaterThanOrEqual(2);
		// Quoted alone, or as the reviewer reads the token: the summary, then its signed part.
		for (const quote of quotedSummaries)
			expect(quote.replace(/ \[pa4\.…\]$/, '')).toBe(wallet.summary);
		const recipient = codeSpans(AGENT).find((span) => span.startsWith('{ "kind": "mobile"'))!;
		expect(wallet.recipient).toEqual(JSON.parse(recipient));
		expect(s.gw.stats().requestsByPath['POST /v1/api/disbursement/transactions/process']).toBe(
			undefined,
		);
	});

	test("example 08's review of a token Prepare gave reads its summary alone: no part of the token a person cannot use", async () => {
		const [first] = jsonOf(await prepareWallet('AGENT-REVIEW-1', 500));
		const again = await run(
			s,
			eWalletParameters({ operation: 'prepare', options: { approvalValidMinutes: 30 } }),
			{ items: [{ ref: 'AGENT-REVIEW-1', amount: 500, mobile: '09171234567' }] },
		);
		const [second] = jsonOf(again);
		expect(second.summary).toBe(first.summary);
		const reviews = [first, second].map((prepared) => {
			const token = String(prepared.approvalToken);
			const review = reviewOf(token);
			expect(review).toBe(
				`The agent asks to send this payout. Pay only if it is the amount and the person you mean to pay:\n\n${String(prepared.summary)}`,
			);
			expect(String(review)).not.toContain('pa4.');
			expect(String(review)).not.toContain(token.slice(-9, -1));
			return review;
		});
		// The same payout prepared twice reads the same: either token pays that one payout, once (its reference).
		expect(reviews[0]).toBe(reviews[1]);
		expect(s.gw.stats().requestsByPath['POST /v1/api/disbursement/transactions/process']).toBe(
			undefined,
		);
	});

	test("example 08's review shows the whole summary even when a name in it imitates the token's signed part", async () => {
		const name = 'Juan [pa4.x] Dela Cruz';
		const prepared = await run(s, bankTransferParameters({ operation: 'prepare' }), {
			items: [bankRow('AGENT-REVIEW-2', { accountName: name })],
		});
		expect(prepared.error).toBeUndefined();
		const [out] = jsonOf(prepared);
		expect(String(out.summary)).toContain('[pa4.x]');
		const token = String(out.approvalToken);
		expect(reviewOf(token)).toBe(
			`The agent asks to send this payout. Pay only if it is the amount and the person you mean to pay:\n\n${String(out.summary)}`,
		);
	});

	/** Every message produced below; each quote of the docs must be one of them. */
	const produced: string[] = [];

	test('the refusals of Confirm, Prepare, Allowed Recipients and Channel Fields (JSON)', async () => {
		const token = String(jsonOf(await prepareWallet('AGENT-DOC-1', 500))[0].approvalToken);
		const other = jsonOf(await prepareWallet('AGENT-DOC-2', 700))[0];
		const signed = token.slice(token.lastIndexOf(' [pa4.'));
		const [, encoded, signature] = signed.slice(2, -1).split('.');
		const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as IDataObject;
		((payload.send as IDataObject).body as IDataObject).amount = 4500;
		const changed = `${token.slice(0, token.lastIndexOf(' [pa4.'))} [pa4.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}]`;

		produced.push(await confirm(signed.trim().slice(1, -1)));
		produced.push(await confirm(`${String(other.summary)}${signed}`));
		produced.push(await confirm(changed));
		produced.push(await confirm(token, undefined, { dryRun: true }));
		produced.push(await confirm(token.replace(' [pa4.', ' [pa2.')));
		produced.push(await confirm(token.replace(' [pa4.', ' [pa3.')));
		const now = Date.now;
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now() + 24 * 3600_000);
		try {
			produced.push(await confirm(token));
		} finally {
			clock.mockRestore();
		}

		// Where a token pays: the credential switched to Production on another host, or another username.
		const credentialId = addCredential(s, { signingSecret: SANDBOX_CREDENTIALS.signingSecret });
		const bound = String(
			jsonOf(await prepareWallet('AGENT-DOC-3', 500, credentialId))[0].approvalToken,
		);
		const data = s.store.data(DISBURSEMENT, credentialId);
		const elsewhere = {
			environment: 'production',
			baseUrl: s.gw.url.replace('127.0.0.1', 'localhost'),
		};
		for (const change of [elsewhere, { username: `${String(data.username)}-other` }]) {
			s.store.update(DISBURSEMENT, credentialId, { ...data, ...change });
			produced.push(await confirm(bound, credentialId));
		}

		const secretless = addCredential(s, {});
		produced.push((await prepareWallet('AGENT-DOC-4', 500, secretless)).error?.message ?? '');
		produced.push(await confirm(token, secretless));

		const allowing = (allowedRecipients: string) => ({ options: { allowedRecipients } });
		produced.push(
			(
				await run(s, eWalletParameters(allowing('0917*, juan@example.com')), {
					items: [{ ref: 'AGENT-DOC-5', amount: 100, mobile: '09171234567' }],
				})
			).error?.message ?? '',
		);
		produced.push(
			(
				await run(s, bankTransferParameters(allowing('BDO:001234567890')), {
					items: [bankRow('AGENT-DOC-6', { bank: 'BPI' })],
				})
			).error?.message ?? '',
		);
		produced.push(
			(
				await run(s, bankTransferParameters(allowing('001234567890')), {
					items: [bankRow('AGENT-DOC-6B')],
				})
			).error?.message ?? '',
		);
		produced.push(
			(
				await run(
					s,
					eWalletParameters({
						extraChannelFields: '{"receiver": {"account_number": "001234567890"}}',
					}),
					{ items: [{ ref: 'AGENT-DOC-7', amount: 100, mobile: '09171234567' }] },
				)
			).error?.message ?? '',
		);
		produced.push(
			(
				await run(
					s,
					eWalletParameters({
						runMode: 'pay',
						mappingMode: 'defineBelow',
						options: { dryRun: true },
					}),
					{ items: [{ ref: 'AGENT-DOC-8', amount: 100, mobile: '09171234567' }], typeVersion: 2 },
				)
			).error?.message ?? '',
		);
		for (const [i, channel] of ['INSTAPAY,PESONET', 'GCA\u017fH'].entries())
			produced.push(
				(
					await run(s, bankTransferParameters({ operation: 'prepare' }), {
						items: [bankRow(`AGENT-DOC-10-${i}`, { channel })],
					})
				).error?.message ?? '',
			);
		expect(produced.filter((message) => message === '')).toEqual([]);
		expect(s.gw.stats().requestsByPath['POST /v1/api/disbursement/transactions/process']).toBe(
			undefined,
		);
	});

	test('a fact the record does not state is unconfirmed, never a mismatch; one it states otherwise is a conflict', async () => {
		const paid = await run(s, eWalletParameters(), {
			items: [{ ref: 'AGENT-DOC-9', amount: 100, mobile: '09171234567' }],
		});
		expect(paid.error).toBeUndefined();
		const lookUpShows = (fields: IDataObject) => {
			const record = { ...(s.gw.getPayout('AGENT-DOC-9') as IDataObject), fields };
			s.gw.faults.add({
				method: 'GET',
				path: LOOKUP_PATH,
				mode: 'error-before',
				status: 200,
				body: { message: '', data: { transactions: [record] } },
				times: 1,
			});
		};
		lookUpShows({});
		const reconciled = await run(
			s,
			{ resource: 'payout', operation: 'reconcile', mappingMode: 'autoMapInputData' },
			{ items: [{ reference_no: 'AGENT-DOC-9', amount: 100, mobileNumber: '09171234567' }] },
		);
		const [row] = jsonOf(reconciled);
		const quoted = codeSpans(section(README, '## Reconcile: what was paid?'))
			.filter((span) => span.startsWith('[') && span.includes('mobile number'))
			.map((span) => JSON.parse(span) as string[]);
		expect(quoted).toHaveLength(1);
		expect(row.unconfirmed).toEqual(quoted[0]);
		expect(row.mismatches).toEqual([]);

		lookUpShows({ mobile_number: '09181234567' });
		const again = await run(s, eWalletParameters(), {
			items: [{ ref: 'AGENT-DOC-9', amount: 100, mobile: '09171234567' }],
		});
		produced.push(again.error?.message ?? '');
		expect(again.error?.message).toMatch(
			/^reference_no "AGENT-DOC-9" is already used for a different payout: the existing payout pays mobile number 09181234567/,
		);
		expect(s.gw.stats().creationsByReference['AGENT-DOC-9']).toBe(1);
	});

	test('a payout past Maximum Total per Day: the refusals of Create and Prepare docs/agent.md quotes', async () => {
		const ledger = await startDataTableApi();
		try {
			const stored = s.store.add(LEDGER_CREDENTIAL, {
				apiUrl: ledger.url,
				apiKey: ledger.apiKey,
				dataTableId: ledger.tableId,
			});
			const scope = `sandbox-disburser@${new URL(s.gw.url).host}`;
			const written = await fetch(`${ledger.url}/data-tables/${ledger.tableId}/rows`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-n8n-api-key': ledger.apiKey },
				body: JSON.stringify({ data: [{ day: today(), scope, centavos: 450000, state: 'paid' }] }),
			});
			expect(written.status).toBe(200);
			for (const operation of ['create', 'prepare']) {
				const refused = await run(
					s,
					{ ...cappedPayout({ maxTotalPerDay: '5000' }), operation },
					{
						items: [{ ref: `AGENT-DOC-DAY-${operation}`, amount: 1000, mobile: '09171234567' }],
						typeVersion: 2,
						moreCredentials: { [LEDGER_CREDENTIAL]: { id: stored.id, name: stored.name } },
					},
				);
				// The docs quote a day of their own: the message is the node's with today's date in it.
				produced.push(String(refused.error?.message).replace(today(), '2026-11-27'));
				expect(refused.error?.message).toMatch(/above the Maximum Total per Day of PHP 5,000.00/);
			}
		} finally {
			await ledger.close();
		}
	});

	test('every message the docs quote on approvals and who is paid is one the nodes gave above', () => {
		const about =
			/approval token|Approvals need|Allowed Recipients has|not in this node's Allowed|Options hold Dry Run|not a recipient field|this item asks for|is not a code|Maximum Total per Day/;
		const readme = [
			'## Check before paying',
			'## Let an AI agent pay out safely',
			'## Money safety',
			'## Troubleshooting',
		].flatMap((heading) => codeSpans(section(README, heading)));
		const quotes = [...codeSpans(AGENT), ...readme].filter((span) => about.test(span));
		expect(quotes.length).toBeGreaterThan(12);
		for (const quote of quotes)
			expect([quote, produced.some((message) => patternOf(quote).test(message))]).toEqual([
				quote,
				true,
			]);
		// And every sentence docs/agent.md quotes that says nothing was sent or prepared.
		for (const quote of codeSpans(AGENT).filter((span) => /nothing was/i.test(span)))
			expect([quote, about.test(quote)]).toEqual([quote, true]);
	});
});
