// Preloaded into every run process (`-r`): which n8n-core, n8n-workflow and @n8n/* packages it
// loads. Inside a real n8n process every node, and n8n's DI container, share one copy of each;
// here the harness, our nodes and the app's n8n-nodes-base would otherwise each load their own.
// BENCH_ENGINE_MODULES (JSON) names the engine's folders (scripts/bench/engines.ts).
import fs from 'fs';
import Module from 'module';
import path from 'path';

// Error classes compare by identity, the DI container (@n8n/di) holds n8n-core's services, and
// the expression engine is a static of n8n-workflow's. On the project's n8n-core (2.8) the app's
// nodes share only n8n-core and n8n-workflow with it (same major, not the same build).
const SHARED_WITH_APP = /^(n8n-core|n8n-workflow|@n8n\/[^/]+)(\/|$)/;
const SHARED_WITH_PROJECT = /^(n8n-core|n8n-workflow)(\/|$)/;

type ResolveFilename = (
	request: string,
	parent?: { filename?: string },
	...rest: unknown[]
) => string;

const engine = JSON.parse(process.env.BENCH_ENGINE_MODULES!);
const real = (dir: string) => (fs.existsSync(dir) ? fs.realpathSync(dir) : dir);
const coreModules = real(engine.coreModules);
const appModules = real(engine.appModules);
const shared = engine.coreFromApp ? SHARED_WITH_APP : SHARED_WITH_PROJECT;
const loader = Module as unknown as { _resolveFilename: ResolveFilename };
const resolveFilename = loader._resolveFilename;

// With coreFromApp, every request for a shared package (the harness's, our nodes', the app's)
// resolves in the app's node_modules; else the app's own nodes get the project's copies.
loader._resolveFilename = function resolveShared(this: unknown, request, parent, ...rest) {
	const parentFile = parent?.filename || '';
	const redirect =
		shared.test(request) &&
		!parentFile.startsWith(coreModules) &&
		(engine.coreFromApp || parentFile.startsWith(appModules));
	if (redirect) {
		try {
			const paths = [path.dirname(coreModules)];
			return resolveFilename.call(this, request, parent, false, { paths });
		} catch {
			// Not in that install (e.g. an @n8n package only the project has): the usual lookup.
		}
	}
	return resolveFilename.call(this, request, parent, ...rest);
};
