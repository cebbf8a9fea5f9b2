// `npm start` as a user meets it: started, stopped with Ctrl-C, started again, killed, started
// again, with a login each time, an example workflow edited in between, and its port taken by
// another program on the first start; last, stopped with Ctrl-C while n8n is still starting. Each
// start is a fresh scripts/demo.ts process. The sheet example is paid before and after the first
// restart: the second time every row comes back `replayed: true` (the sandbox kept its payouts).
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { spawn, type ChildProcess } from 'child_process';
import type { IWorkflowBase } from 'n8n-workflow';
import { ROOT, appDir as appDirOf } from './paths';
import { N8nRest, nodeOutputs } from './rest';
import { DEMO_OWNER } from './demoSetup';
import { ensureN8n } from './app';
import { N8nInstance } from './instance';
import { loadSandbox } from './sandbox';
import { loadExamples, triggerWebhookUrl, hasTrigger } from './examples';
import { freePort, isAlive, sleep } from './proc';
import { assert, assertEqual, waitFor, type Check } from './check';
import type { Target } from './targets';
import { log } from './log';

// The demo script is TypeScript: its Node.js loads ts-node's register hook first (transpile only,
// as `npm start` runs it), resolved from this repository.
const TS_NODE_REGISTER = require.resolve('ts-node/register/transpile-only');
const EDITED_WORKFLOW = 'pgwWalletReport';
const EDIT_NOTE = 'Changed by the user: send the report to finance@example.com';
const SHEET_WORKFLOW = 'pgwSheetPayouts';
const SHEET_PAID_ROWS = 3;

interface RunningDemo {
	child: ChildProcess;
	url: string;
	n8nPid: number;
	output: () => string;
	exited: Promise<number | NodeJS.Signals | null>;
}

interface DemoOptions {
	folder: string;
	port: number;
	n8nVersion: string;
	logName: string;
}

