/**
 * The Docs links of the nodes' and credentials' panels, from one place. They lead to headings of
 * the README where the package is published: package.json's `homepage` without its "#readme".
 * Publishing under another repository changes README_URL, with package.json's `repository` and
 * `homepage`, the credentials' documentationUrl (n8n's lint wants each written out as text) and
 * the `url`s of the nodes' codex files (`nodes/<Node>/<Node>.node.json`, JSON cannot import);
 * test/docs/citations.test.ts holds them all to README_URL and proves every heading exists.
 */

export const README_URL = 'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway';

/** The README's heading with this anchor. */
export function readmeSection(anchor: string): string {
	return `${README_URL}#${anchor}`;
}
