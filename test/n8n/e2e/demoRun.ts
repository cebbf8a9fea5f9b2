// `npm start` processes for demo.spec.ts: each a fresh scripts/demo.ts in one demo folder, its
// first port held by another program.
import fs from 'fs';
import net from 'net';
import path from 'path';
import { spawn, type ChildProcess } from 'child_process';
import { expect } from '@playwright/test';
import { ROOT } from '../../../scripts/n8n/paths';

// The demo script is TypeScript: its Node.js loads ts-node's register hook first (transpile only,
// as `npm start` runs it), resolved from this repository.
const TS_NODE_REGISTER = require.resolve('ts-node/register/transpile-only');

/** One `npm start` process (scripts/demo.ts). */
interface DemoProcess {
	child: ChildProcess;
	logFile: string;
	output: () => string;
	exited: Promise<number | NodeJS.Signals | null>;
	gone: () => boolean;
}

/** A demo that printed its banner. */
export interface RunningDemo extends DemoProcess {
	url: string;
	n8nPid: number;
}

/** The demo folder the starts share, a program holding the first port, and the demo running. */
export class DemoRun {
	demo: RunningDemo | undefined;
	failed = false;

	constructor(
		readonly folder: string,
		readonly busyPort: number,
		readonly blocker: net.Server,
		readonly n8nVersion: string,
	) {}

	/** One `npm start`, just spawned; its output goes to <folder>/<logName>.log too. */
	spawn(logName: string): DemoProcess {
		const logFile = path.join(this.folder, `${logName}.log`);
		const child = spawn(
			process.execPath,
			['-r', TS_NODE_REGISTER, path.join(ROOT, 'scripts', 'demo.ts'), '--no-build'],
			{
				cwd: ROOT,
				env: {
					...process.env,
					PGW_DEMO_DIR: this.folder,
					PGW_DEMO_PORT: String(this.busyPort),
					PGW_DEMO_N8N: this.n8nVersion,
				},
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let output = '';
		const append = (chunk: Buffer) => {
			output += chunk;
			fs.appendFileSync(logFile, chunk);
		};
		child.stdout?.on('data', append);
		child.stderr?.on('data', append);
		let gone = false;
		const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
			child.on('exit', (code, signal) => {
				gone = true;
				resolve(code ?? signal);
			}),
		);
		process.once('exit', () => gone || child.kill('SIGKILL'));
		return { child, logFile, output: () => output, exited, gone: () => gone };
	}

	/** One `npm start`; resolves once it prints its banner. */
	async start(logName: string): Promise<RunningDemo> {
		const started = this.spawn(logName);
		await expect
			.poll(
				() => {
					if (started.gone()) return 'exited';
					return started.output().includes('Press Ctrl-C to stop.') ? 'ready' : 'starting';
				},
				{ timeout: 240_000, message: `npm start ready within 240 s, see ${started.logFile}` },
			)
			.not.toBe('starting');
		expect(
			started.gone(),
			`npm start exited before it was ready, see ${started.logFile}:\n${started.output().slice(-1500)}`,
		).toBe(false);
		const url = /Editor +(http:\S+)/.exec(started.output())?.[1];
		expect(url, `the editor URL in the banner:\n${started.output()}`).toBeDefined();
		const n8nPid = Number(fs.readFileSync(path.join(this.folder, 'n8n.pid'), 'utf8'));
		this.demo = { ...started, url: url ?? '', n8nPid };
		return this.demo;
	}

	running(): RunningDemo {
		if (!this.demo) throw new Error('the demo is not running');
		return this.demo;
	}

	/** Kills what is left: the demo and the n8n it started. */
	kill(): void {
		if (!this.demo) return;
		this.demo.child.kill('SIGKILL');
		try {
			process.kill(-this.demo.n8nPid, 'SIGKILL');
		} catch {
			// already gone
		}
		this.demo = undefined;
	}
}
