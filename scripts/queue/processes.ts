// Every process the queue check starts, in one register: each leads its own process group (so
// n8n's task runners or postgres's backends go with it), and `stopAll` ends them newest first,
// also on failure and on Ctrl-C. A last synchronous SIGKILL on exit catches anything left.
import fs from 'fs';
import path from 'path';
import { spawn } from 'child_process';
import { signalGroup } from '../n8n/proc';

export interface Service {
	name: string;
	pid: number;
	logFile: string;
	exited: Promise<number>;
	hasExited(): boolean;
	/** The last lines of its log. */
	tail(lines?: number): string;
	stop(): Promise<void>;
}

export interface StartOptions {
	logFile: string;
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Run as this user (the caller is root). */
	uid?: number;
	gid?: number;
	/** What asks the process to stop; SIGKILL follows after `graceMs`. */
	stopSignal?: NodeJS.Signals;
	graceMs?: number;
}

const running = new Set<Service>();

export function startService(name: string, command: string, args: string[], options: StartOptions): Service {
	const { logFile, cwd, env = process.env, uid, gid, stopSignal = 'SIGTERM', graceMs = 15000 } = options;
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const fd = fs.openSync(logFile, 'a');
	const child = spawn(command, args, { env, cwd, uid, gid, detached: true, stdio: ['ignore', fd, fd] });
	fs.closeSync(fd);
	let done = false;
	const exited = new Promise<number>((resolve) => {
		child.on('exit', (code, signal) => {
			done = true;
			resolve(code ?? (signal ? 128 : 1));
		});
		child.on('error', () => {
			done = true;
			resolve(127);
		});
	});
	const pid = child.pid ?? -1;
	const service: Service = {
		name,
		pid,
		logFile,
		exited,
		hasExited: () => done,
		tail: (lines = 25) => fs.readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n'),
		async stop() {
			running.delete(service);
			if (pid < 0) return;
			if (!done) {
				try {
					process.kill(pid, stopSignal);
				} catch {
					// already gone
				}
				let timer: NodeJS.Timeout | undefined;
				const grace = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)));
				const timedOut = await Promise.race([exited.then(() => false), grace]);
				clearTimeout(timer);
				if (timedOut) signalGroup(pid, 'SIGKILL');
			}
			// Whatever is left in its group (a task runner, a backend) goes too.
			signalGroup(pid, 'SIGKILL');
		},
	};
	running.add(service);
	return service;
}

/** Runs a command to completion (as `uid` when given); its output is appended to `logFile`. */
export async function runToEnd(command: string, args: string[], options: StartOptions & { timeoutMs?: number }): Promise<{ code: number; output: string }> {
	const before = fs.existsSync(options.logFile) ? fs.statSync(options.logFile).size : 0;
	const service = startService(path.basename(command), command, args, options);
	const timeoutMs = options.timeoutMs ?? 120000;
	let timer: NodeJS.Timeout | undefined;
	const timedOut = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(124), timeoutMs)));
	const code = await Promise.race([service.exited, timedOut]);
	clearTimeout(timer);
	await service.stop();
	return { code, output: fs.readFileSync(options.logFile, 'utf8').slice(before) };
}

/** Stops every process still registered, newest first. */
export async function stopAll(): Promise<void> {
	for (const service of [...running].reverse()) await service.stop();
}

/** The names and PIDs still registered (for the final report). */
export function stillRunning(): string[] {
	return [...running].filter((s) => !s.hasExited()).map((s) => `${s.name} (${s.pid})`);
}

let guarded = false;
let interrupted = false;

/** True once Ctrl-C or SIGTERM arrived: the checks after it fail for that reason alone. */
export const wasInterrupted = () => interrupted;

/**
 * Ctrl-C or SIGTERM stops everything first, then runs `cleanUp` (temporary folders) and exits;
 * any exit SIGKILLs what is left.
 */
export function stopAllOnExit(cleanUp: () => void): void {
	if (guarded) return;
	guarded = true;
	const onSignal = (signal: NodeJS.Signals) => {
		interrupted = true;
		process.stdout.write(`\n${signal}: stopping everything this run started\n`);
		stopAll()
			.then(cleanUp)
			.finally(() => process.exit(130));
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	process.once('exit', () => {
		for (const service of running) signalGroup(service.pid, 'SIGKILL');
	});
}
