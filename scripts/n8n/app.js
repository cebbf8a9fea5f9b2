'use strict';
// The full n8n app, installed once into the git-ignored .n8n-app folder.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { APP_DIR, N8N_BIN, N8N_VERSION, ROOT } = require('./paths');
const { log, seconds } = require('./log');

const APP_PACKAGE_JSON = {
	name: 'n8n-app-for-demo-and-e2e',
	private: true,
	dependencies: { n8n: N8N_VERSION },
	// n8n-nodes-base points xlsx at a download host that is not always reachable; the registry's
	// last published xlsx is what n8n uses anyway.
	overrides: { xlsx: '0.18.5' },
};

function installedVersion() {
	try {
		if (!fs.existsSync(N8N_BIN)) return undefined;
		const file = path.join(APP_DIR, 'node_modules', 'n8n', 'package.json');
		return JSON.parse(fs.readFileSync(file, 'utf8')).version;
	} catch {
		return undefined;
	}
}

function countPackages(dir) {
	try {
		return fs.readdirSync(dir).reduce((n, name) => {
			if (name.startsWith('.')) return n;
			if (name.startsWith('@')) return n + countPackages(path.join(dir, name));
			return n + 1;
		}, 0);
	} catch {
		return 0;
	}
}

/** Installs n8n into .n8n-app unless the right version is already there. */
async function ensureN8n() {
	const version = installedVersion();
	if (version === N8N_VERSION) return N8N_BIN;
	const started = Date.now();
	const where = path.relative(ROOT, APP_DIR) || APP_DIR;
	log(
		version
			? `n8n ${version} found in ${where}, installing ${N8N_VERSION} instead`
			: `installing n8n ${N8N_VERSION} into ${where} (a one-time step of about 4 to 5 minutes)`,
	);
	fs.mkdirSync(APP_DIR, { recursive: true });
	fs.writeFileSync(path.join(APP_DIR, 'package.json'), JSON.stringify(APP_PACKAGE_JSON, null, 2) + '\n');
	const logFile = path.join(APP_DIR, 'install.log');
	const out = fs.openSync(logFile, 'w');
	// sqlite3 compiles in its install script, so scripts must run whatever a parent .npmrc says.
	const child = spawn('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts=false'], {
		cwd: APP_DIR,
		stdio: ['ignore', out, out],
	});
	fs.closeSync(out);
	let before = 0;
	const progress = setInterval(() => {
		const n = countPackages(path.join(APP_DIR, 'node_modules'));
		const stage =
			n === 0
				? 'resolving about 2,000 dependencies'
				: n === before
					? 'running install scripts (sqlite3 compiles from source)'
					: `${n} packages in place`;
		before = n;
		log(`  still installing n8n: ${seconds(started)}, ${stage} (log: ${path.join(where, 'install.log')})`);
	}, 15000);
	const code = await new Promise((resolve) => child.on('exit', resolve));
	clearInterval(progress);
	if (code !== 0 || installedVersion() !== N8N_VERSION) {
		const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
		throw new Error(`npm install of n8n ${N8N_VERSION} failed (exit ${code}):\n${tail}`);
	}
	log(`n8n ${N8N_VERSION} installed in ${seconds(started)}`);
	return N8N_BIN;
}

module.exports = { ensureN8n, installedVersion };
