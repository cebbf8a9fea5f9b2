'use strict';
// Where things live. Everything the scripts create stays inside the repository's git-ignored
// folders (.n8n-app, .demo, .e2e) or the system temp folder.
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(ROOT, 'package.json'));
// N8N_APP_DIR moves the n8n install elsewhere (e.g. a CI cache folder); default .n8n-app.
const APP_DIR = path.resolve(process.env.N8N_APP_DIR || path.join(ROOT, '.n8n-app'));

module.exports = {
	ROOT,
	PACKAGE_NAME: pkg.name,
	PACKAGE_VERSION: pkg.version,
	N8N_VERSION: '2.8.4',
	APP_DIR,
	N8N_BIN: path.join(APP_DIR, 'node_modules', '.bin', 'n8n'),
	DEMO_DIR: path.join(ROOT, '.demo'),
	EXAMPLES_DIR: path.join(ROOT, 'examples'),
	IMAGES_DIR: path.join(ROOT, 'docs', 'images'),
};
