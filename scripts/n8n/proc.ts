// Child processes, started with execa: output goes to a file (never a pipe that could fill up or
// close early), each child leads its own process group so that it and anything it spawned (n8n's
// task runner) can be ended together by the child's PID. Free ports come from get-port.
import fs from 'fs';
import net from 'net';
import path from 'path';
import type { ChildProcess } from 'child_process';
import { execa, type StdoutStderrOption } from 'execa';
import getPort, { portNumbers } from 'get-port';
import { setTimeout as sleep } from 'timers/promises';

/** How a child is asked to stop; SIGKILL to its whole group follows after `graceMs` (default 10 s). */
export interface StopManner {
	/** Default SIGTERM. */
	stopSignal?: NodeJS.Signals;
	/** The stop signal goes to the leader alone (PostgreSQL's backends must not get the postmaster's), not its group. */
	leaderOnly?: boolean;
	graceMs?: number;
}

export interface LoggedOptions extends StopManner {
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	logFile: string;
	/** Run as this user (the caller is root). */
	uid?: number;
	gid?: number;
	/** Its name in logs (default: the command's base name). */
	name?: string;
	/** Ends the leader with SIGKILL after this long; `exited` then resolves with 124. */
	timeoutMs?: number;
}

/**
 * A child started by `startLogged`; `exited` resolves with its exit code (128 after a signal, 127
 * when it never ran). It is execa's child, which is also a promise of its end: hand it on inside an
 * object, never as an async function's result (that would wait for the child to exit).
 */
export interface LoggedChild extends ChildProcess {
	name: string;
	exited: Promise<number>;
	hasExited(): boolean;
	/** Stops it and its group (see StopManner) and takes it off the register. */
	stop(): Promise<void>;
}

/**
 * Every child of `startLogged` not yet stopped, oldest first. Each leads its own process group (so
 * no Ctrl-C reaches it, and its own children go with it); an exited leader stays until stopped, as
 * its group may not be empty.
 */
const running = new Set<LoggedChild>();
// However the script ends (an uncaught error, process.exit), what it started does not outlive it.
process.on('exit', () => running.forEach((child) => signalGroup(child.pid, 'SIGKILL')));

/** Starts `command` with stdout and stderr appended to `logFile`. */
export function startLogged(command: string, args: string[], options: LoggedOptions): LoggedChild {
	const { env, cwd, logFile, uid, gid, timeoutMs, name = path.basename(command) } = options;
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	// A file descriptor, not execa's `{ file, append: true }`: that pipes the output through this
	// process, and a child that outlives it (a killed demo) would write into a closed pipe.
	const fd = fs.openSync(logFile, 'a');
	// execa's types admit descriptors up to 9 only; it hands any to spawn as it is.
	const output = fd as StdoutStderrOption;
	const child = execa(command, args, {
		env,
		extendEnv: false,
		cwd,
		uid,
		gid,
		detached: true,
		stdin: 'ignore',
		stdout: output,
		stderr: output,
		timeout: timeoutMs,
		killSignal: 'SIGKILL',
		reject: false,
	});
	fs.closeSync(fd);
	let done = false;
	const exited = child.then((result) => {
		done = true;
		if (result.timedOut) return 124;
		return result.exitCode ?? (result.signal ? 128 : 127);
	});
	const logged: LoggedChild = Object.assign(child as unknown as ChildProcess, {
		name,
		exited,
		hasExited: () => done,
		stop: async () => {
			running.delete(logged);
			await stopGroup(logged, options);
		},
	});
	running.add(logged);
	return logged;
}

/** Stops every child of `startLogged` not yet stopped, newest first, including any started meanwhile. */
export async function stopAll(): Promise<void> {
	for (let newest = [...running].pop(); newest; newest = [...running].pop()) await newest.stop();
}

/**
 * Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed), at any moment: `shutdown` runs once (the script's own orderly stop),
 * then every child of `startLogged` still registered is stopped newest first and the script exits
 * with `exitCode`. Without it Node ends on the signal without its 'exit' event, and n8n keeps
 * running. `stop` does the same without a signal; `stopping` says whether it began, so a step it
 * cuts short is not reported as a failure.
 */
