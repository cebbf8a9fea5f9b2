/**
 * The shape of the package, so it cannot drift back unnoticed: a maintainer follows Payout > Create
 * through at most 10 files, no shipped file is over 200 lines, and the sandbox stays an independent
 * fake of the service (nothing of nodes/ in it). Each check is first shown to catch a violation
 * on files written for it, so a passing check is not a check that cannot fail.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const PAYOUT_CREATE = path.join(ROOT, 'nodes/Disbursement/actions/payout/create.operation.ts');
const MAX_WALK_FILES = 10;
const MAX_LINES = 200;

/** Every import, export-from and require specifier of a source text. */
function specifiersOf(text: string): string[] {
	return [...text.matchAll(/(?:\bfrom|\bimport|\brequire\()\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
}

/** The file a relative specifier names (file.ts, or a folder's index.ts), or undefined. */
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

/** Lines as `wc -l` counts them: a final newline ends the last line, it does not start another. */
function lineCount(file: string): number {
	const text = readFileSync(file, 'utf8');
	return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) return tsFiles(full);
		return full.endsWith('.ts') ? [full] : [];
	});
}

function longFiles(dirs: string[]): string[] {
	return dirs.flatMap(tsFiles).filter((file) => lineCount(file) > MAX_LINES).map((file) => `${path.relative(ROOT, file)}: ${lineCount(file)} lines`);
}

/** Imports of files under `dir` that reach into `forbidden`, relative or by a path naming it. */
function importsInto(dir: string, forbidden: string): string[] {
	const name = path.basename(forbidden);
	return tsFiles(dir).flatMap((file) =>
		specifiersOf(readFileSync(file, 'utf8'))
			.filter((specifier) =>
				specifier.startsWith('.')
					? (path.resolve(path.dirname(file), specifier) + path.sep).startsWith(forbidden + path.sep)
					: specifier.split('/').includes(name),
			)
			.map((specifier) => `${path.relative(ROOT, file)}: ${specifier}`),
	);
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
		write('a.ts', "import { b } from './b';\nimport type { C } from './c';\nexport * from './lib';\nimport 'n8n-workflow';\n");
		write('b.ts', "import { a } from './a';\nexport const b = a;\n");
		write('c.ts', 'export type C = string;\n');
		write('lib/index.ts', "export const lib = require('./d');\n");
		write('lib/d.ts', 'export {};\n');
		expect(walk(path.join(dir, 'a.ts')).map((file) => path.relative(dir, file)).sort()).toEqual(['a.ts', 'b.ts', 'c.ts', 'lib/d.ts', 'lib/index.ts']);
	});

	test('a file one line over the limit is reported, one at the limit is not', () => {
		write('at.ts', 'x\n'.repeat(MAX_LINES));
		write('over.ts', `${'x\n'.repeat(MAX_LINES)}x`);
		expect(lineCount(path.join(dir, 'at.ts'))).toBe(MAX_LINES);
		expect(longFiles([dir]).map((line) => path.basename(line.split(':')[0]))).toEqual(['over.ts']);
	});

	test('an import reaching into the forbidden folder is reported, by relative path or by name', () => {
		write('sandbox/ok.ts', "import { x } from './own';\nimport * as http from 'http';\n");
		write('sandbox/deep/bad.ts', "import { ENDPOINTS } from '../../nodes/shared/transport/endpoints';\n");
		write('sandbox/named.ts', "const s = require('n8n-nodes-payment-gateway/nodes/x');\n");
		write('sandbox/near.ts', "import { y } from '../nodes-like/y';\n");
		const found = importsInto(path.join(dir, 'sandbox'), path.join(dir, 'nodes')).sort();
		expect(found).toEqual([
			expect.stringContaining('sandbox/deep/bad.ts: ../../nodes/shared/transport/endpoints'),
			expect.stringContaining("sandbox/named.ts: n8n-nodes-payment-gateway/nodes/x"),
		]);
	});
});

describe('the shape of the package', () => {
	test(`Payout > Create and every file it imports are at most ${MAX_WALK_FILES} files`, () => {
		const files = walk(PAYOUT_CREATE).map((file) => path.relative(ROOT, file));
		expect(files).toContain('nodes/shared/runner/operation.ts');
		if (files.length > MAX_WALK_FILES) throw new Error(`The walk is ${files.length} files:\n${files.join('\n')}`);
	});

	test(`no .ts file in nodes/ or credentials/ is over ${MAX_LINES} lines`, () => {
		expect(longFiles([path.join(ROOT, 'nodes'), path.join(ROOT, 'credentials')])).toEqual([]);
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
	const examples = readdirSync(path.join(ROOT, 'examples')).filter((name) => name.endsWith('.json'));

	test(`each has a unique id of at most ${MAX_WORKFLOW_ID} characters`, () => {
		expect(examples.length).toBeGreaterThanOrEqual(6);
		const ids = examples.map((name) => String(JSON.parse(readFileSync(path.join(ROOT, 'examples', name), 'utf8')).id ?? ''));
		expect(ids.filter((id) => id.length === 0 || id.length > MAX_WORKFLOW_ID)).toEqual([]);
		expect(new Set(ids).size).toBe(ids.length);
	});
});
