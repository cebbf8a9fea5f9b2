// The two kinds of child process the benchmark starts: one sandbox gateway for the whole
// benchmark, and one fresh engine process per run (so each run's peak RSS is its own).
import path from 'path';
import { fork } from 'child_process';

import type { Engine } from './engines';

const SANDBOX_CHILD = path.join(__dirname, 'sandboxChild.ts');
const RUN_CHILD = path.join(__dirname, 'runChild.ts');
// Children are TypeScript too, on whichever Node.js their engine needs.
const TS_NODE = ['-r', require.resolve('ts-node/register/transpile-only')];

/** What a child says over IPC: whether it worked, and why not. */
export interface Answer {
	ok: boolean;
	error?: string;
}

/** The sandbox process: ready, then the counters of one run (`collect`). */
export interface SandboxAnswer extends Answer {
	id?: number;
	type?: 'ready';
	url?: string;
	pid?: number;
	tokenRequests: { disbursement: number; collection?: number };
	requests: number;
	requestsByPath: Record<string, number>;
	payoutsCreated: number;
	peakInFlight: number;
	serverMsPerRequest: number;
	cpuMs: number;
	rssMb: number;
}

/** One run process (runChild.ts): what it measured. */
export interface RunAnswer extends Answer {
	node: string;
	n8nCore: string;
	expressionEngine: string;
	loadMs: number;
	wallMs: number;
	nodeMs: Record<string, number>;
	cpuMs: number;
	cpuSystemMs: number;
	rssBeforeMb: number;
	peakRssMb: number;
	loopDelayMeanMs: number;
	loopDelayP99Ms: number;
	peakHeapMb: number;
	heapAfterGcMb: number;
	outputItems: number;
	succeeded: number;
	complete: boolean;
	problems: string[];
	profile?: string;
}

export interface SandboxClient {
	url: string;
	pid: number;
	request(cmd: string, extra?: Record<string, unknown>): Promise<SandboxAnswer>;
	close(): Promise<void>;
}

interface Pending {
	ok: (answer: SandboxAnswer) => void;
	fail: (error: Error) => void;
}

/** Starts the sandbox process; resolves with a small client for its IPC commands. */
export function startSandbox(): Promise<SandboxClient> {
	return new Promise((resolve, reject) => {
		const child = fork(SANDBOX_CHILD, [], {
			execArgv: TS_NODE,
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		const waiting = new Map<number, Pending>();
		let nextId = 1;
		child.once('exit', (code) => {
			const error = new Error(`the sandbox process exited (code ${code})`);
			reject(error);
			for (const { fail } of waiting.values()) fail(error);
			waiting.clear();
		});
		child.on('message', (message: SandboxAnswer) => {
			if (message.type === 'ready') {
				resolve({
					url: message.url!,
					pid: message.pid!,
					request(cmd, extra = {}) {
						const id = nextId++;
						return new Promise<SandboxAnswer>((ok, fail) => {
							waiting.set(id, { ok, fail });
							child.send({ ...extra, cmd, id });
						});
					},
					close() {
						return new Promise<void>((done) => {
							if (child.exitCode !== null) return done();
							const timer = setTimeout(() => child.kill(), 5000);
							child.once('exit', () => {
								clearTimeout(timer);
								done();
							});
							child.send({ cmd: 'close' });
						});
					},
				});
				return;
			}
			const pending = waiting.get(message.id!);
			if (!pending) return;
			waiting.delete(message.id!);
			if (message.ok) pending.ok(message);
			else pending.fail(new Error(message.error));
		});
	});
}

/**
 * Runs one benchmark run in a fresh process, on the Node.js and with the environment of its
 * engine (engines.js); resolves with its JSON answer.
 */
export function runInChild(
	spec: object,
	engine: Engine,
	timeoutMs: number,
): Promise<RunAnswer | Answer> {
	const { execPath, env, ...forChild } = engine;
	return new Promise((resolve) => {
		const child = fork(RUN_CHILD, [JSON.stringify({ ...spec, engine: forChild })], {
			execPath,
			env,
			execArgv: [...TS_NODE, '--expose-gc'],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let answer: RunAnswer | Answer | undefined;
		const timer = setTimeout(() => {
			answer = { ok: false, error: `no answer within ${Math.round(timeoutMs / 1000)} s; stopped` };
			child.kill('SIGKILL');
		}, timeoutMs);
		child.on('message', (message: RunAnswer) => {
			answer = answer || message;
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			resolve(
				answer || {
					ok: false,
					error: `the run process exited with code ${code} without an answer`,
				},
			);
		});
	});
}
