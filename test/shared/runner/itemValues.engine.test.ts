/**
 * Column reads taken from the item: a field mapped as plain `{{ $json.amount }}` or
 * `{{ $json["Reference No"] }}` is read from the item itself (nodes/shared/runner/itemValues.ts) only where that
 * gives exactly what n8n's expression gives. The same rows run through the node twice in n8n's
 * engine, once with such reads and once with `{{ ($json.amount) }}`, which n8n evaluates the same
 * way but the node leaves to n8n; every output and error must be the same. Then each n8n-workflow
 * (the package's and every installed n8n's) evaluates the reads the node takes itself.
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeTypeDescription,
	Workflow,
} from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { ExecuteContext } from 'n8n-core';

import { ASK_N8N, columnRead, itemColumn } from '../../../nodes/shared/runner/itemValues';
import { freshStart, jsonOf, run, setUp, type Setup } from '../../harness/disbursementRuns';
import { loadAtRunTime } from '../../harness/installedN8n';
import { existsSync, readdirSync } from 'fs';
import { join } from 'path';

/** A column the row lacks. */
const MISSING = Symbol('missing');

/** Cell values: spreadsheets' strings and numbers, and what an expression or Code node may hold. */
const CELLS: Array<[string, unknown]> = [
	['text', 'GCASH'],
	['other text', 'abc'],
	['padded text', '  09171234567  '],
	['empty string', ''],
	['blank string', '   '],
	['numeric string', '100'],
	['decimal string', '100.50'],
	['leading zeros', '007'],
	['thousands', '1,000'],
	['non-ASCII text', 'Numéro 金額'],
	['text like an expression', '={{ 1 + 1 }}'],
	['braces', '{{ $json.amount }}'],
	['number', 100],
	['zero', 0],
	['decimal', 1500.5],
	['negative', -5],
	['negative zero', -0],
	['NaN', NaN],
	['Infinity', Infinity],
	['true', true],
	['false', false],
	['null', null],
	['undefined', undefined],
	['missing', MISSING],
	['object', { amount: 100 }],
	['nested object', { a: { b: 'c' } }],
	['array', [100, 200]],
	['empty array', []],
	['Date', new Date('2026-01-02T03:04:05Z')],
];

/** The payout fields, each read from a column named as spreadsheets name them. */
const FIELDS: Array<{ param: string; column: string; expression: string; valid: unknown }> = [
	{ param: 'channel', column: 'channel', expression: '$json.channel', valid: 'GCASH' },
	{ param: 'amount', column: '金額', expression: '$json["金額"]', valid: 100 },
	{
		param: 'referenceNo',
		column: 'Numéro de référence',
		expression: "$json['Numéro de référence']",
		valid: 'CR',
	},
	{ param: 'callbackWebhookUrl', column: 'call back', expression: '$json["call back"]', valid: '' },
	{
		param: 'mobileNumber',
		column: 'mobile.number',
		expression: '$json["mobile.number"]',
		valid: '09171234567',
	},
];

function parametersWith(wrap: (expression: string) => string): INodeParameters {
	const parameters: INodeParameters = {
		resource: 'payout',
		operation: 'create',
		runMode: 'dryRun',
		mappingMode: 'defineBelow',
		channelType: 'eWallet',
	};
	for (const field of FIELDS) parameters[field.param] = `={{ ${wrap(field.expression)} }}`;
	return parameters;
}

/** One row per field and cell: that field's column holds the cell, the others a valid value. */
const rows: IDataObject[] = FIELDS.flatMap((field) =>
	CELLS.map(([, cell], i) => {
		const row: IDataObject = {};
		for (const other of FIELDS) row[other.column] = other.valid as IDataObject[string];
		row['Numéro de référence'] = `CR-${field.param}-${i}`;
		if (cell === MISSING) delete row[field.column];
		else row[field.column] = cell as IDataObject[string];
		return row;
	}),
);

describe('Payout Create, mapped fields: column reads in n8n-core engine', () => {
	let setup: Setup;
	beforeAll(async () => {
		setup = await setUp();
	});
	afterAll(async () => await setup.gw.close());
	beforeEach(() => freshStart(setup));

	/** Runs the node; returns its outputs and, per parameter, the rows n8n evaluated it for. */
	async function runRead(wrap: (expression: string) => string) {
		const spy = jest.spyOn(ExecuteContext.prototype as never, '_getNodeParameter' as never);
		try {
			const result = await run(setup, parametersWith(wrap), {
				items: rows,
				onError: 'continueRegularOutput',
				typeVersion: 2,
			});
			const evaluated = new Map<string, Set<number>>();
			for (const [name, itemIndex] of spy.mock.calls as unknown as Array<[string, number]>) {
				evaluated.set(name, (evaluated.get(name) ?? new Set()).add(itemIndex));
			}
			return { result, evaluated };
		} finally {
			spy.mockRestore();
		}
	}

	test(`${CELLS.length} cells in each of ${FIELDS.length} fields: the same outputs and errors as n8n's own evaluation`, async () => {
		const direct = await runRead((expression) => expression);
		const throughN8n = await runRead((expression) => `(${expression})`);
		expect(direct.result.error).toEqual(throughN8n.result.error);
		expect(jsonOf(direct.result)).toEqual(jsonOf(throughN8n.result));
		expect(jsonOf(direct.result)).toHaveLength(rows.length + 1);
		// Each row is either read directly or left to n8n, exactly as itemColumn decides.
		for (const field of FIELDS) {
			const leftToN8n = rows.flatMap((row, i) =>
				itemColumn(row, field.column) === ASK_N8N ? [i] : [],
			);
			expect([
				field.param,
				[...(direct.evaluated.get(field.param) ?? [])].sort((a, b) => a - b),
			]).toEqual([field.param, leftToN8n]);
			expect(throughN8n.evaluated.get(field.param)?.size).toBe(rows.length);
		}
		expect(setup.gw.stats().attemptsByReference).toEqual({});
	});
});

