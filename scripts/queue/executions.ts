// Starting executions through the webhook process, waiting for them in n8n's database (through the
// main's REST API), and reading the sandbox's own records through its HTTP control API.
import { N8nRest, nodeOutputs } from '../n8n/rest';
import { sleep } from '../n8n/proc';

export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	startedAt: string;
	stoppedAt?: string;
}

export interface SandboxStats {
	tokenRequests: { collection: number; disbursement: number };
	requestsByPath: Record<string, number>;
	creationsByReference: Record<string, number>;
	attemptsByReference: Record<string, number>;
}

export interface DeliveredCallback {
	url: string;
	body: unknown;
	referenceNo: string;
	status: string;
	statusCode?: number;
	error?: string;
}

/** The sandbox's control API (/__sandbox/...): what the service itself recorded. */
export class SandboxControl {
	constructor(readonly url: string) {}

	private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const res = await fetch(`${this.url}/__sandbox/${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await res.json()) as { data: T; message?: string };
		if (!res.ok)
			throw new Error(`sandbox ${method} ${path} answered ${res.status}: ${json.message ?? ''}`);
		return json.data;
	}

	stats = () => this.call<SandboxStats>('GET', 'stats');
	setLatency = (ms: number) => this.call('POST', 'latency', { ms });
	expireTokens = () => this.call('POST', 'expire-tokens');
	settle = (referenceNo: string, status: 'completed' | 'cancelled') =>
		this.call('POST', 'settle', { reference_no: referenceNo, status });
	callbacks = async () =>
		(await this.call<{ callbacks: DeliveredCallback[] }>('GET', 'callbacks')).callbacks;
}

/** Posts rows to a payout workflow's production webhook; n8n answers once the execution is queued. */
export async function startRun(webhookUrl: string, rows: unknown[]): Promise<void> {
	const res = await fetch(webhookUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ rows }),
	});
	const text = await res.text();
	if (res.status !== 200)
		throw new Error(`${webhookUrl} answered ${res.status}: ${text.slice(0, 300)}`);
}

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/** Ids of every execution of a workflow so far. */
export async function executionIds(rest: N8nRest, workflowId: string): Promise<Set<string>> {
	const list = (await rest.executions(workflowId)) as ExecutionSummary[];
	return new Set(list.map((e) => String(e.id)));
}

/**
 * Waits until `count` executions of the workflow that are not in `known` have finished; resolves
 * with them, oldest first. Throws naming how many arrived when `timeoutMs` passes.
 */
export async function waitForNew(
	rest: N8nRest,
	workflowId: string,
	known: Set<string>,
	count: number,
	timeoutMs = 180000,
): Promise<ExecutionSummary[]> {
	const deadline = Date.now() + timeoutMs;
	let fresh: ExecutionSummary[] = [];
	for (;;) {
		const list = (await rest.executions(workflowId)) as ExecutionSummary[];
		fresh = list.filter((e) => !known.has(String(e.id)));
		if (fresh.length >= count && fresh.every((e) => FINISHED.has(e.status))) {
			return fresh.sort((a, b) => Number(a.id) - Number(b.id));
		}
		if (Date.now() > deadline) {
			throw new Error(
				`expected ${count} new executions of ${workflowId} to finish; found ${fresh.length} (${fresh.map((e) => e.status).join(', ')})`,
			);
		}
		await sleep(250);
	}
}

/** Counts new executions once no new one has appeared for `quietMs`. */
export async function settledCount(
	rest: N8nRest,
	workflowId: string,
	known: Set<string>,
	quietMs = 3000,
): Promise<ExecutionSummary[]> {
	let last = -1;
	let since = Date.now();
	const deadline = Date.now() + 60000;
	for (;;) {
		if (Date.now() > deadline)
			throw new Error(`executions of ${workflowId} did not settle in 60 s`);
		const list = ((await rest.executions(workflowId)) as ExecutionSummary[]).filter(
			(e) => !known.has(String(e.id)),
		);
		const done = list.every((e) => FINISHED.has(e.status));
		if (list.length !== last || !done) {
			last = list.length;
			since = Date.now();
		} else if (Date.now() - since >= quietMs) {
			return list;
		}
		await sleep(250);
	}
}

/** The JSON of a node's items in an execution: [output 0, output 1]. */
export async function nodeItems(
	rest: N8nRest,
	executionId: string,
	node: string,
): Promise<Array<Array<Record<string, unknown>>>> {
	const execution = await rest.execution(executionId);
	return nodeOutputs(execution.data.resultData.runData, node);
}

/** Seconds from `since` (epoch ms) to the last `stoppedAt`. */
export function elapsedUntilLastStop(since: number, executions: ExecutionSummary[]): number {
	const last = Math.max(...executions.map((e) => Date.parse(e.stoppedAt ?? e.startedAt)));
	return (last - since) / 1000;
}
