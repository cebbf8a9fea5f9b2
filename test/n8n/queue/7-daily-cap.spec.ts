// Maximum Total per Day across queue-mode workers (docs/agent.md, "A total per day"): 20 payouts of
// PHP 1,000, approved with Payout > Prepare, confirmed by 20 requests posted at the same moment to
// a production webhook whose Payout > Confirm has a maximum of PHP 5,000 a day. The webhook process
// queues each request's execution; two workers of concurrency 10 run them side by side, each
// keeping the day in the payout ledger (an n8n Data Table on the main, reached through n8n's public
// API). The service's own records must show at most PHP 5,000 paid, and the ledger must hold every
// payout made. Then the same with one worker killed (SIGKILL) after the first payout.
import { DEMO_CREDENTIALS } from '../../../scripts/n8n/credentials';
import { ledgerCredential, publicApi, setUpLedger, type Ledger } from '../../../scripts/n8n/ledger';
import { log } from '../../../scripts/n8n/log';
import { signalGroup, sleep } from '../../../scripts/n8n/proc';
import { isServed } from '../../../scripts/n8n/readiness';
import { STALE_RESERVATION_MS } from '../../../nodes/shared/runner/dailyCap';
import { dayIn } from '../../../nodes/shared/validation/days';
import { executionIds, type ExecutionSummary, type SandboxControl } from './executions';
import { expect, test, type Queue } from './fixtures';
import {
	DAILY_CAP,
	dailyCapConfirmWorkflow,
	dailyCapPrepareWorkflow,
	payoutWebhookUrl,
} from './workflows';

test.describe.configure({ mode: 'serial' });

const PAYOUTS = 20;
const AMOUNT = 1000;
const MAXIMUM = 5000;
const CENTAVOS = AMOUNT * 100;
/** Executions each worker runs at a time here: all 20 confirmations run at once on two workers. */
const CONCURRENCY = 10;
/**
 * How long a request may wait for its answer. The execution of a killed worker never finishes: n8n
 * finds its job stalled (its lock lasts 60 s, checked every 30 s) and fails it without a retry.
 */
const ANSWER_TIMEOUT_MS = 150_000;
const MAX_PAID = Math.floor(MAXIMUM / AMOUNT);
/** The states of rows that count against the day (dailyCap.ts). */
const COUNTED = ['paid', 'sending', 'reserved'];
/** When the run with a worker killed posted its confirmations: its reservations came after. */
let killedRunStarted = 0;

interface LedgerRow {
	id: number;
	day: string;
	scope: string;
	reference: string;
	centavos: number;
	state: string;
}

/** What one request was answered: the payout, the refusal, another error, or nothing. */
type Answer =
	| { kind: 'paid'; reference: string }
	| { kind: 'refused'; error: string }
	| { kind: 'other'; status: number; text: string };

interface RunResult {
	label: string;
	paid: string[];
	refused: number;
	unanswered: Answer[];
	/** References the service created a payout for, each once (its own records). */
	created: string[];
	ledger: LedgerRow[];
	seconds: number;
	byWorker: Record<string, number>;
}

let ledger: Ledger;
let confirmWorkflowId = '';
let prepareUrl = '';
let confirmUrl = '';
const results: RunResult[] = [];

const today = () => dayIn('Asia/Manila', new Date());

async function restCreate(rest: Queue['rest'], route: string, body: unknown): Promise<string> {
	return (await rest.expectOk<{ id: string }>('POST', route, body)).id;
}

/** Every row of the ledger table (a few dozen here: one page of 250). */
async function ledgerRows(): Promise<LedgerRow[]> {
	const answer = await publicApi(
		ledger,
		'GET',
		`/data-tables/${ledger.dataTableId}/rows?limit=250`,
	);
	expect(answer.status, `the ledger's rows: ${answer.text.slice(0, 300)}`).toBe(200);
	const { data, nextCursor } = answer.json as { data: LedgerRow[]; nextCursor: string | null };
	expect(nextCursor, 'every row of the ledger on one page').toBeNull();
	return data;
}

