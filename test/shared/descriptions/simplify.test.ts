/**
 * The "Simplify" option (nodes/shared/descriptions/simplify.ts): on by default for an AI agent's
 * tool, off for a workflow, as n8n-workflow's own `displayParameter` resolves `@tool`.
 */
import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { simplifyProperties } from '../../../nodes/shared/descriptions/simplify';

const show = { resource: ['payout'], operation: ['get'] };
const properties = simplifyProperties(show);
const nodeType = (name: string) => ({ name }) as INodeTypeDescription;

describe('simplifyProperties', () => {
	test.each([
		['n8n-nodes-payment-gateway.disbursement', false],
		['n8n-nodes-payment-gateway.disbursementTool', true],
	])('node type %s: one Simplify shown, default %p', (name, byDefault) => {
		const shown = properties.filter((property) =>
			NodeHelpers.displayParameter(
				{ resource: 'payout', operation: 'get' },
				property,
				{ typeVersion: 1 },
				nodeType(name),
			),
		);
		expect(shown).toHaveLength(1);
		expect(shown[0]).toMatchObject({ name: 'simplify', type: 'boolean', default: byDefault });
	});

	test('neither is shown for another operation', () => {
		for (const name of ['x.disbursement', 'x.disbursementTool'])
			expect(
				properties.filter((property) =>
					NodeHelpers.displayParameter(
						{ resource: 'payout', operation: 'create' },
						property,
						{ typeVersion: 1 },
						nodeType(name),
					),
				),
			).toEqual([]);
	});

	test("the conditions given are kept, the caller's object untouched", () => {
		expect(properties.map((p) => p.displayOptions?.show)).toEqual([
			{ ...show, '@tool': [true] },
			{ ...show, '@tool': [false] },
		]);
		expect(show).toEqual({ resource: ['payout'], operation: ['get'] });
	});
});
