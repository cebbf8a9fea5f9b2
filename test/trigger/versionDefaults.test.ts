/**
 * The trigger's description as n8n resolves it, per node version: Confirm With Service defaults to
 * off in version 1 (so stored version-1 workflows keep their behaviour) and on in version 2, and
 * the editor stores only what differs from the version's default. Checked with the n8n-workflow
 * the package builds against, with every n8n installed under .n8n-app/ (the versions the
 * end-to-end check runs), and on the built dist/ description once `npm run build` has made it.
 */
import { existsSync } from 'fs';
import { join } from 'path';
import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { confirmsByDefault } from '../../nodes/PaymentGatewayTrigger/helpers/settings';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import {
	implementations,
	loadAtRunTime,
	nodeOf,
	resolvedParameters,
	type Helpers,
} from '../harness/installedN8n';

const BUILT = join(
	__dirname,
	'../../dist/nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node.js',
);

const source = new PaymentGatewayTrigger().description;

const resolved = resolvedParameters;

/** What the editor saves in the workflow: only values that differ from the version's default. */
function saved(
	helpers: Helpers,
	description: INodeTypeDescription,
	typeVersion: number,
	chosen: INodeParameters,
) {
	const all = resolved(helpers, description, typeVersion, chosen);
	return helpers.getNodeParameters(
		description.properties,
		all,
		false,
		false,
		nodeOf(source, typeVersion, all),
		description,
	)!;
}

function shownNotices(
	helpers: Helpers,
	description: INodeTypeDescription,
	typeVersion: number,
	stored: INodeParameters = {},
) {
	const values = resolved(helpers, description, typeVersion, stored);
	return description.properties
		.filter((property: INodeProperties) => property.type === 'notice')
		.filter((property) =>
			helpers.displayParameter(values, property, nodeOf(source, typeVersion, values), description),
		)
		.map((property) => property.name);
}

test('versions 1 and 2, new nodes get version 2', () => {
	expect(source.version).toEqual([1, 2]);
	expect(source.defaultVersion).toBe(2);
	expect(
		source.properties.filter((property) => property.name === 'confirmWithService'),
	).toHaveLength(2);
});

describe.each(implementations)('%s', (_label, helpers) => {
	test('Confirm With Service: off by default in version 1, on in version 2', () => {
		expect(resolved(helpers, source, 1).confirmWithService).toBe(false);
		expect(resolved(helpers, source, 2).confirmWithService).toBe(true);
		// The fallback the trigger reads the setting with, should n8n not fill the default in.
		expect([1, 2].map(confirmsByDefault)).toEqual(
			[1, 2].map((version) => resolved(helpers, source, version).confirmWithService),
		);
	});

	test('a stored choice wins over either default', () => {
		expect(resolved(helpers, source, 1, { confirmWithService: true }).confirmWithService).toBe(
			true,
		);
		expect(resolved(helpers, source, 2, { confirmWithService: false }).confirmWithService).toBe(
			false,
		);
	});

	test('the editor stores only a choice that differs from the version default', () => {
		expect(saved(helpers, source, 1, { confirmWithService: false })).not.toHaveProperty(
			'confirmWithService',
		);
		expect(saved(helpers, source, 1, { confirmWithService: true })).toMatchObject({
			confirmWithService: true,
		});
		expect(saved(helpers, source, 2, { confirmWithService: true })).not.toHaveProperty(
			'confirmWithService',
		);
		expect(saved(helpers, source, 2, { confirmWithService: false })).toMatchObject({
			confirmWithService: false,
		});
	});

	test('version 2 shows what Confirm costs while on, and the risk once off; version 1 shows neither', () => {
		expect(shownNotices(helpers, source, 2)).toEqual([
			'callbackUrlNotice',
			'confirmNotice',
			'ledgerNotice',
		]);
		expect(shownNotices(helpers, source, 2, { confirmWithService: false })).toEqual([
			'callbackUrlNotice',
			'unconfirmedNotice',
			'ledgerNotice',
		]);
		expect(shownNotices(helpers, source, 1)).toEqual(['callbackUrlNotice', 'ledgerNotice']);
		expect(shownNotices(helpers, source, 1, { confirmWithService: true })).toEqual([
			'callbackUrlNotice',
			'ledgerNotice',
		]);
	});
});

test('the version 2 texts say what Confirm costs and how to turn it off', () => {
	const text = (name: string) => source.properties.filter((property) => property.name === name);
	expect(text('confirmWithService')[1].description).toMatch(
		/one look-up per callback, with the chosen credential/,
	);
	const [costs] = text('confirmNotice');
	expect(costs.displayName).toMatch(/one look-up of its reference with the chosen credential/);
	expect(costs.displayName).toMatch(/To skip the look-up, switch off Confirm With Service/);
	expect(text('unconfirmedNotice')[0].displayName).toMatch(/switch Confirm With Service on/);
});

(existsSync(BUILT) ? test : test.skip)(
	'the built dist/ description resolves the same defaults',
	() => {
		const built = new (
			loadAtRunTime(BUILT) as { PaymentGatewayTrigger: new () => PaymentGatewayTrigger }
		).PaymentGatewayTrigger().description;
		expect([built.version, built.defaultVersion]).toEqual([[1, 2], 2]);
		for (const [, helpers] of implementations) {
			expect([1, 2].map((version) => resolved(helpers, built, version).confirmWithService)).toEqual(
				[false, true],
			);
		}
	},
);
