// `npm run e2e`: the packed package in real n8n, once per tested version (the newest 2.x and the
// oldest supported, each on its own Node.js; `npm run e2e -- 2.8.4` picks others, see
// scripts/n8n/targets.ts). Per version, in a fresh user folder: the example workflows run headless
// against a sandbox gateway, then the trigger workflow is activated in a running n8n receiving the
// sandbox's signed callbacks. On the CI versions `npm start` is then started, stopped and restarted
// (the sheet example paid before and after); on the newest also killed, and stopped while starting.
// Ends with a table per version and `e2e: N passed, M failed`.
// KEEP_E2E_FOLDER=1 keeps the n8n user folders (logs, database) even when everything passed.
import fs from 'fs';
import os from 'os';
import path from 'path';
import type { IDataObject } from 'n8n-workflow';
import { ensureN8n, type N8nRuntime } from './n8n/app';
import { installPackage } from './n8n/pack';
import { N8nInstance, type N8nServer } from './n8n/instance';
import { N8nRest, nodeOutputs, type Execution, type Owner } from './n8n/rest';
import { loadSandbox } from './n8n/sandbox';
import { sandboxCredentials, type ImportedCredential } from './n8n/credentials';
import { loadExamples, triggerWebhookUrl } from './n8n/examples';
import { freePort, sleep, stopOnInterrupt } from './n8n/proc';
import { createChecks, assert, assertEqual, waitFor, type Check } from './n8n/check';
import { triggerChecks, type TriggerItem } from './n8n/triggerChecks';
import { log, seconds } from './n8n/log';
import { PACKAGE_NAME } from './n8n/paths';
import { selectTargets, newestTarget, type Target } from './n8n/targets';
import { demoRestartChecks } from './n8n/demoChecks';
import { columnChecks } from './n8n/columnChecks';
import { reconcileChecks, RECONCILE_WORKFLOW } from './n8n/reconcileChecks';

const OWNER: Owner = {
	email: 'e2e@example.com',
	firstName: 'End',
	lastName: 'ToEnd',
	password: 'E2e-Password-1',
};
const WF = {
	payouts: 'pgwSheetPayouts',
	paymentLink: 'pgwOrderPayLink',
	callbacks: 'pgwCallbacksPaid',
	report: 'pgwWalletReport',
	checkThenPay: 'pgwCheckThenPay',
};
const SHEET_PAYOUTS = ['BONUS-2026-03-001', 'BONUS-2026-03-002', 'BONUS-2026-03-003'];
const VALID_PAYOUTS = ['PAYROLL-2026-02-001', 'PAYROLL-2026-02-002', 'PAYROLL-2026-02-003'];
const INVALID_PAYOUTS = ['PAYROLL-2026-02-004', 'PAYROLL-2026-02-005'];
const ORDER = 'ORDER-10023';

/** The fields of the items these checks read, as the example workflows output them. */
interface PayoutItem {
	payout_id: string;
	reference_no: string;
	status: string;
	replayed: boolean;
	finalStatus?: boolean;
}
interface RowToFix {
	payout_id: string;
	problem: string;
}
interface DryRunItem {
	rows: number;
	wouldFail: number;
	totalAmount: number;
	overMaximumTotal: boolean;
}
interface PaymentLinkItem {
	order_id: string;
	pay_here: string;
	status: string;
	amount_due: number;
}
interface PaidInvoiceItem {
	invoice_no: string;
	invoice_status: string;
}