/** Every n8n-workflow this package runs in: its own and each installed n8n's (as installedN8n.ts finds them). */
const APPS = join(__dirname, '..', '..', '..', '.n8n-app');
const workflows: Array<[string, typeof n8nWorkflow]> = [['n8n-workflow (package)', n8nWorkflow]];
for (const app of existsSync(APPS)
	? readdirSync(APPS).filter((name) => name.startsWith('n8n-'))
	: []) {
	const path = join(APPS, app, 'node_modules/n8n-workflow');
	if (existsSync(path))
		workflows.push([`n8n-workflow of ${app}`, loadAtRunTime(path) as typeof n8nWorkflow]);
}

/** Keys as sheets and APIs name columns, each with the expression forms that read it. */
const KEYS: Array<[string, string[]]> = [
	['amount', ['$json.amount', '$json["amount"]', "$json['amount']"]],
	['Reference No', ['$json["Reference No"]', "$json['Reference No']"]],
	['Numéro de référence', ['$json["Numéro de référence"]']],
	['金額', ['$json["金額"]', "$json['金額']"]],
	['a.b', ['$json["a.b"]']],
	['default', ['$json.default']],
	['toString', ['$json.toString']],
];

const SPACING = [
	(e: string) => `={{ ${e} }}`,
	(e: string) => `={{${e}}}`,
	(e: string) => `={{\n\t${e}  }}`,
];

describe.each(workflows)('%s', (_label, w) => {
	const description = {
		name: 't',
		displayName: 'T',
		group: [],
		version: 1,
		description: '',
		defaults: {},
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeTypeDescription;
	const nodeType = { description };
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node = { id: '1', name: 'N', type: 't', typeVersion: 1, position: [0, 0], parameters: {} };
	const workflow = new w.Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	} as never) as unknown as Workflow;
	const evaluate = (expression: string, json: IDataObject): unknown =>
		workflow.expression.getParameterValue(
			expression,
			null,
			0,
			0,
			'N',
			[{ json }] as INodeExecutionData[],
			'manual',
			{},
			undefined,
			false,
			{},
		);

	test.each(KEYS)(
		'column %j: every value the node reads itself is what n8n gives',
		(key, forms) => {
			let taken = 0;
			for (const form of forms)
				for (const spaced of SPACING) {
					const expression = spaced(form);
					expect([expression, columnRead(expression)]).toEqual([
						expression,
						key === 'toString' ? null : key,
					]);
					for (const [label, cell] of CELLS) {
						const json: IDataObject = { other: 1 };
						if (cell !== MISSING) json[key] = cell as IDataObject[string];
						const read = columnRead(expression) === null ? ASK_N8N : itemColumn(json, key);
						if (read === ASK_N8N) continue;
						taken++;
						expect([expression, label, Object.is(evaluate(expression, json), read)]).toEqual([
							expression,
							label,
							true,
						]);
					}
				}
			if (key !== 'toString') expect(taken).toBeGreaterThan(0);
		},
	);

	test('what the node leaves to n8n: objects, NaN, Infinity and -0 values, refused names', () => {
		const json: IDataObject = { obj: { a: 1 }, nan: NaN, inf: Infinity, negz: -0 };
		for (const key of Object.keys(json)) expect(itemColumn(json, key)).toBe(ASK_N8N);
		// n8n hands over the item's own object (and rewrites dates inside it after evaluation).
		expect(evaluate('={{ $json.obj }}', json)).toBe(json.obj);
		for (const expression of [
			'={{ $json.constructor }}',
			'={{ $json["__proto__"] }}',
			'={{ $json.constructorName }}',
			'={{ $json["a.constructor"] }}',
			'={{ $json.hasOwnProperty }}',
			'={{ $json._load }}',
			'={{ $json.amount ?? "" }}',
			'={{ $json.a.b }}',
			'={{ $json["amount"]["x"] }}',
			'={{ $json . amount }}',
			'={{ $json["a}}b"] }}',
			'={{ $json["a\\"b"] }}',
			'={{ $json.amount }} ',
			'= {{ $json.amount }}',
			'={{ $json.amount }}{{ $json.amount }}',
			'={{ $json.amount.toFixed(2) }}',
			'={{ ($json.amount) }}',
			'={{ $json[`amount`] }}',
		])
			expect([expression, columnRead(expression)]).toEqual([expression, null]);
		// The names n8n refuses are refused by the node before n8n sees them.
		expect(() => evaluate('={{ $json.constructor }}', {})).toThrow();
		expect(() => evaluate('={{ $json["__proto__"] }}', {})).toThrow();
		expect(() => evaluate('={{ $json.constructorName }}', { constructorName: 'x' })).toThrow();
	});
});
