// `npm run verify`: n8n's verification gate, offline. Runs the analysis of
// @n8n/scan-community-package (what n8n runs on a submitted package) on both of its legs: the
// source (package.json, nodes/, credentials/) and the packed tarball (its .js files and
// package.json); then `n8n-node lint`. The scanner is installed into .tools/ (git-ignored) with
// install scripts off; it is never one of the package's dependencies. Its provenance and download
// steps need a published version, so they are left to n8n's own run after a release.
// --no-build packs the last build (CI builds just before).
import fs from 'fs';
import os from 'os';
import path from 'path';
import { execFileSync } from 'child_process';
import { pathToFileURL } from 'url';
import { ROOT, TOOLS_DIR } from './n8n/paths';
import { installedVersion } from './n8n/app';
import { buildAndPack } from './n8n/pack';
import { runVisible } from './n8n/proc';
import { log, seconds } from './n8n/log';

const SCANNER = { name: '@n8n/scan-community-package', version: '0.32.0' };
const scannerDir = path.join(TOOLS_DIR, 'node_modules', ...SCANNER.name.split('/'));

/** What the scanner package's scanner/scanner.mjs exports and this script uses. */
interface Scanner {
	SOURCE_FILE_PATTERNS: string[];
	analyzePackage(
		dir: string,
		patterns: string[],
	): Promise<{ passed: boolean; message?: string; details?: string }>;
}

// The scanner is an ES module. TypeScript compiles `import()` to `require()` for CommonJS output,
// which cannot load it: this keeps Node's own dynamic import.
const importModule = new Function('specifier', 'return import(specifier)') as (
	specifier: string,
) => Promise<Scanner>;

async function ensureScanner(): Promise<void> {
	if (installedVersion(path.join(TOOLS_DIR, 'node_modules'), SCANNER.name) === SCANNER.version)
		return;
	const started = Date.now();
	log(`installing ${SCANNER.name}@${SCANNER.version} into .tools (install scripts off)`);
	fs.mkdirSync(TOOLS_DIR, { recursive: true });
	const manifest = {
		private: true,
		description: 'Tools the package is checked with; never shipped.',
		dependencies: { [SCANNER.name]: SCANNER.version },
	};
	fs.writeFileSync(path.join(TOOLS_DIR, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
	await runVisible(
		'npm',
		['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
		{ cwd: TOOLS_DIR },
	);
	log(`installed in ${seconds(started)}`);
}

async function main(): Promise<never> {
	await ensureScanner();
	const scanner = await importModule(
		pathToFileURL(path.join(scannerDir, 'scanner', 'scanner.mjs')).href,
	);
	const legs: Array<{ name: string; result: Awaited<ReturnType<Scanner['analyzePackage']>> }> = [];

	// The source leg lints what the scanner lints in the attested GitHub checkout.
	legs.push({
		name: `source (${scanner.SOURCE_FILE_PATTERNS.join(', ')})`,
		result: await scanner.analyzePackage(ROOT, scanner.SOURCE_FILE_PATTERNS),
	});

	const { file } = await buildAndPack({ build: !process.argv.includes('--no-build') });
	const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-verify-'));
	try {
		execFileSync('tar', ['-xzf', file, '-C', unpacked]);
		const patterns = ['**/*.js', 'package.json'];
		legs.push({
			name: `tarball ${path.basename(file)} (${patterns.join(', ')})`,
			result: await scanner.analyzePackage(path.join(unpacked, 'package'), patterns),
		});
	} finally {
		fs.rmSync(unpacked, { recursive: true, force: true });
	}

	let failed = 0;
	for (const { name, result } of legs) {
		process.stdout.write(
			`${result.passed ? 'passed' : 'FAILED'}  ${SCANNER.name}@${SCANNER.version} analysis, ${name}${result.message ? `: ${result.message}` : ''}\n`,
		);
		if (result.details) process.stdout.write(result.details + '\n');
		if (!result.passed) failed++;
	}

	process.stdout.write('\n');
	try {
		await runVisible('npm', ['run', '--silent', 'lint'], {
			cwd: ROOT,
			env: { ...process.env, FORCE_COLOR: '0' },
		});
		process.stdout.write('passed  n8n-node lint\n');
	} catch {
		process.stdout.write('FAILED  n8n-node lint\n');
		failed++;
	}
	process.stdout.write(`\nverify: ${failed ? `${failed} of 3 failed` : '3 of 3 passed'}\n`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error instanceof Error ? error.stack : error);
	process.exit(1);
});