/** The checks on one n8n version; resolves with its user folder. */
async function runLeg(target: Target, check: Check): Promise<string | undefined> {
	let installed: N8nRuntime | undefined;
	await check(`n8n ${target.n8n} is installed on Node.js ${target.node}`, async () => {
		installed = await ensureN8n(target);
	});
	if (!installed) return undefined;
	const runtime = installed;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `pgw-e2e-${target.n8n}-`));
	log(`n8n ${target.n8n} on Node.js ${runtime.node.version}, user folder: ${userFolder}`);
	const instance = new N8nInstance(userFolder, runtime);
	await installPackage(userFolder);

	const { startSandboxGateway, SANDBOX_CREDENTIALS } = loadSandbox();
	const sandbox = await startSandboxGateway({ port: 0 });
	// A port away from the usual ones, so that other n8n instances on this machine rarely meet it.
	const port = await freePort(20000 + Math.floor(Math.random() * 20000));
	const n8nUrl = `http://127.0.0.1:${port}`;
	const examples = Object.fromEntries(
		loadExamples({ n8nUrl }).map((e) => [e.workflow.id, e.workflow]),
	);
	const webhookUrl = triggerWebhookUrl(examples[WF.callbacks], n8nUrl);
	let server: N8nServer | undefined;
	let rest: N8nRest | undefined;
	const running = (): N8nRest => {
		assert(rest, 'n8n is not running');
		return rest;
	};

	/** Runs an example with `n8n execute`; returns (node name, output index) -> item json list. */
	async function execute(id: string) {
		const result = await instance.execute(id);
		assert(
			result.code === 0 && result.run,
			`n8n execute --id=${id} failed (exit ${result.code}), see ${result.logFile}`,
		);
		const runData = result.run.data.resultData.runData;
		return <T = IDataObject>(node: string, output = 0): T[] =>
			nodeOutputs<T>(runData, node)[output] ?? [];
	}

	/** Waits until the callback workflow has `count` executions; returns them parsed, oldest first. */
	async function callbackExecutions(count: number): Promise<Execution[]> {
		const list = await waitFor(
			async () => {
				const found = await running().executions(WF.callbacks);
				return (
					found.length >= count &&
					found.every((e) => e.status !== 'running' && e.status !== 'new') &&
					found
				);
			},
			{ message: `expected ${count} executions of the callback workflow` },
		);
		const parsed = await Promise.all(list.map((e) => running().execution(e.id)));
		return parsed.sort((a, b) => Number(a.id) - Number(b.id));
	}

	function triggerItem(execution: Execution): TriggerItem | undefined {
		return nodeOutputs<TriggerItem>(
			execution.data.resultData.runData,
			'Payment Gateway Trigger',
		)[0]?.[0];
	}

	try {
		await check(`the packed package loads as ${PACKAGE_NAME}.*`, async () => {
			const names = (await instance.exportNodeTypes()).map((t) => t.name);
			for (const node of ['paymentCollection', 'disbursement', 'paymentGatewayTrigger']) {
				assert(
					names.includes(`${PACKAGE_NAME}.${node}`),
					`${PACKAGE_NAME}.${node} is not among n8n's node types`,
				);
			}
		});

		await check('the sandbox credentials and the example workflows import', async () => {
			await instance.importCredentials(sandboxCredentials(sandbox.url, SANDBOX_CREDENTIALS));
			await instance.importWorkflows(Object.values(examples));
		});

		await check(
			'spreadsheet rows -> payouts: valid rows paid, invalid rows on the error output',
			async () => {
				const out = await execute(WF.payouts);
				assertEqual(
					out<PayoutItem>('Payout accepted').map((p) => p.payout_id),
					VALID_PAYOUTS,
					'payouts accepted',
				);
				assert(
					out<PayoutItem>('Payout accepted').every(
						(p) => p.status === 'pending' && p.replayed === false,
					),
					'new payouts are pending',
				);
				const toFix = out<RowToFix>('Rows to fix');
				assertEqual(
					toFix.map((r) => r.payout_id),
					INVALID_PAYOUTS,
					'rows on the error output',
				);
				assert(
					/Account Number/i.test(toFix[0].problem),
					`row 4 names the missing field: ${toFix[0].problem}`,
				);
				assert(/amount/i.test(toFix[1].problem), `row 5 names the bad amount: ${toFix[1].problem}`);
				const created = sandbox.stats().creationsByReference;
				for (const ref of VALID_PAYOUTS)
					assertEqual(created[ref], 1, `payouts created in the sandbox for ${ref}`);
				for (const ref of INVALID_PAYOUTS)
					assertEqual(created[ref], undefined, `sandbox requests for ${ref}`);
				const payout = sandbox.getPayout(VALID_PAYOUTS[0]) as
					| { callback_webhook_url?: string }
					| undefined;
				assertEqual(payout?.callback_webhook_url, webhookUrl, 'callback_webhook_url sent');
			},
		);

		await check('running the payout workflow again pays nobody twice', async () => {
			const out = await execute(WF.payouts);
			assert(
				out<PayoutItem>('Payout accepted').every((p) => p.replayed === true),
				'the second run returns the existing payouts',
			);
			for (const ref of VALID_PAYOUTS)
				assertEqual(sandbox.stats().creationsByReference[ref], 1, `creations of ${ref}`);
		});

		await check('the token fetched by the first n8n process is reused by the second', async () => {
			// Two `n8n execute` runs above, each its own process: n8n stored the token in the credential.
			assertEqual(sandbox.stats().tokenRequests.disbursement, 1, 'disbursement token requests');
		});

		await check(
			'check a payout sheet, then pay it: a dry run pays nothing, then every row is paid and its final status read',
			async () => {
				// The sandbox settles these payouts a moment after they are created (no callback URL is sent).
				for (const ref of SHEET_PAYOUTS) sandbox.scriptOutcome(ref, 'completed', 1000);
				const out = await execute(WF.checkThenPay);
				const checked = out<DryRunItem>('Check the sheet');
				assertEqual(checked.length, SHEET_PAYOUTS.length + 1, 'dry run items (rows and summary)');
				const summary = checked[checked.length - 1];
				assertEqual(
					[summary.rows, summary.wouldFail, summary.totalAmount, summary.overMaximumTotal],
					[3, 0, 7500.5, false],
					'dry run summary',
				);
				assertEqual(
					out<PayoutItem>('Pay the sheet').map((p) => p.reference_no),
					SHEET_PAYOUTS,
					'payouts sent after the check',
				);
				assertEqual(
					out<PayoutItem>('Wait for final status').map((p) => [
						p.reference_no,
						p.status,
						p.finalStatus,
					]),
					SHEET_PAYOUTS.map((ref) => [ref, 'completed', true]),
					'final statuses',
				);
				for (const ref of SHEET_PAYOUTS)
					assertEqual(sandbox.stats().creationsByReference[ref], 1, `creations of ${ref}`);
			},
		);

		await reconcileChecks({
			check,
			execute,
			importWorkflows: async (workflows) => await instance.importWorkflows(workflows),
			reconcileExample: examples[RECONCILE_WORKFLOW],
			sandbox,
		});

		await columnChecks({ check, execute, sandbox });

		await check('new order -> payment link from the sandbox', async () => {
			const out = await execute(WF.paymentLink);
			const [link] = out<PaymentLinkItem>('Payment link for the customer');
			assert(link, 'no payment link item');
			assertEqual(link.order_id, ORDER, 'order_id');
			assertEqual(link.pay_here, `${sandbox.url}/pay/${ORDER}`, 'web_payment_url');
			assertEqual(link.status, 'pending', 'status');
			assert(link.amount_due >= 1499, `amount_due ${link.amount_due}`);
			assertEqual(sandbox.stats().creationsByReference[ORDER], 1, 'transactions created');
		});

		await check('daily wallet report: transactions summarised by status', async () => {
			const out = await execute(WF.report);
			const transactions = out('Get wallet transactions');
			const report = out<{ transactions: number }>('Send the report');
			assert(transactions.length > 0, 'no wallet transactions');
			assert(report.length > 0, 'no report rows');
			const counted = report.reduce((n, row) => n + row.transactions, 0);
			assertEqual(counted, transactions.length, 'transactions counted in the report');
		});

		await check(
			'the callback workflow is activated and its webhook live under `n8n start`',
			async () => {
				await instance.activateWorkflow(WF.callbacks);
				server = await instance.start({ port, webhooks: [webhookUrl] });
				rest = new N8nRest(server.url, runtime.appDir);
				await rest.setupOwnerOrLogin(OWNER);
				const workflow = await rest.expectOk<{ active?: boolean; activeVersionId?: string | null }>(
					'GET',
					`/workflows/${WF.callbacks}`,
				);
				assert(
					workflow.active === true || Boolean(workflow.activeVersionId),
					'workflow is not active',
				);
			},
		);

		await check(
			"n8n's credential test: both sandbox credentials pass, a wrong password is named",
			async () => {
				assert(rest, 'n8n is not running');
				const test = async (credential: ImportedCredential) =>
					await running().expectOk<{ status: string; message: string }>(
						'POST',
						'/credentials/test',
						{ credentials: credential },
					);
				for (const credential of sandboxCredentials(sandbox.url, SANDBOX_CREDENTIALS)) {
					const result = await test(credential);
					assertEqual(result.status, 'OK', `test of ${credential.type}: ${result.message}`);
					const refused = await test({
						...credential,
						data: { ...credential.data, password: 'not-the-password' },
					});
					assertEqual(refused.status, 'Error', `test of ${credential.type} with a wrong password`);
					assert(
						/refused: check Username and Password/.test(refused.message),
						`message names the fix: ${refused.message}`,
					);
				}
			},
		);

		await check(
			'completed payment callback -> verified execution -> invoice marked paid',
			async () => {
				assert(rest, 'n8n is not running');
				await sandbox.settle(ORDER, 'completed');
				const [execution] = await callbackExecutions(1);
				assertEqual(execution.status, 'success', 'execution status');
				const item = triggerItem(execution);
				assert(item, 'the trigger emitted no item');
				assertEqual(item.interface, 'collection', 'interface');
				assertEqual(item.reference_no, ORDER, 'reference_no');
				assertEqual(item.status, 'completed', 'status');
				assertEqual(item.verified.signature, true, 'verified.signature');
				// Example 03 uses trigger version 2, which confirms with the service by default.
				assertEqual(item.statusConfirmed, true, 'statusConfirmed');
				const [paid] =
					nodeOutputs<PaidInvoiceItem>(execution.data.resultData.runData, 'Mark invoice paid')[0] ??
					[];
				assert(paid, 'Mark invoice paid did not run');
				assertEqual(paid.invoice_no, ORDER, 'invoice_no');
				assertEqual(paid.invoice_status, 'paid', 'invoice_status');
			},
		);

		await check(
			'payout callbacks (completed and cancelled) arrive verified and are not marked paid',
			async () => {
				assert(rest, 'n8n is not running');
				await sandbox.settle(VALID_PAYOUTS[0], 'completed');
				await sandbox.settle(VALID_PAYOUTS[1], 'completed');
				await sandbox.settle(VALID_PAYOUTS[2], 'cancelled');
				const executions = (await callbackExecutions(4)).slice(1);
				const items = executions.map(triggerItem).filter((i): i is TriggerItem => i !== undefined);
				assertEqual(items.length, executions.length, 'trigger items');
				items.sort((a, b) => a.reference_no.localeCompare(b.reference_no));
				assertEqual(
					items.map((i) => [i.interface, i.reference_no, i.status, i.verified.signature]),
					[
						['disbursement', VALID_PAYOUTS[0], 'completed', true],
						['disbursement', VALID_PAYOUTS[1], 'completed', true],
						['disbursement', VALID_PAYOUTS[2], 'cancelled', true],
					],
					'normalised trigger output',
				);
				for (const execution of executions) {
					const runData = execution.data.resultData.runData;
					assert(
						!nodeOutputs(runData, 'Mark invoice paid')[0]?.length,
						'a payout was marked as a paid invoice',
					);
					assertEqual(
						nodeOutputs(runData, 'Payouts and cancelled payments')[0]?.length,
						1,
						'other branch items',
					);
				}
				const answered = sandbox
					.callbacks()
					.filter((c) => c.url === webhookUrl)
					.map((c) => c.statusCode);
				assert(
					answered.length >= 4 && answered.every((code) => code === 200),
					`n8n answered the sandbox ${answered}`,
				);
			},
		);

		/** Posts a callback body to the callback workflow; asserts the answer and that no execution started. */
		async function postStartingNothing(
			body: unknown,
			expectedStatus: number,
			what: string,
		): Promise<void> {
			assert(rest, 'n8n is not running');
			const before = (await rest.executions(WF.callbacks)).length;
			const res = await fetch(webhookUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			assertEqual(res.status, expectedStatus, `HTTP status of ${what}`);
			await sleep(1500);
			assertEqual((await rest.executions(WF.callbacks)).length, before, `executions after ${what}`);
		}

		await check('a forged callback (bad signature) gets 401 and starts no execution', async () => {
			const forged = {
				data: {
					reference_no: 'INV-FORGED-1',
					amount: 5000,
					status: 'completed',
					signature: 'ab'.repeat(32),
				},
			};
			await postStartingNothing(forged, 401, 'a forged callback');
		});

		await check(
			'a genuine cancelled callback replayed as "completed" gets 401 (confirmed with the service)',
			async () => {
				const delivered = sandbox
					.callbacks()
					.find((c) => c.referenceNo === VALID_PAYOUTS[2] && c.statusCode === 200);
				assert(delivered, 'no delivered cancelled callback to replay');
				const replayed = structuredClone(delivered.body) as {
					data: { status: string; transaction?: { status?: string } };
				};
				replayed.data.status = 'completed';
				if (replayed.data.transaction) replayed.data.transaction.status = 'completed';
				await postStartingNothing(replayed, 401, 'a replayed callback with a forged status');
			},
		);

		await check('a repeated delivery of the same callback starts no second execution', async () => {
			const delivered = sandbox
				.callbacks()
				.find((c) => c.referenceNo === ORDER && c.statusCode === 200);
			assert(delivered, 'no delivered callback to replay');
			await postStartingNothing(delivered.body, 200, 'a repeated callback');
		});

		server = await triggerChecks({
			instance,
			server,
			port,
			owner: OWNER,
			sandboxUrl: sandbox.url,
			SANDBOX_CREDENTIALS,
			check,
		});
	} finally {
		if (server) await server.stop();
		await sandbox.close();
	}

	// Every CI version: the demo restarted with Ctrl-C keeps its payouts; the newest also: killed,
	// and stopped while starting.
	if (target.ci) await demoRestartChecks(check, target, { restartOnly: target !== newestTarget() });
	return userFolder;
}