/** Removes today's rows: the next run starts its day at zero. */
async function clearToday(): Promise<number> {
	const filter = encodeURIComponent(
		JSON.stringify({
			type: 'and',
			filters: [{ columnName: 'day', condition: 'eq', value: today() }],
		}),
	);
	const answer = await publicApi(
		ledger,
		'DELETE',
		`/data-tables/${ledger.dataTableId}/rows/delete?filter=${filter}&returnData=true`,
	);
	expect(answer.status, `clearing today's rows: ${answer.text.slice(0, 300)}`).toBe(200);
	return (answer.json as unknown[]).length;
}

async function post(url: string, body: unknown, timeoutMs = 60_000): Promise<Response> {
	return await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
}

/** Approval tokens of `PAYOUTS` payouts of PHP 1,000 `<prefix>-01`..; nothing is sent. */
async function prepared(prefix: string): Promise<Array<{ reference: string; token: string }>> {
	const rows = Array.from({ length: PAYOUTS }, (_, i) => ({
		ref: `${prefix}-${String(i + 1).padStart(2, '0')}`,
		amount: AMOUNT,
		mobile: '09171234567',
	}));
	const res = await post(prepareUrl, { rows }, 120_000);
	const text = await res.text();
	expect(res.status, `Prepare answered: ${text.slice(0, 300)}`).toBe(200);
	const items = JSON.parse(text) as Array<{ reference_no?: string; approvalToken?: string }>;
	expect(items.map((i) => i.reference_no)).toEqual(rows.map((r) => r.ref));
	return items.map((i) => ({ reference: String(i.reference_no), token: String(i.approvalToken) }));
}

async function confirm(token: string): Promise<Answer> {
	try {
		const res = await post(confirmUrl, { token }, ANSWER_TIMEOUT_MS);
		const text = await res.text();
		let json: { reference_no?: string; replayed?: boolean; error?: string } = {};
		try {
			json = JSON.parse(text) as typeof json;
		} catch {
			// not JSON: counted as another answer below
		}
		if (
			res.status === 200 &&
			json.error === undefined &&
			json.replayed === false &&
			json.reference_no
		)
			return { kind: 'paid', reference: json.reference_no };
		if (res.status === 200 && /Maximum Total per Day/.test(String(json.error)))
			return { kind: 'refused', error: String(json.error) };
		return { kind: 'other', status: res.status, text: text.slice(0, 300) };
	} catch (error) {
		return { kind: 'other', status: 0, text: String(error) };
	}
}

/**
 * Posts every token at the same moment and waits for every answer; `during` is called with the
 * service's count of this run's payouts every 50 ms until then.
 */
async function confirmAll(
	{ rest, cluster }: Queue,
	sandbox: SandboxControl,
	label: string,
	prefix: string,
	during: (created: number) => void = () => {},
): Promise<RunResult> {
	const tokens = await prepared(prefix);
	const known = await executionIds(rest, confirmWorkflowId);
	const createdOf = async () =>
		Object.entries((await sandbox.stats()).creationsByReference).filter(([ref]) =>
			ref.startsWith(`${prefix}-`),
		);
	expect(await createdOf(), 'nothing of this run paid before it').toEqual([]);
	const started = Date.now();
	let done = false;
	const answering = Promise.all(tokens.map(({ token }) => confirm(token))).finally(
		() => (done = true),
	);
	while (!done) {
		await sleep(50);
		if (!done) during((await createdOf()).length);
	}
	const answers = await answering;
	const seconds = (Date.now() - started) / 1000;
	const created = await createdOf();
	expect(
		created.filter(([, count]) => count !== 1),
		'references the service created more than once',
	).toEqual([]);
	const executions = await finishedExecutions(rest, known, PAYOUTS - count(answers, 'other'));
	const workerOf = cluster.executionsByWorker();
	const byWorker: Record<string, number> = {};
	for (const e of executions) {
		const worker = workerOf.get(String(e.id)) ?? 'no worker';
		byWorker[worker] = (byWorker[worker] ?? 0) + 1;
	}
	const result: RunResult = {
		label,
		paid: answers.flatMap((a) => (a.kind === 'paid' ? [a.reference] : [])).sort(),
		refused: count(answers, 'refused'),
		unanswered: answers.filter((a) => a.kind === 'other'),
		created: created.map(([ref]) => ref).sort(),
		ledger: (await ledgerRows()).filter((row) => row.reference.startsWith(`${prefix}-`)),
		seconds,
		byWorker,
	};
	results.push(result);
	log(`${label}: ${JSON.stringify({ ...result, ledger: summary(result.ledger) })}`);
	return result;
}

