/**
 * The shape of the package, so it cannot drift back unnoticed: imports in nodes/ and credentials/
 * only go downward through the layers docs/ARCHITECTURE.md draws, an operation reaches the service
 * only through the runner, no module imports itself back through others (nodes/, credentials/,
 * scripts/), no module-level map in nodes/ keeps per-run state (a run holds its own
 * context), the sandbox stays an independent fake of the service (nothing of
 * nodes/ in it), every module of nodes/shared/ has its own tests at the path mirroring it (or is
 * listed as tested through scenarios, with why), and test helpers live in test/harness/ only. Each
 * check is first shown to catch a violation on files written for it, so a passing check is not a
 * check that cannot fail.
 */
import {
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
	mkdirSync,
} from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');

/**
 * The layers, top first. A file may import from its own layer or any layer below it, never above.
 * Node folders (`nodes/<Node>/`) are one layer each and never import one another; inside one, the
 * node file is above its parts, and `helpers/` is below them.
 */
const SHARED_LAYERS = [
	'operations',
	'runner',
	'descriptions',
	'callbacks',
	'transport',
	'validation',
] as const;

/** Where a file sits: [rank, group]. Higher rank is higher up; a group is one node folder or "shared". */
export function layerOf(root: string, file: string): { rank: number; group: string; name: string } {
	const parts = path.relative(root, file).split(path.sep);
	if (parts[0] === 'credentials') return { rank: 100, group: 'credentials', name: 'credentials' };
	if (parts[0] !== 'nodes') throw new Error(`${file} is outside nodes/ and credentials/`);
	if (parts[1] === 'shared') {
		const index = SHARED_LAYERS.indexOf(parts[2] as (typeof SHARED_LAYERS)[number]);
		if (index < 0)
			throw new Error(
				`nodes/shared/${parts[2]} is not a layer: add it to SHARED_LAYERS and docs/ARCHITECTURE.md`,
			);
		return { rank: SHARED_LAYERS.length - index, group: 'shared', name: `shared/${parts[2]}` };
	}
	const inNode = parts.slice(2);
	if (inNode.length === 1 && inNode[0].endsWith('.node.ts'))
		return { rank: 30, group: parts[1], name: `${parts[1]} node file` };
	if (inNode[0] === 'helpers') return { rank: 10, group: parts[1], name: `${parts[1]}/helpers` };
	return { rank: 20, group: parts[1], name: `${parts[1]} parts` };
}

/** What may use the HTTP layer: entry points of the editor and of callbacks, and the runner below operations. */
function mayUseTransport(root: string, file: string): boolean {
	const relative = path.relative(root, file).split(path.sep).join('/');
	return (
		!/^nodes\/[^/]+\/actions\//.test(relative) &&
		!relative.startsWith('nodes/shared/operations/') &&
		!relative.startsWith('nodes/shared/descriptions/')
	);
}

/** Every import that breaks the layering: upward, across node folders, or an operation reaching the transport. */
export function layeringViolations(root: string): string[] {
	const files = [...tsFiles(path.join(root, 'nodes')), ...tsFiles(path.join(root, 'credentials'))];
	const operationFiles = new Set(files.filter((file) => !mayUseTransport(root, file)));
	// What an operation imports from its own node folder counts as the operation's code too.
	for (const file of [...operationFiles])
		for (const target of walk(file))
			if (
				layerOf(root, target).group === layerOf(root, file).group &&
				layerOf(root, target).group !== 'shared'
			)
				operationFiles.add(target);
	const problems: string[] = [];
	for (const file of files) {
		const from = layerOf(root, file);
		for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
			if (!specifier.startsWith('.')) continue;
			const target = resolveRelative(file, specifier);
			if (!target) continue;
			const to = layerOf(root, target);
			const where = `${path.relative(root, file)} imports ${specifier}`;
			if (from.group !== to.group && from.group !== 'credentials' && to.group !== 'shared')
				problems.push(`${where}: ${from.name} reaches into ${to.name}`);
			else if (to.rank > from.rank) problems.push(`${where}: ${from.name} is below ${to.name}`);
			const transportFile = path.relative(root, target).split(path.sep).join('/');
			if (
				operationFiles.has(file) &&
				transportFile.startsWith('nodes/shared/transport/') &&
				!transportFile.endsWith('/endpoints.ts')
			) {
				problems.push(
					`${where}: an operation reaches the service through the runner, naming its request by endpoint (endpoints.ts) only`,
				);
			}
		}
	}
	return problems;
}