export function stopOnInterrupt(
	shutdown: (signal?: NodeJS.Signals) => Promise<void> = async () => {},
	exitCode = 130,
): { stop: (signal?: NodeJS.Signals) => Promise<void>; stopping: () => boolean } {
	let stopping = false;
	const stop = async (signal?: NodeJS.Signals) => {
		if (stopping) return;
		stopping = true;
		try {
			await shutdown(signal);
		} finally {
			await stopAll();
			process.exit(exitCode);
		}
	};
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
	process.on('SIGHUP', () => void stop('SIGHUP'));
	return { stop, stopping: () => stopping };
}

/** Sends `signal` to the process group led by `pid`; true when it was still there. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGTERM'): boolean {
	if (pid === undefined) return false;
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

/** Sends the stop signal (see StopManner), then SIGKILL to the group after the grace if the leader has not exited. */
async function stopGroup(
	child: LoggedChild,
	{ stopSignal = 'SIGTERM', leaderOnly = false, graceMs = 10000 }: StopManner = {},
): Promise<void> {
	if (child.pid === undefined) return;
	if (!child.hasExited()) {
		if (leaderOnly) child.kill(stopSignal);
		else signalGroup(child.pid, stopSignal);
		await Promise.race([child.exited, sleep(graceMs, undefined, { ref: false })]);
	}
	// Whatever is left in the group (a task runner outliving its parent, a backend) goes too.
	signalGroup(child.pid, 'SIGKILL');
}

/** Runs a command to completion; resolves with its exit code (124 after `timeoutMs`) and everything it wrote. */
export async function runLogged(
	command: string,
	args: string[],
	options: LoggedOptions,
): Promise<{ code: number; output: string }> {
	const start = fs.existsSync(options.logFile) ? fs.statSync(options.logFile).size : 0;
	const child = startLogged(command, args, {
		...options,
		timeoutMs: options.timeoutMs ?? 5 * 60 * 1000,
	});
	const code = await child.exited;
	// The leader has exited (or was killed at the timeout): end anything it left behind.
	running.delete(child);
	signalGroup(child.pid, 'SIGKILL');
	const output = fs.readFileSync(options.logFile, 'utf8').slice(start);
	return { code, output };
}

/** Runs a command to completion; resolves with what it printed, rejects on a non-zero exit. */
export async function runForOutput(
	command: string,
	args: string[],
	{ cwd, env }: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
	return (await execa(command, args, { cwd, env, extendEnv: false })).stdout;
}

/** Runs a command with its output shown live; rejects on a non-zero exit. */
export async function runVisible(
	command: string,
	args: string[],
	{ cwd, env }: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
	await execa(command, args, { cwd, env, extendEnv: false, stdio: 'inherit' });
}

/** Whether `port` on 127.0.0.1 can be bound now. Not get-port: it answers no for a port it handed out lately. */
export function portIsFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * Resolves with `preferred` if it is free on 127.0.0.1, else the next free port of the `tries`
 * above it, else any free one (0 = any). A port handed out is not handed out again for 15 to 30 s.
 */
export function freePort(preferred = 0, tries = 50): Promise<number> {
	const last = Math.min(preferred + tries - 1, 65535);
	return getPort({ port: preferred ? portNumbers(preferred, last) : undefined, host: '127.0.0.1' });
}

/**
 * Whether process `pid` holds the listening socket of 127.0.0.1:`port` (Linux: /proc/net/tcp and
 * the process's file descriptors). Another program answering on that port is never taken for it.
 * Elsewhere it cannot tell, and says true.
 */
export function listensOn(pid: number | undefined, port: number): boolean {
	let table: string;
	try {
		table = fs.readFileSync('/proc/net/tcp', 'utf8');
	} catch {
		return true;
	}
	const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
	const inodes = table
		.split('\n')
		.slice(1)
		.map((line) => line.trim().split(/\s+/))
		.filter((cols) => cols[1] === local && cols[3] === '0A')
		.map((cols) => `socket:[${cols[9]}]`);
	if (!inodes.length) return false;
	try {
		return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
			try {
				return inodes.includes(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
			} catch {
				return false;
			}
		});
	} catch {
		return false;
	}
}

/** True while a process with this PID exists. */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

export { sleep };
