'use strict';
// The example workflows in /examples, ready to import into an n8n on a given address.
const fs = require('fs');
const path = require('path');
const { EXAMPLES_DIR, PACKAGE_NAME } = require('./paths');

// The examples are written for an n8n on the default address; a demo or test on another port
// gets its own address in the callback URLs instead.
const DEFAULT_N8N_URL = 'http://127.0.0.1:5678';

const TRIGGER_TYPE = `${PACKAGE_NAME}.paymentGatewayTrigger`;
// The trigger's webhook path (fixed in its description): n8n serves it at /webhook/<webhookId>/<path>.
const TRIGGER_WEBHOOK_PATH = 'callback';

/** [{ file, workflow }] for every examples/*.json, sorted by file name. */
function loadExamples({ n8nUrl = DEFAULT_N8N_URL } = {}) {
	if (!fs.existsSync(EXAMPLES_DIR)) return [];
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const text = fs.readFileSync(path.join(EXAMPLES_DIR, name), 'utf8').split(DEFAULT_N8N_URL).join(n8nUrl);
			return { file: name, workflow: JSON.parse(text) };
		});
}

function hasTrigger(workflow) {
	return workflow.nodes.some((node) => node.type === TRIGGER_TYPE);
}

/** The production webhook URL of a workflow's Payment Gateway Trigger. */
function triggerWebhookUrl(workflow, n8nUrl) {
	const node = workflow.nodes.find((n) => n.type === TRIGGER_TYPE);
	if (!node) throw new Error(`${workflow.name} has no Payment Gateway Trigger`);
	return `${n8nUrl}/webhook/${node.webhookId}/${TRIGGER_WEBHOOK_PATH}`;
}

module.exports = { loadExamples, hasTrigger, triggerWebhookUrl, TRIGGER_TYPE, DEFAULT_N8N_URL };