/** Files of shared/descriptions/ that run at execution time: they hold parameters only, the runner runs. */
export function runTimeDescriptions(root: string): string[] {
	return tsFiles(path.join(root, 'nodes', 'shared', 'descriptions'))
		.filter((file) => /\b(IExecuteFunctions|INodeExecutionData)\b/.test(readFileSync(file, 'utf8')))
		.map((file) => path.relative(root, file).split(path.sep).join('/'));
}

/**
 * The module-level maps of nodes/ that may stay: caches that outlive runs, each keyed by something
 * other than an execution context, with why. What belongs to one run lives in the run's context
 * (nodes/shared/runner/runContext.ts), made where the run starts and handed down.
 */
const CROSS_RUN_CACHES: Record<string, string> = {
	'nodes/shared/transport/token.ts inFlight':
		'a token request in flight, per credential: concurrent runs of one credential share it',
	'nodes/shared/transport/token.ts recent':
		'a token fetched moments ago, per credential: handed to callers of any run that still hold the token it replaced',
	'nodes/shared/transport/token.ts refused':
		'a refused credential, not asked again for 30 seconds whichever run asks',
	'nodes/shared/callbacks/resumeClaims.ts claimed':
		'the waits a callback resumed, per execution, node and reference: later callbacks to the same wait, from any request, resume nothing',
	'nodes/shared/validation/days.ts dayFormats':
		'one Intl.DateTimeFormat per time zone: holds no data of any run, and building one per row cost most of a run of the daily maximum',
	'nodes/PaymentGatewayTrigger/helpers/duplicates.ts perNode':
		'accepted callbacks per trigger node (workflow and node id), kept across webhook requests',
};

/** Key types that are an execution context (n8n's `I...Functions`, the contexts made of them, or a bare object). */
const CONTEXT_KEY =
	/^(?:I\w*Functions|object|Object|ServiceContext|CredentialContext|TriggerContext|RunContext|ServiceRun(?:<.*>)?|\{[\s\S]*\})$/;

/** The first type argument of a `<...>` list, or undefined. */
function firstTypeArgument(generics: string | undefined): string | undefined {
	if (!generics) return undefined;
	let depth = 0;
	const inner = generics.slice(1);
	for (let i = 0; i < inner.length; i++) {
		const char = inner[i];
		if ('<({['.includes(char)) depth++;
		else if ('>)}]'.includes(char)) {
			if (depth === 0) return inner.slice(0, i).trim();
			depth--;
		} else if (char === ',' && depth === 0) return inner.slice(0, i).trim();
	}
	return undefined;
}

/**
 * The module-level `new Map` and `new WeakMap` declarations of a source text (formatted by
 * Prettier: a module-level statement starts at column 0), with the key type each names.
 */
