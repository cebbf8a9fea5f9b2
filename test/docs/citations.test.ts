/**
 * Nothing the repository says points at something that is not there: every relative Markdown link,
 * #anchor and file named in a code span of the README and the docs, every name ARCHITECTURE.md's
 * "Where a fact lives" places in a file, every file a code comment names, every Docs link of the
 * node and credential panels. The service's interface document is not in the repository, so
 * nothing cites it by section: docs/endpoints.md states what the nodes rely on.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import type { CodexData } from 'n8n-workflow';
import { basename, dirname, join, relative } from 'path';

import { DisbursementApi } from '../../credentials/DisbursementApi.credentials';
import { PaymentCollectionApi } from '../../credentials/PaymentCollectionApi.credentials';
import { PaymentGatewayLedgerApi } from '../../credentials/PaymentGatewayLedgerApi.credentials';
import { Disbursement } from '../../nodes/Disbursement/Disbursement.node';
import { PaymentCollection } from '../../nodes/PaymentCollection/PaymentCollection.node';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { README_URL } from '../../nodes/shared/descriptions/documentation';

const ROOT = join(__dirname, '..', '..');
const SKIPPED_FOLDERS = new Set([
	'node_modules',
	'dist',
	'.git',
	'.n8n-app',
	'.demo',
	'.tools',
	'coverage',
]);

function filesUnder(folder: string): string[] {
	if (!existsSync(join(ROOT, folder))) return [];
	return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		if (SKIPPED_FOLDERS.has(entry.name)) return [];
		const path = join(folder, entry.name);
		return entry.isDirectory() ? filesUnder(path) : [path];
	});
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const MARKDOWN = [
	'README.md',
	...filesUnder('docs').filter((file) => file.endsWith('.md')),
	'sandbox/README.md',
	'test/harness/README.md',
];
const CODE_FOLDERS = ['nodes', 'credentials', 'sandbox', 'scripts', 'test'];
const CODE = CODE_FOLDERS.flatMap(filesUnder).filter((file) => /\.(ts|mjs)$/.test(file));
const THIS_FILE = relative(ROOT, __filename);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const [, text] of withoutCodeBlocks(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
		const plain = text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
		const base = plain
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.trim()
			.replace(/\s/g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** Fenced code blocks hold examples, not links. */
const withoutCodeBlocks = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** `[text](target)` links that stay in the repository. */
const relativeLinks = (markdown: string) =>
	[...withoutCodeBlocks(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
		.map((match) => match[1])
		.filter((link) => !/^[a-z]+:/i.test(link));

/** The text of every comment of a TypeScript file. */
const commentsOf = (source: string) =>
	[...source.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/[^\n]*/g)].map((match) => match[0]);

/**
 * A path with a folder and a file extension, as comments cite files (`shared/runner/x.ts`,
 * `docs/e2e.md`). A path after "<project>'s " (n8n's, a package's) is in that project, not here.
 */
const CITED_PATH =
	/(?<![\w@/.-]|[\w@/-]'s )((?:\.{1,2}\/)?(?:[\w.-]+\/)+[\w-]+(?:\.[\w-]+)*\.(?:ts|md|json|mjs|js|yml))\b/g;
/** A bare Markdown file name (`DESIGN.md`). */
const CITED_DOC = /(?<![\w/.-])([\w-]+\.md)\b/g;

/** A cited path is read from the citing file's folder or any folder above it, up to the repository root. */
function citedPathExists(citing: string, path: string): boolean {
	const folders = [dirname(citing)];
	while (folders[folders.length - 1] !== '.') folders.push(dirname(folders[folders.length - 1]));
	return folders.some((folder) => existsSync(join(ROOT, folder, path)));
}
const FILE_NAMES = new Set(
	['.', ...CODE_FOLDERS, 'docs', 'examples'].flatMap((folder) =>
		folder === '.' ? readdirSync(ROOT) : filesUnder(folder).map((file) => basename(file)),
	),
);

/** Citations of what is not in the repository: the design notes, the public-facts notes, sections of the interface document. */
const MISSING_SOURCES: Array<[string, RegExp]> = [
	['DESIGN.md', /DESIGN\.md/],
	['PUBLIC-FACTS', /PUBLIC-FACTS/],
	// Its numbered sections with sub-sections are 2.1-2.5 and 4.1-4.9; n8n versions such as 2.8 are not among them.
	[
		'a section of the interface document',
		/interface (?:document|doc)?,? ?(?:section )?\d|\bsections? \d(?:\.\d)?\b|\((?:[a-z]+[ ,]+)*(?:2\.[1-5]|4\.[1-9])(?:[-, ]+(?:2\.[1-5]|4\.[1-9]))*\)|(?:\/\/|\*) (?:2\.[1-5]|4\.[1-9])\b/i,
	],
];

/**
 * A file the docs name in a code span: a path (`shared/runner/options.ts`, found at the end of a
 * repository path) or a bare name (`approval.ts`). Not read as one: a placeholder
 * (`nodes/shared/X/Y.ts`), a name led by a dot (`.engine.test.ts` is a suffix), an absolute path,
 * and the demo's git-ignored state in `.demo/`.
 */
const NAMED_FILE = /^(?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|md|json|mjs|js|yml|png)$/;
const PLACEHOLDER = /(?:^|\/)[A-Z](?:[./]|$)/;
/** Names in the docs' code spans that are not files of this repository, and what they are. */
const NOT_OURS: Record<string, string> = {
	'Node.js': 'the runtime',
	'workflow-execute-additional-data.js': "n8n's own, in its installed package",
};
const REPOSITORY_FILES = filesUnder('.');

/** The files a Markdown text names in code spans that the repository does not hold, as `line: name`. */
function namedFilesMissing(markdown: string): string[] {
	const missing: string[] = [];
	withoutCodeBlocks(markdown)
		.split('\n')
		.forEach((line, index) => {
			for (const [, span] of line.matchAll(/`([^`]+)`/g))
				for (const name of span.split(/[\s,()]+/)) {
					if (!NAMED_FILE.test(name) || PLACEHOLDER.test(name) || name.startsWith('.demo/'))
						continue;
					if (name in NOT_OURS) continue;
					const held = REPOSITORY_FILES.some((file) => file === name || file.endsWith(`/${name}`));
					if (!held) missing.push(`${index + 1}: ${name}`);
				}
		});
	return missing;
}

describe('files the README and the docs name', () => {
	test.each(MARKDOWN)('%s: every file named in a code span is in the repository', (file) => {
		expect(namedFilesMissing(read(file))).toEqual([]);
	});

	test('the check catches a file that is not there, or has moved', () => {
		expect(
			namedFilesMissing(
				[
					'Options are read in `shared/runner/options.ts` (`readOption`), approvals in `approval.ts`.',
					'A callback was read in `PaymentGatewayTrigger/helpers/verification.ts` and `gone.ts`.',
					'Not files: `nodes/shared/X/Y.ts`, `.engine.test.ts`, `Node.js`, `.demo/ledger.json`.',
					'```',
					'`inAFence.ts`',
					'```',
				].join('\n'),
			),
		).toEqual(['2: PaymentGatewayTrigger/helpers/verification.ts', '2: gone.ts']);
	});
});