/**
 * The new executions of the Confirm workflow once at least `least` have finished (those of a killed
 * worker may never finish).
 */
async function finishedExecutions(
	rest: Queue['rest'],
	known: Set<string>,
	least: number,
): Promise<ExecutionSummary[]> {
	let finished: ExecutionSummary[] = [];
	await expect(async () => {
		const list = (await rest.executions(confirmWorkflowId)) as ExecutionSummary[];
		finished = list.filter(
			(e) => !known.has(String(e.id)) && e.status !== 'running' && e.status !== 'new',
		);
		expect(finished.length, 'new executions finished').toBeGreaterThanOrEqual(least);
	}).toPass({ timeout: 60_000, intervals: [250] });
	return finished;
}

const count = (answers: Answer[], kind: Answer['kind']) =>
	answers.filter((a) => a.kind === kind).length;

const sum = (rows: LedgerRow[]) => rows.reduce((total, row) => total + row.centavos, 0);

function summary(rows: LedgerRow[]): Record<string, number> {
	const states: Record<string, number> = {};
	for (const row of rows) states[row.state] = (states[row.state] ?? 0) + 1;
	return { ...states, centavos: sum(rows) };
}

/** What holds after any run: never more than the maximum paid, and every payout in the ledger. */
function expectCapKept(run: RunResult): void {
	expect(run.created.length, 'payouts the service made').toBeGreaterThanOrEqual(1);
	expect(run.created.length, 'payouts the service made').toBeLessThanOrEqual(MAX_PAID);
	const counted = run.ledger.filter((row) => COUNTED.includes(row.state));
	expect(
		run.created.filter((ref) => !counted.some((row) => row.reference === ref)),
		'payouts the service made that the ledger does not count',
	).toEqual([]);
	expect(
		run.ledger.every((row) => row.day === today() && row.centavos === CENTAVOS),
		`every ledger row of today and of PHP ${AMOUNT}`,
	).toBe(true);
	expect(sum(counted), 'the ledger never holds more than the maximum').toBeLessThanOrEqual(
		MAXIMUM * 100,
	);
}

test.afterAll(() => {
	const lines = results.map(
		(r) =>
			`| ${r.label} | ${r.created.length} | ${r.refused} | ${r.unanswered.length} | ${sum(r.ledger)} (${JSON.stringify(summary(r.ledger))}) | ${r.created.length * CENTAVOS} | ${r.seconds.toFixed(1)} s | ${JSON.stringify(r.byWorker)} |`,
	);
	process.stdout.write(
		`\nMaximum Total per Day in queue mode (${PAYOUTS} x PHP ${AMOUNT}, maximum PHP ${MAXIMUM}):\n| run | paid | refused | no answer | ledger centavos | service centavos | time | executions by worker |\n|---|---|---|---|---|---|---|---|\n${lines.join('\n')}\n`,
	);
});

test('the payout ledger set up on the main, its credential and the Prepare and Confirm workflows published; two workers of concurrency 10', async ({
	queue,
}) => {
	test.setTimeout(8 * 60_000);
	const { cluster, rest, webhookBase } = queue;
	const main = cluster.processes.find((p) => p.role === 'main' && !p.hasExited());
	if (!main?.url) throw new Error('the main is not running');
	// The workers reach the ledger at the main's URL on 127.0.0.1.
	const setup = await setUpLedger(rest, main.url, cluster.main.userFolder);
	ledger = { apiUrl: setup.apiUrl, apiKey: setup.apiKey, dataTableId: setup.dataTableId };
	expect(ledger.apiUrl).toBe(`${main.url}/api/v1`);
	const { id: _id, ...credential } = ledgerCredential(ledger);
	const ledgerId = await restCreate(rest, '/credentials', credential);
	const disbursement = {
		id: DEMO_CREDENTIALS.disbursement.id,
		name: DEMO_CREDENTIALS.disbursement.name,
	};
	const prepareId = await restCreate(rest, '/workflows', dailyCapPrepareWorkflow(disbursement));
	confirmWorkflowId = await restCreate(
		rest,
		'/workflows',
		dailyCapConfirmWorkflow(disbursement, { id: ledgerId, name: credential.name }, String(MAXIMUM)),
	);
	for (const id of [prepareId, confirmWorkflowId])
		expect(await rest.publish(id, 2), `workflow ${id} published`).toEqual({ published: true });
	prepareUrl = payoutWebhookUrl(webhookBase, DAILY_CAP.prepare);
	confirmUrl = payoutWebhookUrl(webhookBase, DAILY_CAP.confirm);
	await expect(async () => {
		expect(await isServed(prepareUrl), prepareUrl).toBe(true);
		expect(await isServed(confirmUrl), confirmUrl).toBe(true);
	}).toPass({ timeout: 60_000 });

	for (const worker of cluster.workers()) await cluster.stopProcess(worker);
	await Promise.all([cluster.startWorker(CONCURRENCY), cluster.startWorker(CONCURRENCY)]);
	expect(cluster.workers().length, 'workers running').toBe(2);
	expect(await clearToday(), 'rows of today before the first run').toBe(0);
});