export function moduleLevelMapsIn(
	text: string,
): Array<{ name: string; kind: 'Map' | 'WeakMap'; key?: string }> {
	const statements = text.split(/\n(?=\S)/);
	const found: Array<{ name: string; kind: 'Map' | 'WeakMap'; key?: string }> = [];
	for (const statement of statements) {
		const match =
			/^(?:export\s+)?(?:const|let|var)\s+(\w+)\s*(?::\s*(?:Weak)?Map\s*(<[\s\S]*?>)\s*)?=\s*new\s+(WeakMap|Map)\s*(<[\s\S]*>)?\s*\(/.exec(
				statement,
			);
		if (!match) continue;
		const [, name, annotated, kind, generics] = match;
		found.push({
			name,
			kind: kind as 'Map' | 'WeakMap',
			key: firstTypeArgument(generics) ?? firstTypeArgument(annotated),
		});
	}
	return found;
}

/**
 * Module-level maps in nodes/ that hold per-run state: any WeakMap (its keys are objects: a context,
 * or something a run made), any Map keyed by an execution context, and any other Map not listed
 * in `allowed` as a cache that outlives runs.
 */
export function perRunModuleState(
	root: string,
	allowed: Record<string, string> = CROSS_RUN_CACHES,
): string[] {
	return tsFiles(path.join(root, 'nodes')).flatMap((file) => {
		const relative = path.relative(root, file).split(path.sep).join('/');
		return moduleLevelMapsIn(readFileSync(file, 'utf8')).flatMap(({ name, kind, key }) => {
			const where = `${relative}: ${name}`;
			if (kind === 'WeakMap')
				return [`${where} is a module-level WeakMap: keep what a run holds in its run context`];
			if (key === undefined || CONTEXT_KEY.test(key))
				return [
					`${where} is a module-level Map keyed by ${key ?? 'an unstated type'}: keep what a run holds in its run context`,
				];
			if (!allowed[`${relative} ${name}`])
				return [
					`${where} is a module-level Map that outlives runs: list it in CROSS_RUN_CACHES with why, or keep it in the run context`,
				];
			return [];
		});
	});
}

/** Every import, export-from and require specifier of a source text. */
function specifiersOf(text: string): string[] {
	return [...text.matchAll(/(?:\bfrom|\bimport|\brequire\()\s*['"]([^'"]+)['"]/g)].map(
		(match) => match[1],
	);
}

/** The file a relative specifier names (a .ts file, or the index.ts of a folder), or undefined. */
function resolveRelative(from: string, specifier: string): string | undefined {
	const base = path.resolve(path.dirname(from), specifier);
	return [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => {
		try {
			return statSync(candidate).isFile();
		} catch {
			return false;
		}
	});
}

/** The entry file and every file it reaches by relative imports (type-only ones included). */
function walk(entry: string): string[] {
	const seen = new Set<string>();
	const visit = (file: string) => {
		if (seen.has(file)) return;
		seen.add(file);
		for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
			if (!specifier.startsWith('.')) continue;
			const target = resolveRelative(file, specifier);
			if (target) visit(target);
		}
	};
	visit(entry);
	return [...seen];
}

/**
 * The import circles among the modules under `dirs` (relative imports, type-only ones included: a
 * circle of types still ties two modules into one), one line per circle: the modules in import
 * order back to the first. Found as strongly connected components (Tarjan), so a tangle of many
 * modules is one line: its shortest circle through its first module, and how many it ties.
 */
export function importCircles(root: string, dirs: string[]): string[] {
	const files = dirs.flatMap((dir) =>
		existsSync(path.join(root, dir)) ? tsFiles(path.join(root, dir)) : [],
	);
	const inScope = new Set(files);
	const importsOf = new Map(
		files.map((file) => [
			file,
			specifiersOf(readFileSync(file, 'utf8'))
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => resolveRelative(file, specifier))
				.filter((target): target is string => target !== undefined && inScope.has(target)),
		]),
	);
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const components: string[][] = [];
	const connect = (file: string) => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		onStack.add(file);
		for (const target of importsOf.get(file)!) {
			if (!index.has(target)) {
				connect(target);
				low.set(file, Math.min(low.get(file)!, low.get(target)!));
			} else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
		}
		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		const selfImport = importsOf.get(file)!.includes(file);
		if (component.length > 1 || selfImport) components.push(component);
	};
	for (const file of [...files].sort()) if (!index.has(file)) connect(file);
	const name = (file: string) => path.relative(root, file).split(path.sep).join('/');
	return components.map((component) => {
		// The shortest way from the first module back to it through the tangle (breadth first).
		const members = new Set(component);
		const start = [...component].sort()[0];
		const cameFrom = new Map<string, string>();
		const queue = [start];
		let closing: string | undefined;
		while (queue.length && !closing) {
			const at = queue.shift()!;
			for (const target of importsOf.get(at)!.filter((file) => members.has(file))) {
				if (target === start) {
					closing = at;
					break;
				}
				if (cameFrom.has(target)) continue;
				cameFrom.set(target, at);
				queue.push(target);
			}
		}
		const circle = [start];
		for (let at = closing!; at !== start; at = cameFrom.get(at)!) circle.splice(1, 0, at);
		const tied = component.length > circle.length ? ` (${component.length} modules tied)` : '';
		return `${[...circle, start].map(name).join(' -> ')}${tied}`;
	});
}

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) return tsFiles(full);
		return full.endsWith('.ts') ? [full] : [];
	});
}

/** Imports of files under `dir` that reach into `forbidden`, relative or by a path naming it. */
function importsInto(dir: string, forbidden: string): string[] {
	const name = path.basename(forbidden);
	return tsFiles(dir).flatMap((file) =>
		specifiersOf(readFileSync(file, 'utf8'))
			.filter((specifier) =>
				specifier.startsWith('.')
					? (path.resolve(path.dirname(file), specifier) + path.sep).startsWith(
							forbidden + path.sep,
						)
					: specifier.split('/').includes(name),
			)
			.map((specifier) => `${path.relative(ROOT, file)}: ${specifier}`),
	);
}

/**
 * The modules of nodes/shared/ with no test file at their mirrored path, each with why and the
 * scenario tests (named as paths) that exercise it: only modules that need n8n's engine or the
 * sandbox gateway to show what they do, so a short list. A module leaves this list when it gets
 * tests of its own at its mirrored path.
 */
