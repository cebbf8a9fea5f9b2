/**
 * The Docs links' one place (nodes/shared/descriptions/documentation.ts), and the nodes' codex
 * files beside them: what n8n's nodes panel files each node under and finds it by.
 */
import collectionCodex from '../../../nodes/PaymentCollection/PaymentCollection.node.json';
import disbursementCodex from '../../../nodes/Disbursement/Disbursement.node.json';
import triggerCodex from '../../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node.json';
import { Disbursement } from '../../../nodes/Disbursement/Disbursement.node';
import { PaymentCollection } from '../../../nodes/PaymentCollection/PaymentCollection.node';
import { PaymentGatewayTrigger } from '../../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { README_URL, readmeSection } from '../../../nodes/shared/descriptions/documentation';

describe('Docs links', () => {
	test('a heading of the README is its anchor on the README page', () => {
		expect(readmeSection('credentials')).toBe(`${README_URL}#credentials`);
	});
});

describe('codex files (<Node>.node.json)', () => {
	const nodes = [
		{
			codex: collectionCodex,
			node: new PaymentCollection(),
			section: 'payment-gateway-collection',
			searches: ['payment link', 'GCash', 'Maya', 'PayMaya', 'checkout', 'invoice'],
		},
		{
			codex: disbursementCodex,
			node: new Disbursement(),
			section: 'payment-gateway-disbursement',
			searches: ['payout', 'disbursement', 'GCash', 'Maya', 'PayMaya', 'InstaPay', 'PESONet'],
		},
		{
			codex: triggerCodex,
			node: new PaymentGatewayTrigger(),
			section: 'payment-gateway-trigger',
			searches: ['payment webhook', 'payment callback', 'payout status'],
		},
	].map((entry) => ({ ...entry, name: entry.node.description.displayName }));

	test.each(nodes)(
		'$name: its node type, Finance & Accounting > Payment Processing, the README section and the credentials one',
		({ codex, node, section }) => {
			expect(codex).toMatchObject({
				node: `n8n-nodes-payment-gateway.${node.description.name}`,
				nodeVersion: '1.0',
				codexVersion: '1.0',
				categories: ['Finance & Accounting'],
				subcategories: { 'Finance & Accounting': ['Payment Processing'] },
				resources: {
					primaryDocumentation: [{ url: readmeSection(section) }],
					credentialDocumentation: [{ url: readmeSection('credentials') }],
				},
			});
		},
	);

	test.each(nodes)('$name: the words a Philippine user searches for', ({ codex, searches }) => {
		expect(codex.alias).toEqual(expect.arrayContaining(searches));
	});

	// n8n reads the description's codex before the file (n8n-core's DirectoryLoader), and only the
	// file for nodes loaded as custom extensions: a codex in the description would hide the file.
	test.each(nodes)('$name: the description declares no codex of its own', ({ node }) => {
		expect(node.description.codex).toBeUndefined();
	});
});