test(`${PAYOUTS} confirmations of PHP ${AMOUNT} at once on two workers against PHP ${MAXIMUM} a day: at most ${MAX_PAID} paid, every request answered, the ledger holds exactly what was paid`, async ({
	queue,
	sandbox,
}) => {
	test.setTimeout(8 * 60_000);
	const run = await confirmAll(queue, sandbox, 'two workers', 'DAYCAP-A');
	expect(run.unanswered, 'requests not answered with a payout or the refusal').toEqual([]);
	expect(run.paid.length + run.refused, 'requests answered').toBe(PAYOUTS);
	expect(run.paid, 'the payouts the answers name are the ones the service made').toEqual(
		run.created,
	);
	expectCapKept(run);
	expect(
		run.ledger.map((row) => row.reference).sort(),
		'the ledger holds a row for each payout and no other',
	).toEqual(run.created);
	expect(sum(run.ledger), 'ledger centavos = the service paid total in centavos').toBe(
		run.created.length * CENTAVOS,
	);
	expect(Object.keys(run.byWorker).sort(), 'the executions ran on both workers').toHaveLength(2);
});

test(`the same with a worker killed (SIGKILL) after the first payout: at most ${MAX_PAID} paid, every payout made in the ledger`, async ({
	queue,
	sandbox,
}) => {
	test.setTimeout(10 * 60_000);
	const cleared = await clearToday();
	log(`cleared ${cleared} rows of today before the second run`);
	const [victim] = queue.cluster.workers();
	let killedAt = -1;
	const run = await confirmAll(queue, sandbox, 'a worker killed', 'DAYCAP-K', (created) => {
		if (killedAt >= 0 || created < 1) return;
		killedAt = created;
		signalGroup(victim.pid, 'SIGKILL');
		log(`${victim.name} killed (SIGKILL) at ${created} payouts`);
	});
	// The confirmations were posted this long ago; every reservation of the run came after.
	killedRunStarted = Date.now() - run.seconds * 1000;
	expect(killedAt, 'payouts when the worker was killed').toBeGreaterThanOrEqual(1);
	expectCapKept(run);
	expect(
		run.paid.filter((ref) => !run.created.includes(ref)),
		'payouts answered that the service did not make',
	).toEqual([]);
	expect(
		run.unanswered.filter((a) => a.kind !== 'other' || ![0, 500].includes(a.status)),
		'answers other than a payout, the refusal, or the failure of a killed execution',
	).toEqual([]);
	// The killed worker may die before it logs an execution it had taken, so its count is not known;
	// the surviving worker's is, and every one of its executions must have been answered.
	const survivor = queue.cluster.workers().find((worker) => worker.name !== victim.name);
	const survived = survivor ? (run.byWorker[survivor.name] ?? 0) : 0;
	expect(survived, 'executions the surviving worker ran').toBeGreaterThanOrEqual(1);
	expect(
		PAYOUTS - run.unanswered.length,
		`requests answered with a payout or the refusal, at least the surviving worker's executions`,
	).toBeGreaterThanOrEqual(survived);
	expect(
		run.ledger.filter((row) => COUNTED.includes(row.state)).length,
		'ledger rows counted against the day, never fewer than payouts',
	).toBeGreaterThanOrEqual(run.created.length);
	test.info().annotations.push({
		type: 'worker killed',
		description: `at ${killedAt} payouts: ${run.created.length} paid, ${run.refused} refused, ${run.unanswered.length} without an answer (${run.unanswered.map((a) => (a.kind === 'other' ? a.status : '')).join(', ')}); ledger ${JSON.stringify(summary(run.ledger))}`,
	});
});