const TESTED_BY_SCENARIOS: Record<string, string> = {
	'nodes/shared/callbacks/resume.ts':
		"the restart webhook of a waiting Generate or Payout Create, called by n8n's waiting webhooks with the stored execution: test/shared/runner/sendAndWait.engine.test.ts",
	'nodes/shared/descriptions/sendAndWait.ts':
		"Send and Wait for Final Status's parameters and restart webhook, read by the engine when it runs, parks and resumes the node: test/shared/runner/sendAndWait.engine.test.ts",
	'nodes/shared/callbacks/confirm.ts':
		"Confirm With Service: a callback's reference looked up through the transport and compared with the sandbox's record, in the trigger's webhook and the wait's resume: test/trigger/confirmAttacks.test.ts, test/trigger/confirmedFacts.test.ts, test/shared/runner/sendAndWait.engine.test.ts",
	'nodes/shared/callbacks/hiddenValues.ts':
		"the secrets of a webhook request's credentials, read through n8n's credentials: test/trigger/secretEcho.test.ts, test/trigger/logSafety.test.ts",
	'nodes/shared/callbacks/jsonBody.ts':
		"a callback's body as n8n's server hands it to a webhook: test/trigger/bodyAttacks.test.ts",
	'nodes/shared/callbacks/loggable.ts':
		"what of a callback may reach n8n's log: test/trigger/logSafety.test.ts",
	'nodes/shared/callbacks/payload.ts':
		"reading a callback's body: test/trigger/helpers.test.ts, test/trigger/bodyAttacks.test.ts, test/trigger/sharedAmounts.test.ts",
	'nodes/shared/callbacks/rawJson.ts':
		"the amounts a callback's raw JSON states: test/trigger/helpers.test.ts",
	'nodes/shared/callbacks/signedCopy.ts':
		'a transaction copy contradicting the signed fields: test/trigger/sharedAmounts.test.ts',
	'nodes/shared/callbacks/verification.ts':
		"the signature check with each credential's Signing Secret, in the trigger's webhook and the wait's resume: test/trigger/verification.test.ts, test/trigger/signatureForms.test.ts, test/shared/runner/sendAndWait.engine.test.ts",
	'nodes/shared/runner/itemRunner.ts':
		"the item loop, carrying every plan out through the transport under n8n's continue-on-fail and pairedItem: only a node run in the engine against the sandbox shows it, test/faults/faultMatrix.test.ts, test/disbursement/payoutBatch.test.ts",
	'nodes/shared/runner/moneyLookUps.ts':
		"the money-safe path's look-ups after an unclear answer, sent through the transport to the sandbox's records and faults: test/faults/moneySafety.test.ts",
	'nodes/shared/runner/recordLookUps.ts':
		"Get, Wait for Final Status and Reconcile as the runner carries them out, each a look-up through the transport against the sandbox's records: test/collection/get.test.ts, test/faults/checkBeforePaying.test.ts",
	'nodes/shared/runner/router.ts':
		"a node's execute() in n8n: the run context, tool mode, the item loop and its output, only in the engine: test/collection/generate.test.ts",
	'nodes/shared/transport/ledger.ts':
		"the payout ledger's requests to n8n's Data Table API, through the node's Payout Ledger credential and n8n's httpRequestWithAuthentication against a local Data Table API with its faults: test/shared/runner/dailyCap.engine.test.ts",
	'nodes/shared/transport/tokenRequest.ts':
		"the credentials' token step, run by n8n's preAuthentication against the sandbox's token endpoints and a hostile network: test/collection/tokens.test.ts, test/faults/hostileNetwork.test.ts",
	'nodes/shared/transport/transport.ts':
		"the one HTTP path, through n8n's httpRequestWithAuthentication to the sandbox under every fault: test/faults/hostileNetwork.test.ts, test/faults/faultMatrix.test.ts",
};

/**
 * The test files of a module at its mirrored path: nodes/shared/runner/runStop.ts is tested by
 * test/shared/runner/runStop.test.ts and would be by runStop.engine.test.ts beside it.
 */
function mirroredTests(root: string, module: string): string[] {
	const stem = path.join(
		root,
		'test',
		'shared',
		path.relative(path.join(root, 'nodes', 'shared'), module),
	);
	return [
		`${stem.replace(/\.ts$/, '')}.test.ts`,
		`${stem.replace(/\.ts$/, '')}.engine.test.ts`,
	].filter((file) => {
		try {
			return statSync(file).isFile();
		} catch {
			return false;
		}
	});
}

/**
 * Modules of nodes/shared/ with no test at their mirrored path and not listed, list entries that
 * are wrong (a module that is gone or has its own test now, a reason naming no existing test file),
 * and test files of test/shared/ that mirror no module.
 */
