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

	test('at its defaults one notice, where the callback URL goes; version 2 adds the risk once Confirm is off', () => {
		expect(shownNotices(helpers, source, 2)).toEqual(['callbackUrlNotice']);
		expect(shownNotices(helpers, source, 2, { confirmWithService: false })).toEqual([
			'callbackUrlNotice',
			'unconfirmedNotice',
		]);
		expect(shownNotices(helpers, source, 1)).toEqual(['callbackUrlNotice']);
		expect(shownNotices(helpers, source, 1, { confirmWithService: true })).toEqual([
			'callbackUrlNotice',
		]);
		expect(shownNotices(helpers, source, 2, { acceptUnsignedCallbacks: true })).toEqual([
			'callbackUrlNotice',
			'unsignedNotice',
		]);
	});
});

test('the version 2 texts say what Confirm costs and what turning it off risks', () => {
	const text = (name: string) => source.properties.filter((property) => property.name === name);
	expect(text('confirmWithService')[1].description).toMatch(
		/one look-up per callback, with the chosen credential; HTTP 503 when the service cannot be asked/,
	);
	expect(text('confirmWithService')[1].description).toMatch(
		/With it off, the status is as the callback states it/,
	);
	expect(text('unconfirmedNotice')[0].displayName).toMatch(/switch Confirm With Service on/);
});

test('every text reads alike in n8n 1.x and 2.x: none names a button only one of them has', () => {
	const texts = source.properties.flatMap((property) => [
		property.displayName,
		property.description ?? '',
	]);
	expect(
		texts.filter((text) => /Listen for test event|Execute step|Test this trigger/.test(text)),
	).toEqual([]);
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
