'use strict';
// The sandbox gateway (TypeScript, in /sandbox) loaded from plain scripts through ts-node.
const path = require('path');
const { ROOT } = require('./paths');

let loaded;

/** { startSandboxGateway, SANDBOX_CREDENTIALS } */
function loadSandbox() {
	if (!loaded) {
		require('ts-node').register({ transpileOnly: true, project: path.join(ROOT, 'tsconfig.json') });
		loaded = require(path.join(ROOT, 'sandbox'));
	}
	return loaded;
}

module.exports = { loadSandbox };