/** One `npm start` (scripts/demo.ts), just started; `gone` says whether it has exited. */
function spawnDemo({ folder, port, n8nVersion, logName }: DemoOptions) {
	const logFile = path.join(folder, `${logName}.log`);
	const child = spawn(
		process.execPath,
		['-r', TS_NODE_REGISTER, path.join(ROOT, 'scripts', 'demo.ts'), '--no-build'],
		{
			cwd: ROOT,
			env: {
				...process.env,
				PGW_DEMO_DIR: folder,
				PGW_DEMO_PORT: String(port),
				PGW_DEMO_N8N: n8nVersion,
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let output = '';
	const append = (chunk: Buffer) => {
		output += chunk;
		fs.appendFileSync(logFile, chunk);
	};
	child.stdout.on('data', append);
	child.stderr.on('data', append);
	const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
		child.on('exit', (code, signal) => resolve(code ?? signal)),
	);
	let gone = false;
	void exited.then(() => (gone = true));
	process.once('exit', () => gone || child.kill('SIGKILL'));
	return { child, logFile, output: () => output, exited, gone: () => gone };
}

/** One `npm start` (scripts/demo.ts); resolves once it prints its banner. */
async function startDemo(options: DemoOptions): Promise<RunningDemo> {
	const { child, logFile, output: printed, exited, gone } = spawnDemo(options);
	const { folder } = options;
	await waitFor(
		() => {
			if (gone())
				throw new Error(
					`npm start exited before it was ready, see ${logFile}:\n${printed().slice(-1500)}`,
				);
			return printed().includes('Press Ctrl-C to stop.');
		},
		{ timeoutMs: 240000, message: `npm start was not ready in 240 s, see ${logFile}` },
	);
	const url = /Editor +(http:\S+)/.exec(printed())?.[1];
	assert(url, `no editor URL in the banner:\n${printed()}`);
	const n8nPid = Number(fs.readFileSync(path.join(folder, 'n8n.pid'), 'utf8'));
	return { child, url, n8nPid, output: printed, exited };
}

async function login(demo: RunningDemo, appDir: string): Promise<N8nRest> {
	const rest = new N8nRest(demo.url, appDir);
	await rest.login(DEMO_OWNER);
	return rest;
}

/**
 * Runs the sheet example in the demo's n8n (its user folder, encryption key and database, beside
 * the running `n8n start`) with `n8n execute`; returns each paid row's `replayed`.
 */
async function paySheet(instance: N8nInstance): Promise<boolean[]> {
	const result = await instance.execute(SHEET_WORKFLOW);
	assert(
		result.code === 0 && result.run,
		`n8n execute --id=${SHEET_WORKFLOW} failed (exit ${result.code}), see ${result.logFile}`,
	);
	const paid = nodeOutputs<{ replayed: boolean }>(
		result.run.data.resultData.runData,
		'Payout accepted',
	)[0];
	assertEqual(paid?.length, SHEET_PAID_ROWS, 'rows paid by the sheet example');
	return paid.map((row) => row.replayed);
}

/** The banner tells what a user needs: the sandbox's address, test credentials and Signing Secret, the trigger's URL. */
function assertBanner(demo: RunningDemo): void {
	const { SANDBOX_CREDENTIALS: credentials } = loadSandbox();
	const banner = demo.output();
	const trigger = loadExamples({ n8nUrl: demo.url }).find((e) => hasTrigger(e.workflow));
	assert(trigger, 'no example with a trigger');
	for (const [what, value] of [
		['Base URL', /Base URL +http:\/\/127\.0\.0\.1:\d+/],
		[
			'collection login',
			`${credentials.collection.username}  /  ${credentials.collection.password}`,
		],
		[
			'disbursement login',
			`${credentials.disbursement.username}  /  ${credentials.disbursement.password}`,
		],
		['Signing Secret', `Signing Secret  ${credentials.signingSecret}`],
		["trigger's production webhook URL", triggerWebhookUrl(trigger.workflow, demo.url)],
	] as const)
		assert(
			typeof value === 'string' ? banner.includes(value) : value.test(banner),
			`the banner does not show the ${what}:\n${banner.slice(-2500)}`,
		);
}

/** Ctrl-C (or SIGHUP: the terminal closed): resolves once the demo has exited; n8n must be gone with it. */
async function interrupt(demo: RunningDemo, signal: NodeJS.Signals = 'SIGINT'): Promise<void> {
	demo.child.kill(signal);
	await Promise.race([demo.exited, sleep(30000)]);
	await waitFor(() => !isAlive(demo.n8nPid), {
		timeoutMs: 15000,
		message: `n8n (pid ${demo.n8nPid}) outlived ${signal}`,
	});
}

/**
 * Registers the demo restart checks with `check`; `target` is the n8n the demo runs. With
 * `restartOnly` only the first start and the restart after Ctrl-C (with the sheet paid before and
 * after it) run, not the killed demo and the Ctrl-C during the start.
 */
export async function demoRestartChecks(
	check: Check,
	target: Target,
	{ restartOnly = false }: { restartOnly?: boolean } = {},
): Promise<void> {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-demo-'));
	const appDir = appDirOf(target.n8n);
	const runtime = await ensureN8n(target);
	const busyPort = await freePort(5800);
	const blocker = net.createServer().listen(busyPort, '127.0.0.1');
	let demo: RunningDemo | undefined;
	let passed = true;
	const step = async (name: string, fn: () => Promise<void>) => {
		if (!passed)
			return check(name, async () => assert(false, 'skipped: an earlier npm start step failed'));
		await check(name, async () => {
			try {
				await fn();
			} catch (error) {
				passed = false;
				throw error;
			}
		});
	};
	try {
		await step(
			'npm start on a taken port names it, moves to the next one, shows the sandbox and the trigger URL, the demo login works, and the sheet example pays its rows',
			async () => {
				demo = await startDemo({
					folder,
					port: busyPort,
					n8nVersion: target.n8n,
					logName: 'start-1',
				});
				assert(
					demo.output().includes(`port ${busyPort} is already in use by another program`),
					'no message about the taken port',
				);
				assert(
					demo.output().includes(`using n8n ${target.n8n} on Node.js`),
					'the console does not say which n8n runs',
				);
				assert(!demo.url.endsWith(`:${busyPort}`), `the editor is on the taken port: ${demo.url}`);
				assertBanner(demo);
				assertEqual(
					await paySheet(new N8nInstance(folder, runtime)),
					Array(SHEET_PAID_ROWS).fill(false),
					'replayed',
				);
				const rest = await login(demo, appDir);
				const workflow = await rest.expectOk<IWorkflowBase>('GET', `/workflows/${EDITED_WORKFLOW}`);
				const nodes = workflow.nodes.map((node, i) =>
					i === 0 ? { ...node, notes: EDIT_NOTE } : node,
				);
				await rest.expectOk('PATCH', `/workflows/${EDITED_WORKFLOW}`, {
					name: `${workflow.name} (mine)`,
					nodes,
					connections: workflow.connections,
					versionId: workflow.versionId,
				});
			},
		);

		await step(
			'after Ctrl-C (which says what it stopped), npm start starts again, logs in, keeps the edited example, and the sheet example pays nobody twice (replayed: true)',
			async () => {
				assert(demo, 'the demo is not running');
				await interrupt(demo);
				assert(
					demo.output().includes('Stopped: n8n and the sandbox gateway.'),
					`no line saying everything stopped:\n${demo.output().slice(-500)}`,
				);
				blocker.close();
				demo = await startDemo({
					folder,
					port: busyPort,
					n8nVersion: target.n8n,
					logName: 'start-2',
				});
				assert(
					/example workflows kept as they are/.test(demo.output()),
					'the console does not say which examples were kept',
				);
				const rest = await login(demo, appDir);
				const workflow = await rest.expectOk<IWorkflowBase>('GET', `/workflows/${EDITED_WORKFLOW}`);
				assert(workflow.name.endsWith('(mine)'), `the edited name was replaced: ${workflow.name}`);
				assertEqual(workflow.nodes[0].notes, EDIT_NOTE, 'the edited node note');
				assertEqual(
					await paySheet(new N8nInstance(folder, runtime)),
					Array(SHEET_PAID_ROWS).fill(true),
					'replayed',
				);
			},
		);
		if (restartOnly) return;

		await step(
			'after the demo was killed, npm start stops the n8n it left, starts again and logs in; closing the terminal (SIGHUP) stops it and its n8n',
			async () => {
				assert(demo, 'the demo is not running');
				const leftover = demo.n8nPid;
				demo.child.kill('SIGKILL');
				await demo.exited;
				assert(isAlive(leftover), 'n8n did not outlive the killed demo (nothing to clean up)');
				demo = await startDemo({
					folder,
					port: busyPort,
					n8nVersion: target.n8n,
					logName: 'start-3',
				});
				assert(
					demo.output().includes(`stopping the n8n an earlier run left running (pid ${leftover})`),
					'no message about the leftover n8n',
				);
				assert(!isAlive(leftover), `the leftover n8n (pid ${leftover}) still runs`);
				await login(demo, appDir);
				await interrupt(demo, 'SIGHUP');
				demo = undefined;
			},
		);

		await step('Ctrl-C while npm start is still starting n8n stops that n8n too', async () => {
			const starting = spawnDemo({
				folder,
				port: busyPort,
				n8nVersion: target.n8n,
				logName: 'start-4',
			});
			const pidFile = path.join(folder, 'n8n.pid');
			const n8nPid = await waitFor(
				() => {
					if (starting.gone()) throw new Error(`npm start exited early, see ${starting.logFile}`);
					const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0;
					return pid > 0 && isAlive(pid) && pid;
				},
				{ timeoutMs: 120000, message: 'npm start never started n8n' },
			);
			assert(
				!starting.output().includes('Press Ctrl-C to stop.'),
				'n8n was ready before the Ctrl-C: nothing was still starting',
			);
			try {
				starting.child.kill('SIGINT');
				await Promise.race([starting.exited, sleep(30000)]);
				assert(starting.gone(), 'npm start outlived Ctrl-C');
				await waitFor(() => !isAlive(n8nPid), {
					timeoutMs: 15000,
					message: `n8n (pid ${n8nPid}) outlived Ctrl-C during the start`,
				});
			} finally {
				if (isAlive(n8nPid)) process.kill(-n8nPid, 'SIGKILL');
			}
		});
	} finally {
		blocker.close();
		if (demo) {
			demo.child.kill('SIGKILL');
			try {
				process.kill(-demo.n8nPid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
		if (passed && !process.env.KEEP_E2E_FOLDER) fs.rmSync(folder, { recursive: true, force: true });
		else log(`demo folder kept for inspection: ${folder} (start-N.log, logs/)`);
	}
}
