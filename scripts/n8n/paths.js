'use strict';
// Where things live. Everything the scripts create stays inside the repository's git-ignored
// folders (.n8n-app, .demo, .tools) or the system temp folder.
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(ROOT, 'package.json'));
// N8N_APP_DIR moves the n8n installs elsewhere (e.g. a CI cache folder); default .n8n-app. Each
// n8n version gets its own folder in it (n8n-<version>), and so does each Node.js (node-<version>).
const APP_ROOT = path.resolve(process.env.N8N_APP_DIR || path.join(ROOT, '.n8n-app'));

module.exports = {
	ROOT,
	PACKAGE_NAME: pkg.name,
	PACKAGE_VERSION: pkg.version,
	APP_ROOT,
	appDir: (n8nVersion) => path.join(APP_ROOT, `n8n-${n8nVersion}`),
	nodeDir: (nodeVersion) => path.join(APP_ROOT, `node-${nodeVersion}`),
	DEMO_DIR: path.resolve(process.env.PGW_DEMO_DIR || path.join(ROOT, '.demo')),
	TOOLS_DIR: path.join(ROOT, '.tools'),
	EXAMPLES_DIR: path.join(ROOT, 'examples'),
	IMAGES_DIR: path.join(ROOT, 'docs', 'images'),
};