test(`the next run after the kill: the killed worker's unsent reservations removed once ${STALE_RESERVATION_MS / 60_000} minutes old, the ledger agreeing with the service, a payout within the room left paid`, async ({
	queue,
	sandbox,
}) => {
	test.setTimeout(8 * 60_000);
	expect(killedRunStarted, 'the run with a worker killed ran before').toBeGreaterThan(0);
	if (queue.cluster.workers().length < 2) await queue.cluster.startWorker(CONCURRENCY);
	const wait = killedRunStarted + STALE_RESERVATION_MS + 15_000 - Date.now();
	if (wait > 0) await sleep(wait);
	// One confirmation, the day's next payout: paid exactly when the killed run left room.
	const [next] = await prepared('DAYCAP-N');
	const answer = await confirm(next.token);
	const killedRows = (await ledgerRows()).filter((row) => row.reference.startsWith('DAYCAP-K-'));
	expect(
		killedRows.filter((row) => row.state === 'reserved'),
		'reservations the killed worker left unsent, still counted',
	).toEqual([]);
	const created = Object.keys((await sandbox.stats()).creationsByReference);
	const killedCreated = created.filter((ref) => ref.startsWith('DAYCAP-K-'));
	expect(
		killedCreated.filter((ref) => !killedRows.some((row) => row.reference === ref)),
		"the killed run's payouts the ledger no longer counts",
	).toEqual([]);
	expect(
		killedRows.filter((row) => row.state === 'paid' && !killedCreated.includes(row.reference)),
		'rows marked paid that the service never paid',
	).toEqual([]);
	const room = MAXIMUM * 100 - sum(killedRows);
	log(`the next run: room ${room / 100}, answered ${JSON.stringify(answer)}`);
	if (room >= CENTAVOS)
		expect(answer, 'the next payout, within the room left').toEqual({
			kind: 'paid',
			reference: next.reference,
		});
	else expect(answer.kind, 'the next payout, with no room left').toBe('refused');
	expect(created.includes(next.reference), 'the service paid the next payout').toBe(
		answer.kind === 'paid',
	);
});

test("a day of 600 rows in Postgres, the first 50 updated last, is read to the table's own total: a PHP 1,000 confirmation past it is refused", async () => {
	test.setTimeout(5 * 60_000);
	await clearToday();
	const scope = results.flatMap((run) => run.ledger)[0]?.scope;
	expect(scope, 'the scope of the payouts confirmed above').toBeTruthy();
	const rowsUrl = `/data-tables/${ledger.dataTableId}/rows`;
	const rows = Array.from({ length: 600 }, (_, i) => ({
		day: today(),
		scope: scope!,
		reference: `DAYCAP-ROW-${i + 1}`,
		centavos: 700,
		state: 'reserved',
	}));
	const inserted = await publicApi(ledger, 'POST', rowsUrl, { data: rows, returnType: 'id' });
	expect(inserted.status, inserted.text.slice(0, 300)).toBe(200);
	const firstId = (inserted.json as Array<{ id: number }>)[0].id;
	// Rows 51-600 marked paid first, rows 1-50 last: in Postgres an updated row moves behind.
	for (const filters of [
		[{ columnName: 'id', condition: 'gt', value: firstId + 49 }],
		[{ columnName: 'state', condition: 'eq', value: 'reserved' }],
	]) {
		const answer = await publicApi(ledger, 'PATCH', `${rowsUrl}/update`, {
			filter: {
				type: 'and',
				filters: [...filters, { columnName: 'scope', condition: 'eq', value: scope }],
			},
			data: { state: 'paid' },
		});
		expect(answer.status, answer.text.slice(0, 300)).toBe(200);
	}
	// The day holds PHP 4,200 (600 x PHP 7): a PHP 1,000 payout would bring it to PHP 5,200.
	const [first] = await prepared('DAYCAP-P');
	const answer = await confirm(first.token);
	expect(answer, 'the confirmation past the day read whole').toEqual({
		kind: 'refused',
		error: expect.stringMatching(
			/to PHP 5,200\.00, above the Maximum Total per Day of PHP 5,000\.00/,
		),
	});
	await clearToday();
});
