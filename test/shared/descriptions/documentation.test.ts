/** The Docs links' one place (nodes/shared/descriptions/documentation.ts). */
import {
	README_URL,
	nodeCodex,
	readmeSection,
} from '../../../nodes/shared/descriptions/documentation';

describe('Docs links', () => {
	test('a heading of the README is its anchor on the README page', () => {
		expect(readmeSection('credentials')).toBe(`${README_URL}#credentials`);
	});

	test("a node's codex links its own section and the credentials' section, under Finance & Accounting", () => {
		expect(nodeCodex('payment-gateway-trigger', ['payment webhook'])).toEqual({
			categories: ['Finance & Accounting'],
			alias: ['payment webhook'],
			resources: {
				primaryDocumentation: [{ url: `${README_URL}#payment-gateway-trigger` }],
				credentialDocumentation: [{ url: `${README_URL}#credentials` }],
			},
		});
	});
});
