'use strict';
// The two kinds of child process the benchmark starts: one sandbox gateway for the whole
// benchmark, and one fresh engine process per run (so each run's peak RSS is its own).
const path = require('path');
const { fork } = require('child_process');

const SANDBOX_CHILD = path.join(__dirname, 'sandboxChild.js');
const RUN_CHILD = path.join(__dirname, 'runChild.js');

/** Starts the sandbox process; resolves with a small client for its IPC commands. */
function startSandbox() {
	return new Promise((resolve, reject) => {
		const child = fork(SANDBOX_CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		const waiting = new Map();
		let nextId = 1;
		child.once('exit', (code) => {
			const error = new Error(`the sandbox process exited (code ${code})`);
			reject(error);
			for (const { fail } of waiting.values()) fail(error);
			waiting.clear();
		});
		child.on('message', (message) => {
			if (message.type === 'ready') {
				resolve({
					url: message.url,
					pid: message.pid,
					request(cmd, extra = {}) {
						const id = nextId++;
						return new Promise((ok, fail) => {
							waiting.set(id, { ok, fail });
							child.send({ ...extra, cmd, id });
						});
					},
					close() {
						return new Promise((done) => {
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
			const pending = waiting.get(message.id);
			if (!pending) return;
			waiting.delete(message.id);
			if (message.ok) pending.ok(message);
			else pending.fail(new Error(message.error));
		});
	});
}

/**
 * Runs one benchmark run in a fresh process, on the Node.js and with the environment of its
 * engine (engines.js); resolves with its JSON answer.
 */
function runInChild(spec, engine, timeoutMs) {
	const { execPath, env, ...forChild } = engine;
	return new Promise((resolve) => {
		const child = fork(RUN_CHILD, [JSON.stringify({ ...spec, engine: forChild })], {
			execPath,
			env,
			execArgv: ['--expose-gc'],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let answer;
		const timer = setTimeout(() => {
			answer = { ok: false, error: `no answer within ${Math.round(timeoutMs / 1000)} s; stopped` };
			child.kill('SIGKILL');
		}, timeoutMs);
		child.on('message', (message) => {
			answer = answer || message;
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			resolve(answer || { ok: false, error: `the run process exited with code ${code} without an answer` });
		});
	});
}

module.exports = { startSandbox, runInChild };
