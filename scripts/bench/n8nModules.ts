// Which n8n-core and n8n-workflow a run process loads. Inside a real n8n process every node, and
// n8n's DI container, share the process's one copy of each; here the harness, our nodes and the
// app's n8n-nodes-base would otherwise each load their own. Call `use` before anything requires them.
import fs from 'fs';
import path from 'path';
import Module from 'module';

/** What a run process is told about its engine (engines.ts), as it crosses the process boundary. */
export interface EngineModules {
	coreModules: string;
	appModules: string;
	coreFromApp: boolean;
	[other: string]: unknown;
}

type ResolveFilename = (
	request: string,
	parent: { filename?: string } | undefined,
	...rest: unknown[]
) => string;

// Packages that must be one copy per process: error classes compare by identity, the DI container
// (@n8n/di) holds n8n-core's services, and the expression engine is a static of n8n-workflow's.
const SHARED_WITH_APP = /^(n8n-core|n8n-workflow|@n8n\/[^/]+)(\/|$)/;
// For the app's nodes on the project's n8n-core (same major, not the same build): only these two.
const SHARED_WITH_PROJECT = /^(n8n-core|n8n-workflow)(\/|$)/;

let chosen: EngineModules | undefined;

/**
 * coreFromApp: every request for a shared package (the harness's, our nodes', the app's) resolves
 * in the app's node_modules. Else the app's own nodes get the project's copies.
 */
export function use(engine: EngineModules): void {
	const real = (dir: string) => (fs.existsSync(dir) ? fs.realpathSync(dir) : dir);
	const coreModules = real(engine.coreModules);
	const appModules = real(engine.appModules);
	chosen = { ...engine, coreModules, appModules };
	const from = [path.dirname(coreModules)];
	const shared = engine.coreFromApp ? SHARED_WITH_APP : SHARED_WITH_PROJECT;
	const loader = Module as unknown as { _resolveFilename: ResolveFilename };
	const resolveFilename = loader._resolveFilename;
	loader._resolveFilename = function resolveShared(this: unknown, request, parent, ...rest) {
		const parentFile = (parent && parent.filename) || '';
		const redirect =
			shared.test(request) &&
			!parentFile.startsWith(coreModules) &&
			(engine.coreFromApp || parentFile.startsWith(appModules));
		if (redirect) {
			try {
				return resolveFilename.call(this, request, parent, false, { paths: from });
			} catch {
				// Not in that install (e.g. an @n8n package only the project has): the usual lookup.
			}
		}
		return resolveFilename.call(this, request, parent, ...rest);
	};
}

/** The engine passed to `use`, with real paths. */
export function current(): EngineModules {
	if (!chosen) throw new Error('n8nModules.use() was not called');
	return chosen;
}
