// The queue check's processes (Redis, PostgreSQL, n8n main, workers, webhook processes) as named
// services. They join n8n/proc's register, which stops them newest first by process group, also
// on failure and on Ctrl-C.
import fs from 'fs';
import { startLogged, type LoggedOptions } from '../../../scripts/n8n/proc';
import { lastLines } from '../../../scripts/n8n/log';

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

export type StartOptions = Omit<LoggedOptions, 'name' | 'leaderOnly'>;

/** Starts a service; its stop signal (default SIGTERM) goes to it alone, SIGKILL to its group after `graceMs` (default 15 s). */
export function startService(
	name: string,
	command: string,
	args: string[],
	options: StartOptions,
): Service {
	const { logFile, env = process.env, graceMs = 15000 } = options;
	const child = startLogged(command, args, { ...options, env, graceMs, name, leaderOnly: true });
	return {
		name,
		pid: child.pid ?? -1,
		logFile,
		exited: child.exited,
		hasExited: () => child.hasExited(),
		tail: (lines = 25) => lastLines(fs.readFileSync(logFile, 'utf8'), lines),
		stop: () => child.stop(),
	};
}
