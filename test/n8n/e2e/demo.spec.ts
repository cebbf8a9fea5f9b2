// `npm start` as a user meets it, on the CI versions: started, stopped with Ctrl-C, started again
// (on the newest also killed and started again, and last stopped with Ctrl-C while n8n is still
// starting), with a login each time, an example workflow edited in between, and its port taken by
// another program on the first start. Each start is a fresh scripts/demo.ts process. The sheet
// example is paid before and after the first restart: the second time every row comes back
// `replayed: true` (the sandbox kept its payouts).
import fs from 'fs';
import path from 'path';
import type { IWorkflowBase } from 'n8n-workflow';
import { DEMO_OWNER } from '../../../scripts/n8n/demoSetup';
import { N8nInstance } from '../../../scripts/n8n/instance';
import {
	chatUrl,
	hasChatTrigger,
	hasTrigger,
	loadExamples,
	triggerWebhookUrl,
} from '../../../scripts/n8n/examples';
import { DEMO_MODEL_NAME } from '../../../scripts/n8n/demoModel';
import { LEDGER_CREDENTIAL, LEDGER_TABLE, supportsLedger } from '../../../scripts/n8n/ledger';
import { major, newestTarget } from '../../../scripts/n8n/targets';
import { chat, press, type Review } from '../agent/chat';
import { SandboxControl } from '../queue/executions';
import { isAlive, sleep } from '../../../scripts/n8n/proc';
import { SANDBOX_CREDENTIALS } from '../../../sandbox';
import { executeWorkflow } from '../cli';
import { EditorApi, nodeOutputs } from '../editorApi';
import { test, expect } from './fixtures';
import type { RunningDemo } from './demoRun';

const EDITED_WORKFLOW = 'pgwWalletReport';
const EDIT_NOTE = 'Changed by the user: send the report to finance@example.com';
const SHEET_WORKFLOW = 'pgwSheetPayouts';
const SHEET_PAID_ROWS = 3;

test.describe.configure({ mode: 'serial' });
test.skip(({ n8nTarget }) => !n8nTarget.ci, 'npm start is checked on the versions CI runs');

async function login(demo: RunningDemo, appDir: string): Promise<EditorApi> {
	const rest = new EditorApi(demo.url, appDir);
	await rest.login(DEMO_OWNER);
	return rest;
}

/**
 * Runs the sheet example in the demo's n8n (its user folder, encryption key and database, beside
 * the running `n8n start`) with `n8n execute`; resolves with each paid row's `replayed`.
 */
async function paySheet(instance: N8nInstance): Promise<boolean[]> {
	const result = await executeWorkflow(instance, SHEET_WORKFLOW);
	expect(
		result.code,
		`exit code of n8n execute --id=${SHEET_WORKFLOW}, see ${result.logFile}`,
	).toBe(0);
	const runData = result.run?.data.resultData.runData;
	const paid = nodeOutputs<{ replayed: boolean }>(runData, 'Payout accepted')[0] ?? [];
	expect(paid, 'rows paid by the sheet example').toHaveLength(SHEET_PAID_ROWS);
	return paid.map((row) => row.replayed);
}

/** The banner tells what a user needs: the sandbox's address, test credentials and Signing Secret, the trigger's URL. */
function expectBanner(demo: RunningDemo): void {
	const { collection, disbursement, signingSecret } = SANDBOX_CREDENTIALS;
	const banner = demo.output();
	const trigger = loadExamples({ n8nUrl: demo.url }).find((e) => hasTrigger(e.workflow));
	expect(trigger, 'an example with a trigger').toBeDefined();
	const shown: Array<[string, string | RegExp]> = [
		['Base URL', /Base URL +http:\/\/127\.0\.0\.1:\d+/],
		['collection login', `${collection.username}  /  ${collection.password}`],
		['disbursement login', `${disbursement.username}  /  ${disbursement.password}`],
		['Signing Secret', `Signing Secret  ${signingSecret}`],
		["trigger's production webhook URL", triggerWebhookUrl(trigger!.workflow, demo.url)],
	];
	for (const [what, value] of shown) expect(banner, `the banner shows the ${what}`).toMatch(value);
}

/**
 * The payout ledger (n8n 2.7 or later): the console says whether its table, key and credential were
 * made or kept, and the banner names them; on older n8n the console says why there is none.
 * Resolves with the table's id, or undefined.
 */
