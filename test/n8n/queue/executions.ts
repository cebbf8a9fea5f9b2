// Starting executions through the webhook process, waiting for them in n8n's database (through the
// main's REST API), and reading the sandbox's own records through its HTTP control API.
import { expect } from '@playwright/test';
import { EditorApi, nodeOutputs, type ExecutionSummary as Listed } from '../editorApi';
import type { QueueCluster } from './cluster';

export interface ExecutionSummary extends Listed {
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
export async function executionIds(rest: EditorApi, workflowId: string): Promise<Set<string>> {
	return new Set((await rest.executions(workflowId)).map((e) => String(e.id)));
}

/** The executions of a workflow that are not in `known`. */
async function newExecutions(
	rest: EditorApi,
	workflowId: string,
	known: Set<string>,
): Promise<ExecutionSummary[]> {
	const list = (await rest.executions(workflowId)) as ExecutionSummary[];
	return list.filter((e) => !known.has(String(e.id)));
}

/**
 * Waits until `count` executions of the workflow that are not in `known` have finished; resolves
 * with them, oldest first. Fails naming how many arrived, and their statuses, after `timeoutMs`.
 */
export async function waitForNew(
	rest: EditorApi,
	workflowId: string,
	known: Set<string>,
	count: number,
	timeoutMs = 180000,
): Promise<ExecutionSummary[]> {
	let fresh: ExecutionSummary[] = [];
	await expect(async () => {
		fresh = await newExecutions(rest, workflowId, known);
		const statuses = fresh.map((e) => e.status);
		expect(
			fresh.length >= count && statuses.every((status) => FINISHED.has(status)),
			`${count} new executions of ${workflowId} finished; found ${fresh.length} (${statuses.join(', ')})`,
		).toBe(true);
	}).toPass({ timeout: timeoutMs, intervals: [250] });
	return fresh.sort((a, b) => Number(a.id) - Number(b.id));
}

/** The new executions, once all have finished and no new one has appeared for `quietMs`. */
export async function settledCount(
	rest: EditorApi,
	workflowId: string,
	known: Set<string>,
	quietMs = 3000,
): Promise<ExecutionSummary[]> {
	let list: ExecutionSummary[] = [];
	let since = Date.now();
	await expect(async () => {
		const seen = list.length;
		list = await newExecutions(rest, workflowId, known);
		if (list.length !== seen || !list.every((e) => FINISHED.has(e.status))) since = Date.now();
		expect(
			Date.now() - since,
			`ms since the last change in the ${list.length} new executions of ${workflowId}`,
		).toBeGreaterThanOrEqual(quietMs);
	}).toPass({ timeout: 60000, intervals: [250] });
	return list;
}

/** Both executions succeeded, each on a different worker (as the workers' logs say). */
export function expectSucceededOnTwoWorkers(
	cluster: QueueCluster,
	executions: ExecutionSummary[],
): void {
	const byWorker = cluster.executionsByWorker();
	const workers = executions.map((e) => byWorker.get(String(e.id)));
	expect(
		new Set(workers.filter(Boolean)).size,
		`the two executions ran on ${workers.join(' and ')}, not on two workers`,
	).toBe(2);
	expect(
		executions.map((e) => e.status),
		'execution statuses',
	).toEqual(['success', 'success']);
}

/** The service created a payout for each reference exactly once (its own count). */
export async function expectCreatedOnce(
	sandbox: SandboxControl,
	references: string[],
): Promise<void> {
	const created = (await sandbox.stats()).creationsByReference;
	const notOnce = references.filter((ref) => created[ref] !== 1);
	expect(
		notOnce.length,
		`references not created exactly once at the service, e.g. ${notOnce.slice(0, 3).join(', ')}`,
	).toBe(0);
}

/** The JSON of a node's items in an execution: [output 0, output 1]. */
export async function nodeItems(
	rest: EditorApi,
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
