// `npm start` as a user meets it, on the CI versions: started, stopped with Ctrl-C, started again
// (on the newest also killed and started again, and last stopped with Ctrl-C while n8n is still
// starting), with a login each time, an example workflow edited in between, and its port taken by
// another program on the first start. Each start is a fresh scripts/demo.ts process. The sheet
// example is paid before and after the first restart: the second time every row comes back
// `replayed: true` (the sandbox kept its payouts).
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { spawn, type ChildProcess } from 'child_process';
import type { IWorkflowBase } from 'n8n-workflow';
import { ROOT } from '../../../scripts/n8n/paths';
import { N8nRest, nodeOutputs } from '../../../scripts/n8n/rest';
import { DEMO_OWNER } from '../../../scripts/n8n/demoSetup';
import { N8nInstance } from '../../../scripts/n8n/instance';
import { buildAndPack } from '../../../scripts/n8n/pack';
import { loadExamples, triggerWebhookUrl, hasTrigger } from '../../../scripts/n8n/examples';
import { freePort, isAlive, sleep } from '../../../scripts/n8n/proc';
import { newestTarget } from '../../../scripts/n8n/targets';
import { SANDBOX_CREDENTIALS } from '../../../sandbox';
import { test as e2eTest, expect, keepOnFailure, removeOrKeep } from './fixtures';

// The demo script is TypeScript: its Node.js loads ts-node's register hook first (transpile only,
// as `npm start` runs it), resolved from this repository.
const TS_NODE_REGISTER = require.resolve('ts-node/register/transpile-only');
const EDITED_WORKFLOW = 'pgwWalletReport';
const EDIT_NOTE = 'Changed by the user: send the report to finance@example.com';
const SHEET_WORKFLOW = 'pgwSheetPayouts';
const SHEET_PAID_ROWS = 3;

/** One `npm start` process (scripts/demo.ts). */
interface DemoProcess {
	child: ChildProcess;
	logFile: string;
	output: () => string;
	exited: Promise<number | NodeJS.Signals | null>;
	gone: () => boolean;
}

/** A demo that printed its banner. */
interface RunningDemo extends DemoProcess {
	url: string;
	n8nPid: number;
}

