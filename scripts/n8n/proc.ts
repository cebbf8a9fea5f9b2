// Child processes: output goes to a file (never a pipe that could fill up or close early), each
// child leads its own process group so that it and anything it spawned (n8n's task runner) can be
// ended together by the child's PID.
import fs from 'fs';
import net from 'net';
import path from 'path';
import { spawn, type ChildProcess } from 'child_process';

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
}

/** A child started by `startLogged`; `exited` resolves with its exit code (128 after a signal, 127 when it never ran). */
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
	const { env, cwd, logFile, uid, gid, name = path.basename(command) } = options;
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const fd = fs.openSync(logFile, 'a');
	const child = spawn(command, args, {
		env,
		cwd,
		uid,
		gid,
		detached: true,
		stdio: ['ignore', fd, fd],
	});
	fs.closeSync(fd);
	let done = false;
	const exited = new Promise<number>((resolve) => {
		const end = (code: number) => {
			done = true;
			resolve(code);
		};
		child.on('exit', (code, signal) => end(code ?? (signal ? 128 : 1)));
		child.on('error', () => end(127));
	});
	const logged: LoggedChild = Object.assign(child, {
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
	child: LoggedChild | undefined,
	{ stopSignal = 'SIGTERM', leaderOnly = false, graceMs = 10000 }: StopManner = {},
): Promise<void> {
	if (!child || child.pid === undefined) return;
	if (!child.hasExited()) {
		if (!leaderOnly) signalGroup(child.pid, stopSignal);
		else
			try {
				process.kill(child.pid, stopSignal);
			} catch {
				// already gone
			}
		let timer: NodeJS.Timeout | undefined;
		const grace = new Promise<'timeout'>(
			(resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)),
		);
		await Promise.race([child.exited, grace]);
		clearTimeout(timer);
	}
	// Whatever is left in the group (a task runner outliving its parent, a backend) goes too.
	signalGroup(child.pid, 'SIGKILL');
}

/** Runs a command to completion; resolves with its exit code and everything it wrote. */
export async function runLogged(
	command: string,
	args: string[],
	options: LoggedOptions & { timeoutMs?: number },
): Promise<{ code: number; output: string }> {
	const start = fs.existsSync(options.logFile) ? fs.statSync(options.logFile).size : 0;
	const child = startLogged(command, args, options);
	const timeoutMs = options.timeoutMs ?? 5 * 60 * 1000;
	let timer: NodeJS.Timeout | undefined;
	const timedOut = new Promise<'timeout'>((resolve) => {
		timer = setTimeout(() => resolve('timeout'), timeoutMs);
	});
	const result = await Promise.race([child.exited, timedOut]);
	clearTimeout(timer);
	const code = result === 'timeout' ? 124 : result;
	// The leader has exited (or timed out): end anything it left behind.
	running.delete(child);
	signalGroup(child.pid, 'SIGKILL');
	const output = fs.readFileSync(options.logFile, 'utf8').slice(start);
	return { code, output };
}

/** Runs a command with its output shown live; rejects on a non-zero exit. */
export function runVisible(
	command: string,
	args: string[],
	{ cwd, env }: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: 'inherit' });
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0
				? resolve()
				: reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
		);
	});
}

/** Binds `port` on 127.0.0.1 for a moment: the bound port (0 = any free one), or null when taken. */
function tryBind(port: number): Promise<number | null> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(null));
		server.listen(port, '127.0.0.1', () => {
			const { port: bound } = server.address() as net.AddressInfo;
			server.close(() => resolve(bound));
		});
	});
}

export async function portIsFree(port: number): Promise<boolean> {
	return (await tryBind(port)) !== null;
}

/** Resolves with `preferred` if it is free on 127.0.0.1, else the next free port above it. 0 = any. */
export async function freePort(preferred = 0, tries = 50): Promise<number> {
	for (let i = 0; i < tries; i++) {
		const got = await tryBind(preferred === 0 ? 0 : preferred + i);
		if (got) return got;
	}
	throw new Error(`No free port found from ${preferred}`);
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

export { setTimeout as sleep } from 'timers/promises';