// Ctrl-C stops the n8n processes this started, not only this script.
stopOnInterrupt();

async function main() {
	const started = Date.now();
	const { check, summary, tally } = createChecks('e2e');
	const versions = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
	const legs: Array<{
		target: Target;
		userFolder: string | undefined;
		passed: number;
		failed: number;
		time: string;
	}> = [];
	for (const target of selectTargets(versions)) {
		const legStarted = Date.now();
		const before = tally();
		const userFolder = await runLeg(target, (name, fn) => check(`[n8n ${target.n8n}] ${name}`, fn));
		const after = tally();
		legs.push({
			target,
			userFolder,
			passed: after.passed - before.passed,
			failed: after.failed - before.failed,
			time: seconds(legStarted),
		});
	}

	process.stdout.write('\n| n8n | Node.js | passed | failed | time |\n|---|---|---|---|---|\n');
	for (const leg of legs) {
		process.stdout.write(
			`| ${leg.target.n8n} | ${leg.target.node} | ${leg.passed} | ${leg.failed} | ${leg.time} |\n`,
		);
	}
	const failed = summary();
	log(`e2e finished in ${seconds(started)}`);
	for (const { userFolder, failed: legFailed } of legs) {
		if (!userFolder) continue;
		if (legFailed || process.env.KEEP_E2E_FOLDER)
			log(`n8n user folder kept for inspection: ${userFolder} (logs in logs/)`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
	}
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error instanceof Error ? error.stack : error);
	process.stdout.write('\ne2e: 0 passed, 1 failed\n');
	process.exit(1);
});