/**
 * The names a row of ARCHITECTURE.md's "Where a fact lives" gives (`readOption`, `RunContext`) that
 * no file named in that row declares: a fact whose home moved. Lower-case single words (`fields`,
 * `data`) are the service's or n8n's words, not declarations.
 */
function homesThatMoved(markdown: string): string[] {
	const start = markdown.indexOf('## Where a fact lives');
	const end = markdown.indexOf('\n## ', start + 1);
	const moved: string[] = [];
	for (const row of markdown.slice(start, end < 0 ? undefined : end).split('\n')) {
		if (!row.startsWith('| ')) continue;
		const spans = [...row.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
		const homes = spans
			.filter((span) => NAMED_FILE.test(span))
			.flatMap((span) =>
				REPOSITORY_FILES.filter((file) => file === span || file.endsWith(`/${span}`)),
			);
		const sources = homes.map(read);
		for (const name of spans.filter((span) => /^\w+$/.test(span) && /[A-Z_]/.test(span))) {
			const declaration = new RegExp(
				`\\b(?:function|const|let|class|interface|type|enum)\\s+${name}\\b`,
			);
			if (!sources.some((source) => declaration.test(source)))
				moved.push(`${name} is declared in none of ${homes.join(', ') || 'no file named'}`);
		}
	}
	return moved;
}

describe('the homes ARCHITECTURE.md names', () => {
	test('every name in "Where a fact lives" is declared in a file its row names', () => {
		expect(homesThatMoved(read('docs/ARCHITECTURE.md'))).toEqual([]);
	});

	test('the check catches a name whose home moved', () => {
		const row =
			'| reading a value | `shared/runner/operation.ts` (`readOption`, `readExecutionOptions`) |';
		expect(homesThatMoved(`## Where a fact lives\n\n${row}\n\n## Next`)).toEqual([
			'readOption is declared in none of nodes/shared/runner/operation.ts',
		]);
	});
});

describe('links in the README and the docs', () => {
	test.each(MARKDOWN)(
		'%s: every relative link names a file that exists, every #anchor a heading',
		(file) => {
			const links = relativeLinks(read(file));
			for (const link of links) {
				const [path, anchor] = link.split('#');
				const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
				expect([link, existsSync(join(ROOT, target))]).toEqual([link, true]);
				if (anchor !== undefined && target.endsWith('.md'))
					expect([link, anchorsOf(read(target)).has(anchor)]).toEqual([link, true]);
			}
		},
	);

	test("the anchor rule is GitHub's", () => {
		const anchors = anchorsOf(
			'# Money safety\n## Payout > Create (`create`)\n```\n# not a heading\n```\n## Money safety\n## What is documented, and what is assumed',
		);
		expect([...anchors]).toEqual([
			'money-safety',
			'payout--create-create',
			'money-safety-1',
			'what-is-documented-and-what-is-assumed',
		]);
	});
});

describe('files that comments cite', () => {
	test('the code scanned is all of it', () => {
		expect(CODE.length).toBeGreaterThan(150);
		expect(CODE).toContain(join('nodes', 'shared', 'transport', 'endpoints.ts'));
	});

	test('every file a comment in nodes/, credentials/, sandbox/, scripts/ or test/ names exists', () => {
		const missing: string[] = [];
		for (const file of CODE.filter((code) => code !== THIS_FILE)) {
			for (const comment of commentsOf(read(file))) {
				for (const [, path] of comment.matchAll(CITED_PATH))
					if (!citedPathExists(file, path)) missing.push(`${file}: ${path}`);
				for (const [, name] of comment.matchAll(CITED_DOC))
					if (!FILE_NAMES.has(name)) missing.push(`${file}: ${name}`);
			}
		}
		expect(missing).toEqual([]);
	});

	test('nothing cites the design notes, the public-facts notes or a section of the interface document', () => {
		const texts = [...MARKDOWN, ...CODE.filter((file) => file !== THIS_FILE)];
		const citing: string[] = [];
		for (const file of texts) {
			read(file)
				.split('\n')
				.forEach((line, index) => {
					for (const [what, pattern] of MISSING_SOURCES)
						if (pattern.test(line))
							citing.push(`${file}:${index + 1} cites ${what}: ${line.trim()}`);
				});
		}
		expect(citing).toEqual([]);
	});

	test('the citation checks catch what they are for', () => {
		const missingPaths = (comment: string) =>
			[...comment.matchAll(CITED_PATH)]
				.map((match) => match[1])
				.filter((path) => !citedPathExists('nodes/shared/x.ts', path));
		expect(
			missingPaths(
				"// see shared/runner/nowhere.ts, runner/moneySafe.ts, docs/e2e.md and n8n's packages/cli/src/x.ts",
			),
		).toEqual(['shared/runner/nowhere.ts']);
		expect(FILE_NAMES.has('DESIGN.md')).toBe(false);
		const cites = (line: string) => MISSING_SOURCES.some(([, pattern]) => pattern.test(line));
		expect(
			[
				'(interface 4.3)',
				'interface document 4.4',
				'(interface document, 3)',
				'a subtotal (2.2)',
				'DESIGN.md section 3',
				'// 4.1 Create Token',
			].map(cites),
		).toEqual([true, true, true, true, true, true]);
		expect(
			[
				'n8n-core (2.41)',
				'Node.js 24.21.0',
				'1.43x (2.8)',
				'(load 4.2-7.4)',
				'the interface document does not show it',
			].map(cites),
		).toEqual([false, false, false, false, false]);
	});
});

describe('Docs links of the node and credential panels', () => {
	const { homepage, repository } = JSON.parse(read('package.json')) as {
		homepage: string;
		repository: { url: string };
	};
	const anchors = anchorsOf(read('README.md'));
	const nodes = [new PaymentCollection(), new Disbursement(), new PaymentGatewayTrigger()];
	const codexFiles = filesUnder('nodes').filter((file) => file.endsWith('.node.json'));
	const codexLinks = codexFiles.flatMap((file) =>
		Object.values((JSON.parse(read(file)) as CodexData).resources ?? {})
			.flat()
			.map((resource): [string, string] => [basename(file), resource.url]),
	);
	const credentialLinks: Array<[string, string]> = [
		new PaymentCollectionApi(),
		new DisbursementApi(),
		new PaymentGatewayLedgerApi(),
	].map((credential) => [credential.name, String(credential.documentationUrl)]);

	test("one place names the README's page, and it is package.json's homepage and repository", () => {
		expect([homepage, repository.url]).toEqual([`${README_URL}#readme`, `${README_URL}.git`]);
	});

	test('every node has its codex file beside it, with its Docs link and the credentials one', () => {
		expect(codexFiles.sort()).toEqual(
			nodes
				.map(({ constructor }) => `nodes/${constructor.name}/${constructor.name}.node.json`)
				.sort(),
		);
		expect(codexLinks).toHaveLength(2 * nodes.length);
	});

	test.each(credentialLinks)(
		"%s's documentationUrl is README_URL's Credentials heading",
		(_owner, url) => {
			expect(url).toBe(`${README_URL}#credentials`);
		},
	);

	test.each([...codexLinks, ...credentialLinks])(
		'%s: %s points at a heading of the README',
		(_owner, url) => {
			const [page, anchor] = url.split('#');
			expect(page).toBe(README_URL);
			expect([anchor, anchors.has(anchor)]).toEqual([anchor, true]);
		},
	);
});