function expectLedger(demo: RunningDemo, n8nVersion: string, made: boolean): string | undefined {
	const output = demo.output();
	if (!supportsLedger(n8nVersion)) {
		expect(output, 'the console says the ledger needs a newer n8n').toContain(
			'Maximum Total per Day needs n8n 2.7 or later',
		);
		return undefined;
	}
	const how = made ? 'created' : 'kept';
	const line = new RegExp(
		`payout ledger: Data Table "${LEDGER_TABLE}" ${how} \\((\\w+)\\), API key ${how}, credential "${LEDGER_CREDENTIAL.name.replace(/[()]/g, '\\$&')}" ${made ? 'imported' : 'kept'}`,
	).exec(output);
	expect(line, `the console line of the payout ledger (${how}):\n${output}`).not.toBeNull();
	expect(output, 'the banner names the ledger table').toContain(
		`Payout ledger (Maximum Total per Day): Data Table "${LEDGER_TABLE}" (${line![1]})`,
	);
	return line![1];
}

let ledgerTable: string | undefined;

/** Ctrl-C (or SIGHUP: the terminal closed): resolves once the demo has exited; n8n must be gone with it. */
async function interrupt(demo: RunningDemo, signal: NodeJS.Signals = 'SIGINT'): Promise<void> {
	demo.child.kill(signal);
	await Promise.race([demo.exited, sleep(30000)]);
	await expect
		.poll(() => isAlive(demo.n8nPid), {
			timeout: 15_000,
			message: `n8n (pid ${demo.n8nPid}) stopped after ${signal}`,
		})
		.toBe(false);
}

test('npm start on a taken port names it, moves to the next one, shows the sandbox and the trigger URL, the demo login works, and the sheet example pays its rows', async ({
	run,
	runtime,
}) => {
	const demo = await run.start('start-1');
	expect(demo.output(), 'the message about the taken port').toContain(
		`port ${run.busyPort} is already in use by another program`,
	);
	expect(demo.output(), 'the console says which n8n runs').toContain(
		`using n8n ${run.n8nVersion} on Node.js`,
	);
	expect(demo.url, 'the editor is not on the taken port').not.toMatch(
		new RegExp(`:${run.busyPort}$`),
	);
	expectBanner(demo);
	ledgerTable = expectLedger(demo, run.n8nVersion, true);
	expect(await paySheet(new N8nInstance(run.folder, runtime)), 'replayed').toEqual(
		Array(SHEET_PAID_ROWS).fill(false),
	);
	const rest = await login(demo, runtime.appDir);
	const workflow = await rest.expectOk<IWorkflowBase>('GET', `/workflows/${EDITED_WORKFLOW}`);
	const nodes = workflow.nodes.map((node, i) => (i === 0 ? { ...node, notes: EDIT_NOTE } : node));
	await rest.expectOk('PATCH', `/workflows/${EDITED_WORKFLOW}`, {
		name: `${workflow.name} (mine)`,
		nodes,
		connections: workflow.connections,
		versionId: workflow.versionId,
	});
});

test('after Ctrl-C (which says what it stopped), npm start starts again, logs in, keeps the edited example, and the sheet example pays nobody twice (replayed: true)', async ({
	run,
	runtime,
}) => {
	const stopped = run.running();
	await interrupt(stopped);
	expect(stopped.output(), 'the line saying everything stopped').toContain(
		'Stopped: n8n and the sandbox gateway.',
	);
	run.blocker.close();
	const demo = await run.start('start-2');
	expect(demo.output(), 'the console says which examples were kept').toMatch(
		/example workflows kept as they are/,
	);
	expect(expectLedger(demo, run.n8nVersion, false), 'the same ledger table').toBe(ledgerTable);
	const rest = await login(demo, runtime.appDir);
	if (ledgerTable) {
		const credentials = await rest.expectOk<Array<{ id: string; type: string }>>(
			'GET',
			'/credentials',
		);
		expect(
			credentials.filter((c) => c.type === LEDGER_CREDENTIAL.type).map((c) => c.id),
			'the ledger credential in n8n, once',
		).toEqual([LEDGER_CREDENTIAL.id]);
	}
	const workflow = await rest.expectOk<IWorkflowBase>('GET', `/workflows/${EDITED_WORKFLOW}`);
	expect(workflow.name, 'the edited name').toMatch(/\(mine\)$/);
	expect(workflow.nodes[0].notes, 'the edited node note').toBe(EDIT_NOTE);
	expect(await paySheet(new N8nInstance(run.folder, runtime)), 'replayed').toEqual(
		Array(SHEET_PAID_ROWS).fill(true),
	);
});

/** One chat turn with the demo's example 08 (a new execution); resolves with the reply, after the review when `review` decides one. */
async function say(
	demo: RunningDemo,
	session: string,
	text: string,
	review?: (review: Review) => string,
): Promise<{ reply: string; reviewText?: string }> {
	const example = loadExamples({ n8nUrl: demo.url }).find((e) => hasChatTrigger(e.workflow));
	const webhookId = chatUrl(example!.workflow, demo.url).split('/').slice(-2)[0];
	const turn = await chat(demo.url, webhookId, session, text);
	try {
		let reviewText: string | undefined;
		if (review) {
			const shown = await turn.review();
			reviewText = shown.text;
			expect(await press(review(shown), demo.url), 'the review button').toBe(200);
		}
		const reply = await turn.message();
		await turn.finished;
		return { reply, reviewText };
	} finally {
		turn.close();
	}
}

