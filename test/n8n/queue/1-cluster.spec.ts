// Queue mode's set-up, each step a check: what is installed, the services, the shared database and
// the n8n processes (the fixtures in ./fixtures.ts do the work; these look at the result).
import fs from 'fs';
import path from 'path';
import { PACKAGE_NAME } from '../../../scripts/n8n/paths';
import { WRONG_PASSWORD_CREDENTIAL, publishedIds } from './workflows';
import { DEMO_CREDENTIALS } from '../../../scripts/n8n/credentials';
import { WORKER_CONCURRENCY } from './cluster';
import { N8N_VERSION, expect, test } from './fixtures';
import { ensureServices, redisPong } from './services';

test.describe.configure({ mode: 'serial' });

test('redis-server and PostgreSQL are installed (apt-get when missing)', async ({ services }) => {
	const done = services.installed ? 'installed from Debian packages' : 'already installed';
	test.info().annotations.push({ type: 'redis-server and PostgreSQL', description: done });
	expect(await ensureServices(), 'a second look at what is installed').toEqual({
		installed: false,
	});
});

test(`n8n ${N8N_VERSION} is installed`, async ({ runtime }) => {
	expect(runtime.n8nVersion, 'the installed n8n').toBe(N8N_VERSION);
	expect(fs.existsSync(runtime.bin), `n8n's command at ${runtime.bin}`).toBe(true);
});

test('Redis and PostgreSQL run on 127.0.0.1 on free ports', async ({ redis, postgres }) => {
	expect(await redisPong(redis.port), `Redis on port ${redis.port} answers PING`).toBe(true);
	expect(postgres.query('select 1'), `PostgreSQL on port ${postgres.port} answers`).toBe('1');
});

test('the packed package, the credentials and the published workflows are in the shared database', async ({
	cluster,
	postgres,
}) => {
	const nodes = path.join(cluster.main.userFolder, '.n8n', 'nodes', 'node_modules');
	const manifest = path.join(nodes, PACKAGE_NAME, 'package.json');
	expect(fs.existsSync(manifest), `the packed package installed: ${manifest}`).toBe(true);
	const credentials = postgres.query('select id from credentials_entity order by id').split('\n');
	expect(credentials, 'credentials in the database').toEqual(
		[
			DEMO_CREDENTIALS.collection.id,
			DEMO_CREDENTIALS.disbursement.id,
			DEMO_CREDENTIALS.batchWebhook.id,
			WRONG_PASSWORD_CREDENTIAL.id,
		].sort(),
	);
	const published = (await cluster.main.workflows()).filter((w) => w.active).map((w) => w.id);
	expect(published.sort(), 'published workflows').toEqual(publishedIds().sort());
});

test(`one main, one webhook process and two workers (concurrency ${WORKER_CONCURRENCY}) run in queue mode`, async ({
	queue,
}) => {
	const running = queue.cluster.processes.filter((p) => !p.hasExited()).map((p) => p.role);
	expect(running.sort(), 'n8n processes running').toEqual(['main', 'webhook', 'worker', 'worker']);
	const settings = await fetch(`${queue.rest.baseUrl}/rest/settings`);
	expect(settings.status, "the main's REST API").toBe(200);
	const health = await fetch(`${queue.webhookBase}healthz`);
	expect(health.status, 'the webhook process').toBe(200);
});