/** The demo folder the starts share, a program holding the first port, and the demo running. */
class DemoRun {
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

const test = e2eTest.extend<{ run: DemoRun }, { workerRun: DemoRun }>({
	workerRun: [
		async ({ runtime }, use) => {
			// `npm start --no-build` installs the last build: this run's.
			await buildAndPack();
			const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-demo-'));
			const busyPort = await freePort(5800);
			const blocker = net.createServer().listen(busyPort, '127.0.0.1');
			const run = new DemoRun(folder, busyPort, blocker, runtime.n8nVersion);
			try {
				await use(run);
			} finally {
				blocker.close();
				run.kill();
				removeOrKeep(folder, run.failed, 'demo folder (start-N.log, logs/)');
			}
		},
		{ scope: 'worker', timeout: 15 * 60_000 },
	],

	/** The worker's demo run; a failed check marks it and names its folder. */
	run: async ({ workerRun }, use, testInfo) => {
		await use(workerRun);
		await keepOnFailure(testInfo, workerRun, 'demo folder (start-N.log)', workerRun.folder);
	},
});

test.describe.configure({ mode: 'serial' });
test.skip(({ n8nTarget }) => !n8nTarget.ci, 'npm start is checked on the versions CI runs');

async function login(demo: RunningDemo, appDir: string): Promise<N8nRest> {
	const rest = new N8nRest(demo.url, appDir);
	await rest.login(DEMO_OWNER);
	return rest;
}

/**
 * Runs the sheet example in the demo's n8n (its user folder, encryption key and database, beside
 * the running `n8n start`) with `n8n execute`; resolves with each paid row's `replayed`.
 */
async function paySheet(instance: N8nInstance): Promise<boolean[]> {
	const result = await instance.execute(SHEET_WORKFLOW);
	expect(
		result.code,
		`exit code of n8n execute --id=${SHEET_WORKFLOW}, see ${result.logFile}`,
	).toBe(0);
	const runData = result.run?.data.resultData.runData;
	const paid = nodeOutputs<{ replayed: boolean }>(runData, 'Payout accepted')[0] ?? [];
	expect(paid, 'rows paid by the sheet example').toHaveLength(SHEET_PAID_ROWS);
	return paid.map((row) => row.replayed);
}

/** The banner tells what a user needs: the sandbox's address, test credentials and Signing Secret, the trigger's URL. */
function expectBanner(demo: RunningDemo): void {
	const { collection, disbursement, signingSecret } = SANDBOX_CREDENTIALS;
	const banner = demo.output();
	const trigger = loadExamples({ n8nUrl: demo.url }).find((e) => hasTrigger(e.workflow));
	expect(trigger, 'an example with a trigger').toBeDefined();
	const shown: Array<[string, string | RegExp]> = [
		['Base URL', /Base URL +http:\/\/127\.0\.0\.1:\d+/],
		['collection login', `${collection.username}  /  ${collection.password}`],
		['disbursement login', `${disbursement.username}  /  ${disbursement.password}`],
		['Signing Secret', `Signing Secret  ${signingSecret}`],
		["trigger's production webhook URL", triggerWebhookUrl(trigger!.workflow, demo.url)],
	];
	for (const [what, value] of shown) expect(banner, `the banner shows the ${what}`).toMatch(value);
}

/** Ctrl-C (or SIGHUP: the terminal closed): resolves once the demo has exited; n8n must be gone with it. */
async function interrupt(demo: RunningDemo, signal: NodeJS.Signals = 'SIGINT'): Promise<void> {
	demo.child.kill(signal);
	await Promise.race([demo.exited, sleep(30000)]);
	await expect
		.poll(() => isAlive(demo.n8nPid), {
			timeout: 15_000,
			message: `n8n (pid ${demo.n8nPid}) stopped after ${signal}`,
		})
		.toBe(false);
}

test('npm start on a taken port names it, moves to the next one, shows the sandbox and the trigger URL, the demo login works, and the sheet example pays its rows', async ({
	run,
	runtime,
}) => {
	const demo = await run.start('start-1');
	expect(demo.output(), 'the message about the taken port').toContain(
		`port ${run.busyPort} is already in use by another program`,
	);
	expect(demo.output(), 'the console says which n8n runs').toContain(
		`using n8n ${run.n8nVersion} on Node.js`,
	);
	expect(demo.url, 'the editor is not on the taken port').not.toMatch(
		new RegExp(`:${run.busyPort}$`),
	);
	expectBanner(demo);
	expect(await paySheet(new N8nInstance(run.folder, runtime)), 'replayed').toEqual(
		Array(SHEET_PAID_ROWS).fill(false),
	);
	const rest = await login(demo, runtime.appDir);
	const workflow = await rest.expectOk<IWorkflowBase>('GET', `/workflows/${EDITED_WORKFLOW}`);
	const nodes = workflow.nodes.map((node, i) => (i === 0 ? { ...node, notes: EDIT_NOTE } : node));
	await rest.expectOk('PATCH', `/workflows/${EDITED_WORKFLOW}`, {
		name: `${workflow.name} (mine)`,
		nodes,
		connections: workflow.connections,
		versionId: workflow.versionId,
	});
});

test('after Ctrl-C (which says what it stopped), npm start starts again, logs in, keeps the edited example, and the sheet example pays nobody twice (replayed: true)', async ({
	run,
	runtime,
}) => {
	const stopped = run.running();
	await interrupt(stopped);
	expect(stopped.output(), 'the line saying everything stopped').toContain(
		'Stopped: n8n and the sandbox gateway.',
	);
	run.blocker.close();
	const demo = await run.start('start-2');
	expect(demo.output(), 'the console says which examples were kept').toMatch(
		/example workflows kept as they are/,
	);
	const rest = await login(demo, runtime.appDir);
	const workflow = await rest.expectOk<IWorkflowBase>('GET', `/workflows/${EDITED_WORKFLOW}`);
	expect(workflow.name, 'the edited name').toMatch(/\(mine\)$/);
	expect(workflow.nodes[0].notes, 'the edited node note').toBe(EDIT_NOTE);
	expect(await paySheet(new N8nInstance(run.folder, runtime)), 'replayed').toEqual(
		Array(SHEET_PAID_ROWS).fill(true),
	);
});

test.describe('on the newest version', () => {
	test.skip(
		({ n8nTarget }) => n8nTarget.n8n !== newestTarget().n8n,
		'killing npm start and stopping it while it starts are checked on the newest n8n only',
	);

	test('after the demo was killed, npm start stops the n8n it left, starts again and logs in; closing the terminal (SIGHUP) stops it and its n8n', async ({
		run,
		runtime,
	}) => {
		const killed = run.running();
		killed.child.kill('SIGKILL');
		await killed.exited;
		expect(isAlive(killed.n8nPid), 'n8n outlived the killed demo (something to clean up)').toBe(
			true,
		);
		const demo = await run.start('start-3');
		expect(demo.output(), 'the message about the leftover n8n').toContain(
			`stopping the n8n an earlier run left running (pid ${killed.n8nPid})`,
		);
		expect(isAlive(killed.n8nPid), `the leftover n8n (pid ${killed.n8nPid}) still runs`).toBe(
			false,
		);
		await login(demo, runtime.appDir);
		await interrupt(demo, 'SIGHUP');
		run.demo = undefined;
	});

	test('Ctrl-C while npm start is still starting n8n stops that n8n too', async ({ run }) => {
		const starting = run.spawn('start-4');
		const pidFile = path.join(run.folder, 'n8n.pid');
		const n8nPid = () => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0);
		await expect
			.poll(() => starting.gone() || (n8nPid() > 0 && isAlive(n8nPid())), {
				timeout: 120_000,
				message: `npm start started n8n (its PID in ${pidFile}), see ${starting.logFile}`,
			})
			.toBe(true);
		expect(starting.gone(), `npm start exited early, see ${starting.logFile}`).toBe(false);
		const pid = n8nPid();
		try {
			expect(
				starting.output(),
				'n8n not yet ready before the Ctrl-C (something still starting)',
			).not.toContain('Press Ctrl-C to stop.');
			starting.child.kill('SIGINT');
			await Promise.race([starting.exited, sleep(30000)]);
			expect(starting.gone(), 'npm start exited on Ctrl-C').toBe(true);
			await expect
				.poll(() => isAlive(pid), {
					timeout: 15_000,
					message: `n8n (pid ${pid}) stopped after Ctrl-C during the start`,
				})
				.toBe(false);
		} finally {
			if (isAlive(pid)) process.kill(-pid, 'SIGKILL');
		}
	});
});
