// Builds the package and installs the packed tarball the way n8n installs a community package:
// <userFolder>/.n8n/nodes/node_modules/<name>, listed in <userFolder>/.n8n/nodes/package.json.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { execFileSync } from 'child_process';
import { ROOT, PACKAGE_NAME } from './paths';
import { runLogged } from './proc';
import { log, seconds } from './log';

export interface Packed {
	file: string;
	version: string;
	files: number;
}

/** Set by a parent that packed for its children (the checks' global set-up): they install that. */
export const PACKED_ENV = 'PGW_PACKED_PACKAGE';

let packed: Packed | undefined; // one build and pack per script run

/** `npm run build`, then `npm pack` into a temporary folder. */
export async function buildAndPack({ build = true }: { build?: boolean } = {}): Promise<Packed> {
	if (packed) return packed;
	const handedOn = process.env[PACKED_ENV];
	if (handedOn) return (packed = JSON.parse(handedOn) as Packed);
	if (build) {
		const started = Date.now();
		log('building the package (npm run build)');
		// n8n-node build draws spinners: its output goes to a file, shown only when the build fails.
		const logFile = path.join(os.tmpdir(), `pgw-build-${process.pid}.log`);
		const { code, output } = await runLogged('npm', ['run', 'build', '--silent'], {
			cwd: ROOT,
			env: process.env,
			logFile,
		});
		fs.rmSync(logFile, { force: true });
		if (code !== 0) throw new Error(`npm run build failed (exit ${code}):\n${output.slice(-3000)}`);
		log(`built in ${seconds(started)}`);
	}
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-pack-'));
	process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
	const json = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const [info] = JSON.parse(json) as Array<{ filename: string; version: string; files: unknown[] }>;
	packed = { file: path.join(dir, info.filename), version: info.version, files: info.files.length };
	log(`packed ${info.filename} (${packed.files} files)`);
	return packed;
}

/** Extracts the packed package into the user folder's community-node folder. */
export async function installPackage(
	userFolder: string,
	options?: { build?: boolean },
): Promise<string> {
	const { file, version } = await buildAndPack(options);
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	const unpackDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-unpack-'));
	execFileSync('tar', ['-xzf', file, '-C', unpackDir]);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(path.dirname(target), { recursive: true });
	fs.cpSync(path.join(unpackDir, 'package'), target, { recursive: true });
	fs.rmSync(unpackDir, { recursive: true, force: true });
	const manifest = {
		name: 'installed-nodes',
		private: true,
		dependencies: { [PACKAGE_NAME]: version },
	};
	fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
	return target;
}