test("example 08 in the demo: the demo model prepares a payout, the person's review approves it (paid once) or denies it (nothing paid)", async ({
	run,
	n8nTarget,
}) => {
	test.skip(major(n8nTarget.n8n) < 2, "n8n 1.x has no human review for an agent's tools");
	const demo = run.running();
	expect(demo.output(), 'the banner names the chat and the demo model').toContain(DEMO_MODEL_NAME);
	const sandbox = new SandboxControl(
		/Base URL +(http:\/\/127\.0\.0\.1:\d+)/.exec(demo.output())![1],
	);
	for (const [session, approve] of [
		['demo-approve', true],
		['demo-deny', false],
	] as const) {
		const prepared = await say(demo, session, 'pay 500 to GCash 09171234567');
		expect(prepared.reply, 'the summary the model repeats').toMatch(
			/^Pay PHP 500\.00 to e-wallet mobile number 09171234567 on GCASH, reference (DEMO-\w+) \(Sandbox\)/,
		);
		const reference = /reference (DEMO-\w+)/.exec(prepared.reply)![1];
		const confirmed = await say(demo, session, 'yes', (review) =>
			approve ? review.approve : review.deny,
		);
		expect(confirmed.reviewText, 'the review shows the payout in full, then the day').toMatch(
			new RegExp(
				`reference ${reference} \\(Sandbox\\)\\. Today \\(\\d{4}-\\d\\d-\\d\\d, Asia/Manila\\) so far PHP [\\d,.]+ of PHP 1,500\\.00; after this payout PHP [\\d,.]+, (PHP [\\d,.]+|nothing) left`,
			),
		);
		expect(confirmed.reviewText, 'the review shows no signed part').not.toContain('pa4.');
		const created = (await sandbox.stats()).creationsByReference;
		if (approve) {
			expect(confirmed.reply).toMatch(new RegExp(`^Sent: payout ${reference} is`));
			expect(created, 'the approved payout').toHaveProperty(reference, 1);
		} else {
			expect(confirmed.reply).toBe('Not sent: the payout was not approved.');
			expect(created, 'the denied payout').not.toHaveProperty(reference);
		}
	}
});

test.describe('on the newest version', () => {
	test.skip(
		({ n8nTarget }) => n8nTarget.n8n !== newestTarget().n8n,
		'killing npm start and stopping it while it starts are checked on the newest n8n only',
	);

	test('after the demo was killed, npm start stops the n8n it left, starts again and logs in; closing the terminal (SIGHUP) stops it and its n8n', async ({
		run,
		runtime,
	}) => {
		const killed = run.running();
		killed.child.kill('SIGKILL');
		await killed.exited;
		expect(isAlive(killed.n8nPid), 'n8n outlived the killed demo (something to clean up)').toBe(
			true,
		);
		const demo = await run.start('start-3');
		expect(demo.output(), 'the message about the leftover n8n').toContain(
			`stopping the n8n an earlier run left running (pid ${killed.n8nPid})`,
		);
		expect(isAlive(killed.n8nPid), `the leftover n8n (pid ${killed.n8nPid}) still runs`).toBe(
			false,
		);
		await login(demo, runtime.appDir);
		await interrupt(demo, 'SIGHUP');
		run.demo = undefined;
	});

	test('Ctrl-C while npm start is still starting n8n stops that n8n too', async ({ run }) => {
		const starting = run.spawn('start-4');
		const pidFile = path.join(run.folder, 'n8n.pid');
		const n8nPid = () => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0);
		await expect
			.poll(() => starting.gone() || (n8nPid() > 0 && isAlive(n8nPid())), {
				timeout: 120_000,
				message: `npm start started n8n (its PID in ${pidFile}), see ${starting.logFile}`,
			})
			.toBe(true);
		expect(starting.gone(), `npm start exited early, see ${starting.logFile}`).toBe(false);
		const pid = n8nPid();
		try {
			expect(
				starting.output(),
				'n8n not yet ready before the Ctrl-C (something still starting)',
			).not.toContain('Press Ctrl-C to stop.');
			starting.child.kill('SIGINT');
			await Promise.race([starting.exited, sleep(30000)]);
			expect(starting.gone(), 'npm start exited on Ctrl-C').toBe(true);
			await expect
				.poll(() => isAlive(pid), {
					timeout: 15_000,
					message: `n8n (pid ${pid}) stopped after Ctrl-C during the start`,
				})
				.toBe(false);
		} finally {
			if (isAlive(pid)) process.kill(-pid, 'SIGKILL');
		}
	});
});
