/**
 * What the README's Quick start and docs/e2e.md tell a newcomer about the demo and the example
 * workflows, against the repository: the number of examples they state is the number of files in
 * examples/ (all of which the demo imports), docs/e2e.md lists each file with its workflow's name,
 * the examples the Quick start suggests exist under the names it gives, and what it asks to plan
 * for is what the demo does (the n8n and Node.js it installs, where, and the port variable). The
 * README's table of examples is checked file by file in readmeFacts.test.ts.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { exampleLines, loadExamples } from '../../scripts/n8n/examples';
import { major, newestTarget } from '../../scripts/n8n/targets';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const E2E = readFileSync(join(ROOT, 'docs', 'e2e.md'), 'utf8');
const DEMO = readFileSync(join(ROOT, 'scripts', 'demo.ts'), 'utf8');
const PATHS = readFileSync(join(ROOT, 'scripts', 'n8n', 'paths.ts'), 'utf8');

const FILES = readdirSync(join(ROOT, 'examples'))
	.filter((file) => file.endsWith('.json'))
	.sort();
const NAMES = new Map(
	FILES.map((file) => [
		file,
		(JSON.parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) as { name: string }).name,
	]),
);

/** The README's text from a `## ` heading to the next one. */
function section(heading: string): string {
	const start = README.indexOf(`\n${heading}\n`);
	if (start < 0) throw new Error(`README has no heading "${heading}"`);
	const rest = README.slice(start + heading.length + 2);
	const end = rest.search(/\n## /);
	return end < 0 ? rest : rest.slice(0, end);
}

const NUMBERS =
	'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
		' ',
	);

/** Every "<number> example workflows" a text states ("the eight example workflows", "8 example workflows"). */
function statedCounts(text: string): number[] {
	const pattern = new RegExp(`\\b(${NUMBERS.join('|')}|\\d+) example workflows\\b`, 'gi');
	return [...text.matchAll(pattern)].map((match) => {
		const word = match[1].toLowerCase();
		return /^\d+$/.test(word) ? Number(word) : NUMBERS.indexOf(word);
	});
}

describe('the example workflows, as the docs count and name them', () => {
	test('examples/ holds workflows, and the demo imports every one of them', () => {
		expect(FILES.length).toBeGreaterThan(0);
		expect(loadExamples().map((example) => example.file)).toEqual(FILES);
	});

	test.each([
		['docs/e2e.md', E2E],
		['README.md', README],
	])('%s states their number as the number of files in examples/', (_doc, text) => {
		const counts = statedCounts(text);
		expect(counts.length).toBeGreaterThan(0);
		expect(counts).toEqual(counts.map(() => FILES.length));
	});

	test('the demo imports each under its number and its name: "01 Payouts from spreadsheet rows"', () => {
		expect(loadExamples().map(({ workflow }) => workflow.name)).toEqual(
			FILES.map((file) => `${file.slice(0, 2)} ${NAMES.get(file)}`),
		);
	});

	test("the banner lists them one a line, each link in the same column, as docs/e2e.md's picture of it shows", () => {
		const lines = exampleLines(loadExamples(), 'http://127.0.0.1:5678');
		expect(lines.map((line) => /^ {4}\d\d \S/.test(line))).toEqual(FILES.map(() => true));
		expect(new Set(lines.map((line) => line.indexOf('http://')))).toHaveProperty('size', 1);
		expect(E2E).toContain(lines[0]);
	});

	test("docs/e2e.md's table lists each file in examples/ with its workflow's name, and nothing else", () => {
		const rows = [...E2E.matchAll(/^\| `([\w-]+\.json)` \| \*([^*]+)\* \|/gm)].map((match) => [
			match[1],
			match[2],
		]);
		expect(rows).toEqual(FILES.map((file) => [file, NAMES.get(file)]));
	});
});

describe("the README's Quick start is what the demo does", () => {
	const quickStart = section('## Quick start');

	test('each example it suggests is named as in its file: "**Name** (example 01)"', () => {
		const suggested = [...quickStart.matchAll(/\*{1,2}([^*]+)\*{1,2} \(example (\d\d)\)/g)];
		expect(suggested.map((match) => match[2])).toEqual(['01', '02', '03', '10', '07']);
		for (const [, name, number] of suggested) {
			const file = FILES.find((candidate) => candidate.startsWith(`${number}-`));
			expect([number, file && NAMES.get(file)]).toEqual([number, name]);
		}
	});

	test('the n8n and Node.js the demo installs, the folder, and the port variable', () => {
		const newest = newestTarget();
		expect(quickStart).toContain(`installs n8n ${newest.n8n} into \`.n8n-app/\``);
		// The installs' folder unless N8N_APP_DIR moves it.
		expect(PATHS).toContain("process.env.N8N_APP_DIR || path.join(ROOT, '.n8n-app')");
		expect(quickStart).toContain(`Node.js ${major(newest.node)} from the npm registry`);
		// The demo reads the port from PGW_DEMO_PORT, 5678 without it.
		expect(DEMO).toContain('Number(process.env.PGW_DEMO_PORT) || 5678');
		expect(quickStart).toMatch(
			/Port 5678 taken\? The demo says so and moves to the next free port; `PGW_DEMO_PORT=\d+ npm start`/,
		);
	});
});
