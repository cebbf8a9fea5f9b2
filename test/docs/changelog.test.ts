/**
 * CHANGELOG.md keeps the Keep a Changelog form docs/DEVELOPMENT.md's release steps rely on: an
 * [Unreleased] section on top, a section for the version package.json declares, every version a
 * semantic version with its date (or "not yet published" before its first release), only Keep a
 * Changelog's kinds of change, and a link for each heading. Dependabot leaves n8n-workflow alone.
 */
import { readFileSync } from 'fs';
import path from 'path';

import pkg from '../../package.json';

const ROOT = path.resolve(__dirname, '..', '..');
const KINDS = new Set(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']);

/** What keeps `text` from being a changelog in the form the release steps use, for `version`. */
export function changelogProblems(text: string, version: string): string[] {
	const problems: string[] = [];
	const headings = [...text.matchAll(/^## (.*)$/gm)].map((match) => match[1]);
	if (headings[0] !== '[Unreleased]') problems.push('the first section is not ## [Unreleased]');
	const versions = headings
		.filter((heading) => heading !== '[Unreleased]')
		.map((heading) => {
			const match = /^\[(\d+\.\d+\.\d+)\](?: - \d{4}-\d{2}-\d{2}| \(not yet published\))$/.exec(
				heading,
			);
			if (!match) problems.push(`## ${heading} is not "[x.y.z] - YYYY-MM-DD"`);
			return match?.[1];
		});
	if (!versions.includes(version)) problems.push(`no section for ${version} (package.json)`);
	for (const kind of text.matchAll(/^### (.*)$/gm))
		if (!KINDS.has(kind[1])) problems.push(`### ${kind[1]} is not a Keep a Changelog kind`);
	for (const name of ['Unreleased', ...versions.filter(Boolean)])
		if (!new RegExp(`^\\[${name}\\]: https://`, 'm').test(text))
			problems.push(`no link for [${name}]`);
	return problems;
}

describe('CHANGELOG.md', () => {
	const text = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');

	test("is in Keep a Changelog's form, with a section for package.json's version", () => {
		expect(changelogProblems(text, pkg.version)).toEqual([]);
	});

	test('the check catches a missing Unreleased section, a bad heading, kind and link', () => {
		const broken = text
			.replace('## [Unreleased]', '## Next')
			.replace('### Changed', '### Improved')
			.replace(/^\[0\.1\.0\]: .*$/m, '');
		expect(changelogProblems(broken, '0.2.0')).toEqual([
			'the first section is not ## [Unreleased]',
			'## Next is not "[x.y.z] - YYYY-MM-DD"',
			'no section for 0.2.0 (package.json)',
			'### Improved is not a Keep a Changelog kind',
			'no link for [0.1.0]',
		]);
	});
});

describe('.github/dependabot.yml', () => {
	const text = readFileSync(path.join(ROOT, '.github', 'dependabot.yml'), 'utf8');

	test('updates npm and GitHub Actions, and ignores n8n-workflow (a peer dependency) and its n8n-core', () => {
		expect([...text.matchAll(/package-ecosystem: (\S+)/g)].map((m) => m[1])).toEqual([
			'npm',
			'github-actions',
		]);
		expect(pkg.peerDependencies['n8n-workflow']).toBe('*');
		for (const name of ['n8n-workflow', 'n8n-core'])
			expect(text).toMatch(new RegExp(`- dependency-name: ${name}\\n`));
	});
});
