/**
 * The Docs links of the nodes' and credentials' panels, from one place. They lead to headings of
 * the README where the package is published: package.json's `homepage` without its "#readme".
 * Publishing under another repository changes README_URL, with package.json's `repository` and
 * `homepage`, and the credentials' documentationUrl (n8n's lint wants each written out as text);
 * test/docs/citations.test.ts holds them all to README_URL and proves every heading exists.
 */
import type { CodexData } from 'n8n-workflow';

export const README_URL = 'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway';

/** The README's heading with this anchor. */
export function readmeSection(anchor: string): string {
	return `${README_URL}#${anchor}`;
}

/**
 * A node's codex, which n8n reads from the node's description: its category and the words the
 * nodes panel finds it by, and its Docs links (the README's section on the node, and on credentials).
 */
export function nodeCodex(section: string, alias: string[]): CodexData {
	return {
		categories: ['Finance & Accounting'],
		alias,
		resources: {
			primaryDocumentation: [{ url: readmeSection(section) }],
			credentialDocumentation: [{ url: readmeSection('credentials') }],
		},
	};
}