export function unmirroredModules(
	root: string,
	listed: Record<string, string> = TESTED_BY_SCENARIOS,
): string[] {
	const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
	const modules = tsFiles(path.join(root, 'nodes', 'shared'));
	const problems = modules.flatMap((module) => {
		const name = relative(module);
		const tests = mirroredTests(root, module);
		if (tests.length > 0 && listed[name] !== undefined)
			return [
				`${name} is listed in TESTED_BY_SCENARIOS but has ${relative(tests[0])}: take it off the list`,
			];
		if (tests.length === 0 && listed[name] === undefined) {
			const stem = relative(module)
				.replace(/^nodes\//, 'test/')
				.replace(/\.ts$/, '');
			return [
				`${name} has no ${stem}.test.ts or ${stem}.engine.test.ts: add one, or list it in TESTED_BY_SCENARIOS with why`,
			];
		}
		return [];
	});
	const names = new Set(modules.map(relative));
	for (const [name, why] of Object.entries(listed)) {
		if (!names.has(name))
			problems.push(`${name} is listed in TESTED_BY_SCENARIOS but does not exist`);
		const cited = why.match(/test\/[\w/.]+\.test\.ts/g) ?? [];
		if (cited.length === 0 || cited.some((file) => !existsSync(path.join(root, file))))
			problems.push(
				`${name}: its reason must name the test files that exercise it, and they must exist`,
			);
	}
	const testShared = path.join(root, 'test', 'shared');
	for (const test of existsSync(testShared) ? tsFiles(testShared) : []) {
		const module = relative(test)
			.replace(/^test\/shared\//, 'nodes/shared/')
			.replace(/(\.engine)?\.test\.ts$/, '.ts');
		if (!names.has(module))
			problems.push(`${relative(test)} mirrors no module (${module} does not exist)`);
	}
	return problems;
}

/**
 * Test helpers out of place: a helper (a .ts file of test/ that is not a test) outside
 * test/harness/, and a helper named like a module of nodes/ or credentials/ (index.ts, a folder's
 * entry, aside). test/n8n/ is Playwright's suite, with its own helpers.
 */
export function misplacedHelpers(root: string): string[] {
	const test = path.join(root, 'test');
	const harness = path.join(test, 'harness');
	const sourceNames = new Set(
		[...tsFiles(path.join(root, 'nodes')), ...tsFiles(path.join(root, 'credentials'))].map((file) =>
			path.basename(file, '.ts'),
		),
	);
	return tsFiles(test)
		.filter(
			(file) => !file.endsWith('.test.ts') && !file.startsWith(path.join(test, 'n8n') + path.sep),
		)
		.flatMap((file) => {
			const where = path.relative(root, file).split(path.sep).join('/');
			if (!file.startsWith(harness + path.sep))
				return [`${where} is a test helper outside test/harness/: move it there`];
			const name = path.basename(file, '.ts');
			if (name !== 'index' && sourceNames.has(name))
				return [
					`${where} is named like a module of nodes/ or credentials/: name it for what it holds`,
				];
			return [];
		});
}

describe('the checks catch what they look for', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'structure-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));
	const write = (file: string, text: string) => {
		mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		writeFileSync(path.join(dir, file), text);
	};

	test('the walk follows relative imports, type-only and index files included, each file once', () => {
		write(
			'a.ts',
			"import { b } from './b';\nimport type { C } from './c';\nexport * from './lib';\nimport 'n8n-workflow';\n",
		);
		write('b.ts', "import { a } from './a';\nexport const b = a;\n");
		write('c.ts', 'export type C = string;\n');
		write('lib/index.ts', "export const lib = require('./d');\n");
		write('lib/d.ts', 'export {};\n');
		expect(
			walk(path.join(dir, 'a.ts'))
				.map((file) => path.relative(dir, file))
				.sort(),
		).toEqual(['a.ts', 'b.ts', 'c.ts', 'lib/d.ts', 'lib/index.ts']);
	});

	test('a planted upward import, a cross-node import and an operation reaching the transport are each reported', () => {
		mkdirSync(path.join(dir, 'credentials'));
		write(
			'nodes/shared/validation/amounts.ts',
			"import { call } from '../transport/transport';\nexport const x = 1;\n",
		);
		write(
			'nodes/shared/transport/transport.ts',
			"import { x } from '../validation/amounts';\nimport { ENDPOINTS } from './endpoints';\nexport const call = x;\n",
		);
		write('nodes/shared/transport/endpoints.ts', 'export const ENDPOINTS = {};\n');
		write('nodes/shared/runner/itemRunner.ts', "import { call } from '../transport/transport';\n");
		write('nodes/A/A.node.ts', "import { op } from './actions/op.operation';\n");
		write(
			'nodes/A/actions/op.operation.ts',
			"import { ENDPOINTS } from '../../shared/transport/endpoints';\nimport { h } from '../helpers/h';\nexport const op = 1;\n",
		);
		write(
			'nodes/A/helpers/h.ts',
			"import { call } from '../../shared/transport/transport';\nimport { op } from '../actions/op.operation';\nexport const h = 1;\n",
		);
		write('nodes/B/B.node.ts', "import { h } from '../A/helpers/h';\n");
		expect(layeringViolations(dir).sort()).toEqual([
			'nodes/A/helpers/h.ts imports ../../shared/transport/transport: an operation reaches the service through the runner, naming its request by endpoint (endpoints.ts) only',
			'nodes/A/helpers/h.ts imports ../actions/op.operation: A/helpers is below A parts',
			'nodes/B/B.node.ts imports ../A/helpers/h: B node file reaches into A/helpers',
			'nodes/shared/validation/amounts.ts imports ../transport/transport: shared/validation is below shared/transport',
		]);
	});

	test('a description file that works on an execution is reported', () => {
		write(
			'nodes/shared/descriptions/option.ts',
			"import type { INodeProperties } from 'n8n-workflow';\nexport const p: INodeProperties[] = [];\n",
		);
		write(
			'nodes/shared/descriptions/applied.ts',
			"import type { IExecuteFunctions } from 'n8n-workflow';\nexport const f = (ctx: IExecuteFunctions) => ctx;\n",
		);
		expect(runTimeDescriptions(dir)).toEqual(['nodes/shared/descriptions/applied.ts']);
	});

	test('module-level maps are read from the source with their key type; maps inside functions and classes are not', () => {
		const source = [
			"import type { IExecuteFunctions } from 'n8n-workflow';",
			'const perRun = new WeakMap<object, { values: Map<string, unknown> }>();',
			'export const byContext: Map<IExecuteFunctions, number> = new Map();',
			'let versions =',
			'\tnew Map<',
			'\t\tILoadOptionsFunctions,',
			'\t\tstring',
			'\t>();',
			'const byName = new Map<string, Map<string, number>>();',
			'const untyped = new Map();',
			'function f() {',
			'\tconst inside = new WeakMap<object, number>();',
			'\treturn inside;',
			'}',
			'class Holder {',
			'\tprivate readonly held = new Map<object, number>();',
			'}',
			'',
		].join('\n');
		expect(moduleLevelMapsIn(source)).toEqual([
			{ name: 'perRun', kind: 'WeakMap', key: 'object' },
			{ name: 'byContext', kind: 'Map', key: 'IExecuteFunctions' },
			{ name: 'versions', kind: 'Map', key: 'ILoadOptionsFunctions' },
			{ name: 'byName', kind: 'Map', key: 'string' },
			{ name: 'untyped', kind: 'Map', key: undefined },
		]);
	});

	test('a module-level map keyed by an execution context is reported, even one listed as a cross-run cache', () => {
		write(
			'nodes/shared/runner/itemValues.ts',
			'const perRun = new WeakMap<object, number>();\nexport function f() {\n\tconst local = new Map<object, number>();\n\treturn local;\n}\n',
		);
		write(
			'nodes/A/actions/formVersions.ts',
			"import type { IExecuteFunctions } from 'n8n-workflow';\nconst versions: Map<IExecuteFunctions, number> = new Map();\n",
		);
		write(
			'nodes/shared/transport/token.ts',
			'const inFlight = new Map<string, number>();\nconst recent = new Map<IWebhookFunctions, number>();\n',
		);
		write(
			'nodes/shared/transport/cache.ts',
			'export const lastAnswers = new Map<string, string>();\n',
		);
		const allowed = {
			'nodes/shared/transport/token.ts inFlight': 'shared by runs',
			'nodes/shared/transport/token.ts recent': 'shared by runs',
		};
		expect(perRunModuleState(dir, allowed).sort()).toEqual([
			'nodes/A/actions/formVersions.ts: versions is a module-level Map keyed by IExecuteFunctions: keep what a run holds in its run context',
			'nodes/shared/runner/itemValues.ts: perRun is a module-level WeakMap: keep what a run holds in its run context',
			'nodes/shared/transport/cache.ts: lastAnswers is a module-level Map that outlives runs: list it in CROSS_RUN_CACHES with why, or keep it in the run context',
			'nodes/shared/transport/token.ts: recent is a module-level Map keyed by IWebhookFunctions: keep what a run holds in its run context',
		]);
	});

	test('a module without a test at its mirrored path, and a wrong list entry or a stray test, are each reported', () => {
		for (const file of ['a', 'b', 'c', 'd'])
			write(`nodes/shared/runner/${file}.ts`, 'export const x = 1;\n');
		write('test/shared/runner/a.test.ts', '');
		write('test/shared/runner/b.engine.test.ts', '');
		write('test/shared/runner/gone.test.ts', '');
		write('test/shared/runner/helpers.ts', '');
		write('test/faults/c.test.ts', '');
		const listed = {
			'nodes/shared/runner/a.ts': 'exercised by test/faults/c.test.ts',
			'nodes/shared/runner/c.ts': 'exercised by test/faults/c.test.ts',
			'nodes/shared/runner/d.ts': 'exercised by the scenarios',
			'nodes/shared/runner/old.ts': 'exercised by test/faults/old.test.ts',
		};
		expect(unmirroredModules(dir, listed).sort()).toEqual([
			'nodes/shared/runner/a.ts is listed in TESTED_BY_SCENARIOS but has test/shared/runner/a.test.ts: take it off the list',
			'nodes/shared/runner/d.ts: its reason must name the test files that exercise it, and they must exist',
			'nodes/shared/runner/old.ts is listed in TESTED_BY_SCENARIOS but does not exist',
			'nodes/shared/runner/old.ts: its reason must name the test files that exercise it, and they must exist',
			'test/shared/runner/gone.test.ts mirrors no module (nodes/shared/runner/gone.ts does not exist)',
			'test/shared/runner/helpers.ts mirrors no module (nodes/shared/runner/helpers.ts does not exist)',
		]);
		const { 'nodes/shared/runner/c.ts': _c, ...withoutC } = listed;
		expect(unmirroredModules(dir, withoutC)).toContain(
			'nodes/shared/runner/c.ts has no test/shared/runner/c.test.ts or test/shared/runner/c.engine.test.ts: add one, or list it in TESTED_BY_SCENARIOS with why',
		);
	});

	test('a test helper outside test/harness/, or one named like a source module, is reported', () => {
		write('nodes/shared/validation/records.ts', 'export const x = 1;\n');
		write('nodes/A/helpers/payload.ts', 'export const x = 1;\n');
		write('nodes/A/methods/index.ts', 'export const x = 1;\n');
		write('credentials/A.credentials.ts', 'export const x = 1;\n');
		write('test/faults/helpers.ts', '');
		write('test/faults/badInput.test.ts', '');
		write('test/harness/records.ts', '');
		write('test/harness/setup/payload.ts', '');
		write('test/harness/index.ts', '');
		write('test/harness/collectionRuns.ts', '');
		write('test/n8n/fixtures.ts', '');
		expect(misplacedHelpers(dir).sort()).toEqual([
			'test/faults/helpers.ts is a test helper outside test/harness/: move it there',
			'test/harness/records.ts is named like a module of nodes/ or credentials/: name it for what it holds',
			'test/harness/setup/payload.ts is named like a module of nodes/ or credentials/: name it for what it holds',
		]);
	});

	test('an import circle is reported, through a type-only import and an index file too; a diamond is not', () => {
		// A tangle: the runner's contract and the daily maximum reading each other (as they once did).
		write(
			'nodes/shared/runner/operation.ts',
			"import type { DailyCap } from './dailyCap';\nimport { runParameter } from './itemValues';\n",
		);
		write(
			'nodes/shared/runner/dailyCap.ts',
			"import { readOption } from './operation';\nimport type { RunContext } from './runContext';\n",
		);
		write('nodes/shared/runner/itemValues.ts', "import type { RunContext } from './runContext';\n");
		write('nodes/shared/runner/runContext.ts', "import type { DailyCap } from './dailyCap';\n");
		// An entry point and its report importing each other, one through a folder's index file.
		write('scripts/bench.ts', "import * as report from './report';\n");
		write('scripts/report/index.ts', "export type { Options } from '../bench';\n");
		// A diamond and a module importing outside the scope: no circle.
		write('credentials/A.credentials.ts', "import { x } from './b';\nimport { y } from './c';\n");
		write('credentials/b.ts', "import { z } from './d';\n");
		write('credentials/c.ts', "import { z } from './d';\nimport { w } from '../test/w';\n");
		write('credentials/d.ts', 'export const z = 1;\n');
		write('test/w.ts', "import { y } from '../credentials/c';\n");
		expect(importCircles(dir, ['nodes', 'credentials', 'scripts']).sort()).toEqual([
			'nodes/shared/runner/dailyCap.ts -> nodes/shared/runner/operation.ts -> nodes/shared/runner/dailyCap.ts (4 modules tied)',
			'scripts/bench.ts -> scripts/report/index.ts -> scripts/bench.ts',
		]);
		// The fix of the runner's tangle: reading options below both, the type below the run context.
		write('nodes/shared/runner/options.ts', "import type { RunContext } from './runContext';\n");
		write(
			'nodes/shared/runner/operation.ts',
			"import type { DailyCap } from '../validation/days';\nimport { readOption } from './options';\n",
		);
		write(
			'nodes/shared/runner/dailyCap.ts',
			"import { readOption } from './options';\nimport type { RunContext } from './runContext';\n",
		);
		write(
			'nodes/shared/runner/runContext.ts',
			"import type { DailyCap } from '../validation/days';\n",
		);
		write('nodes/shared/validation/days.ts', 'export interface DailyCap {}\n');
		expect(importCircles(dir, ['nodes', 'credentials'])).toEqual([]);
		write('nodes/shared/validation/self.ts', "import { me } from './self';\n");
		expect(importCircles(dir, ['nodes'])).toEqual([
			'nodes/shared/validation/self.ts -> nodes/shared/validation/self.ts',
		]);
	});

	test('an import reaching into the forbidden folder is reported, by relative path or by name', () => {
		write('sandbox/ok.ts', "import { x } from './own';\nimport * as http from 'http';\n");
		write(
			'sandbox/deep/bad.ts',
			"import { ENDPOINTS } from '../../nodes/shared/transport/endpoints';\n",
		);
		write('sandbox/named.ts', "const s = require('n8n-nodes-payment-gateway/nodes/x');\n");
		write('sandbox/near.ts', "import { y } from '../nodes-like/y';\n");
		const found = importsInto(path.join(dir, 'sandbox'), path.join(dir, 'nodes')).sort();
		expect(found).toEqual([
			expect.stringContaining('sandbox/deep/bad.ts: ../../nodes/shared/transport/endpoints'),
			expect.stringContaining('sandbox/named.ts: n8n-nodes-payment-gateway/nodes/x'),
		]);
	});
});

describe('the shape of the package', () => {
	test('every import in nodes/ and credentials/ goes downward, and operations reach the service only through the runner', () => {
		expect(layeringViolations(ROOT)).toEqual([]);
	});

	test("shared/descriptions/ describes parameters only: applying them at run time is the runner's", () => {
		expect(runTimeDescriptions(ROOT)).toEqual([]);
	});

	test('no module-level state in nodes/ is keyed by an execution context: a run holds its own (runner/runContext.ts)', () => {
		expect(perRunModuleState(ROOT)).toEqual([]);
		// Every listed cache still exists, so the list cannot keep an entry for a map that is gone.
		const listed = tsFiles(path.join(ROOT, 'nodes')).flatMap((file) =>
			moduleLevelMapsIn(readFileSync(file, 'utf8')).map(
				({ name }) => `${path.relative(ROOT, file).split(path.sep).join('/')} ${name}`,
			),
		);
		expect(Object.keys(CROSS_RUN_CACHES).filter((entry) => !listed.includes(entry))).toEqual([]);
	});

	test('every module of nodes/shared/ has its own tests at its mirrored path, or is listed as tested through scenarios', () => {
		expect(unmirroredModules(ROOT)).toEqual([]);
	});

	test('test helpers live in test/harness/, none named like a module of nodes/', () => {
		expect(misplacedHelpers(ROOT)).toEqual([]);
	});

	test('no import circle among the modules of nodes/, credentials/ and scripts/ (type-only imports included)', () => {
		expect(importCircles(ROOT, ['nodes', 'credentials', 'scripts'])).toEqual([]);
	});

	test('no file in sandbox/ imports from nodes/', () => {
		expect(tsFiles(path.join(ROOT, 'sandbox')).length).toBeGreaterThan(10);
		expect(importsInto(path.join(ROOT, 'sandbox'), path.join(ROOT, 'nodes'))).toEqual([]);
	});
});

describe('the example workflows', () => {
	// n8n 1.x saves a workflow's static data (the trigger's record of accepted callbacks) only for
	// workflow ids of at most 16 characters (`isWorkflowIdValid`); n8n's own ids have 16. The demo
	// and the e2e import the examples with their ids, so a longer id would silently lose the record.
	const MAX_WORKFLOW_ID = 16;
	const examples = readdirSync(path.join(ROOT, 'examples')).filter((name) =>
		name.endsWith('.json'),
	);

	test(`each has a unique id of at most ${MAX_WORKFLOW_ID} characters`, () => {
		expect(examples.length).toBeGreaterThanOrEqual(6);
		const ids = examples.map((name) =>
			String(JSON.parse(readFileSync(path.join(ROOT, 'examples', name), 'utf8')).id ?? ''),
		);
		expect(ids.filter((id) => id.length === 0 || id.length > MAX_WORKFLOW_ID)).toEqual([]);
		expect(new Set(ids).size).toBe(ids.length);
	});
});
