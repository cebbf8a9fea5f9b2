'use strict';
// Child processes: output goes to a file (never a pipe that could fill up or close early), each
// child leads its own process group so that it and anything it spawned (n8n's task runner) can be
// ended together by the child's PID.
const fs = require('fs');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');

/** Starts `command` with stdout and stderr appended to `logFile`. */
function startLogged(command, args, { env, cwd, logFile }) {
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const fd = fs.openSync(logFile, 'a');
	const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', fd, fd] });
	fs.closeSync(fd);
	child.exited = new Promise((resolve) => {
		child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
		child.on('error', () => resolve(127));
	});
	return child;
}

/** Sends `signal` to the process group led by `pid`; true when it was still there. */
function signalGroup(pid, signal = 'SIGTERM') {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

/** SIGTERM to the group, then SIGKILL after `graceMs` if the leader has not exited. */
async function stopGroup(child, graceMs = 10000) {
	if (!child || child.pid === undefined) return;
	signalGroup(child.pid, 'SIGTERM');
	const timer = new Promise((resolve) => setTimeout(() => resolve('timeout'), graceMs));
	const result = await Promise.race([child.exited, timer]);
	if (result === 'timeout') signalGroup(child.pid, 'SIGKILL');
	// Whatever is left in the group (a task runner outliving its parent) goes too.
	signalGroup(child.pid, 'SIGKILL');
}

/** Runs a command to completion; resolves with its exit code and everything it wrote. */
async function runLogged(command, args, options) {
	const start = fs.existsSync(options.logFile) ? fs.statSync(options.logFile).size : 0;
	const child = startLogged(command, args, options);
	const timeoutMs = options.timeoutMs ?? 5 * 60 * 1000;
	let timer;
	const timedOut = new Promise((resolve) => {
		timer = setTimeout(() => resolve('timeout'), timeoutMs);
	});
	let code = await Promise.race([child.exited, timedOut]);
	clearTimeout(timer);
	if (code === 'timeout') code = 124;
	// The leader has exited (or timed out): end anything it left behind.
	signalGroup(child.pid, 'SIGKILL');
	const output = fs.readFileSync(options.logFile, 'utf8').slice(start);
	return { code, output };
}

/** Runs a command with its output shown live; rejects on a non-zero exit. */
function runVisible(command, args, { cwd, env } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: 'inherit' });
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
		);
	});
}

/** Binds `port` on 127.0.0.1 for a moment: the bound port (0 = any free one), or null when taken. */
function tryBind(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(null));
		server.listen(port, '127.0.0.1', () => {
			const { port: bound } = server.address();
			server.close(() => resolve(bound));
		});
	});
}

async function portIsFree(port) {
	return (await tryBind(port)) !== null;
}

/** Resolves with `preferred` if it is free on 127.0.0.1, else the next free port above it. 0 = any. */
async function freePort(preferred = 0, tries = 50) {
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
function listensOn(pid, port) {
	let table;
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
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { startLogged, runLogged, runVisible, stopGroup, signalGroup, freePort, portIsFree, listensOn, isAlive, sleep };
