'use strict';
// The few calls of n8n's internal REST API (/rest) the scripts need: owner set-up, login,
// executions. Keeps the auth cookie like a browser would.
const path = require('path');

class N8nRest {
	/** `appDir`: the n8n install whose `flatted` parses execution data. */
	constructor(baseUrl, appDir) {
		this.baseUrl = baseUrl;
		this.appDir = appDir;
		this.cookie = '';
	}

	async request(method, urlPath, body) {
		const res = await fetch(`${this.baseUrl}/rest${urlPath}`, {
			method,
			headers: { 'content-type': 'application/json', ...(this.cookie ? { cookie: this.cookie } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await res.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: res.status, json, text };
	}

	async expectOk(method, urlPath, body) {
		const res = await this.request(method, urlPath, body);
		if (res.status >= 300) throw new Error(`${method} /rest${urlPath} answered ${res.status}: ${res.text.slice(0, 300)}`);
		return res.json?.data ?? res.json;
	}

	/** Creates the owner account on a fresh instance, or logs in when it already exists. */
	async setupOwnerOrLogin(owner) {
		const res = await this.request('POST', '/owner/setup', owner);
		if (res.status === 200) return 'created';
		await this.login(owner);
		return 'existing';
	}

	async login({ email, password }) {
		await this.expectOk('POST', '/login', { emailOrLdapLoginId: email, password });
	}

	/** Newest first: [{ id, status, mode, workflowId, ... }]. */
	async executions(workflowId) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const data = await this.expectOk('GET', `/executions?filter=${filter}&limit=100`);
		return data.results;
	}

	/** One execution with its run data parsed (n8n stores it in the `flatted` format). */
	async execution(id) {
		const data = await this.expectOk('GET', `/executions/${id}`);
		const flatted = require(path.join(this.appDir, 'node_modules', 'flatted'));
		return { ...data, data: typeof data.data === 'string' ? flatted.parse(data.data) : data.data };
	}
}

/** The JSON of every item a node output on its first run: [[...output 0], [...output 1]]. */
function nodeOutputs(runData, nodeName) {
	const run = runData?.[nodeName]?.[0];
	const main = run?.data?.main ?? [];
	return main.map((items) => (items ?? []).map((item) => item.json));
}

module.exports = { N8nRest, nodeOutputs };
