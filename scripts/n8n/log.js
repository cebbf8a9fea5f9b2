'use strict';
// One-line progress messages with the seconds elapsed since the script started.
const started = Date.now();

function elapsed() {
	return ((Date.now() - started) / 1000).toFixed(1).padStart(6);
}

function log(message) {
	process.stdout.write(`[${elapsed()}s] ${message}\n`);
}

function seconds(since) {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

module.exports = { log, seconds };
