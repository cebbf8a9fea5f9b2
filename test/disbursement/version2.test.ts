/**
 * Disbursement node version 2: the tidied Payout > Create form, resolved by n8n's own helpers (the
 * package's n8n-workflow and each installed n8n's), and run in n8n's engine against the sandbox.
 * Version 1 must stay exactly as stored workflows know it: its properties and defaults are
 * compared with the description it had before version 2 (fixtures/version1Properties.json).
 */
import type {
	INodeParameters,
	INodeProperties,
	INodeTypeDescription,
	INodeTypes,
} from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';

import { Disbursement } from '../../nodes/Disbursement/Disbursement.node';
import { implementations, nodeOf, resolvedParameters, type Helpers } from '../harness/installedN8n';
import version1Properties from './fixtures/version1Properties.json';
import {
	bankRow,
	freshStart,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../harness/disbursementRuns';

const source = new Disbursement().description;
const before: INodeTypeDescription = {
	...source,
	version: 1,
	defaultVersion: undefined,
	properties: version1Properties as INodeProperties[],
};

const resolved = resolvedParameters;

/** The properties the editor shows, as workflows depend on them: names, types, defaults, choices. */
function shown(
	helpers: Helpers,
	description: INodeTypeDescription,
	typeVersion: number,
	stored: INodeParameters,
) {
	const values = resolved(helpers, description, typeVersion, stored);
	const shape = (property: INodeProperties): unknown => ({
		name: property.name,
		type: property.type,
		default: property.default,
		required: property.required,
		noDataExpression: property.noDataExpression,
		typeOptions: property.typeOptions,
		options: property.options?.map((option) =>
			'value' in option ? option.value : shape(option as INodeProperties),
		),
	});
	return description.properties
		.filter((property) =>
			helpers.displayParameter(values, property, nodeOf(source, typeVersion, values), description),
		)
		.map(shape);
}

const CREATE = { resource: 'payout', operation: 'create' };
/** Stored version-1 parameters covering every branch of the form and every other operation. */
const VERSION_1_CASES: INodeParameters[] = [
	{},
	CREATE,
	{ ...CREATE, channelType: 'eWallet' },
	{ ...CREATE, mappingMode: 'autoMapInputData' },
	{ ...CREATE, channelType: 'eWallet', mappingMode: 'autoMapInputData' },
	{ ...CREATE, callbackWebhookUrl: 'https://n8n.example.com/webhook/x' },
	{ ...CREATE, options: { dryRun: true, maxAmountPerPayout: 50000 } },
	{ resource: 'payout', operation: 'get' },
	{ resource: 'payout', operation: 'repost' },
	{ resource: 'payout', operation: 'waitForFinalStatus' },
	{ resource: 'wallet', operation: 'getMany' },
	{ resource: 'wallet', operation: 'getTransactions' },
	{ resource: 'bank', operation: 'getMany' },
	{ resource: 'authorization', operation: 'get' },
];

test('versions 1, 2 and 3 (the summary on its own output), new nodes get version 3', () => {
	expect([source.version, source.defaultVersion]).toEqual([[1, 2, 3], 3]);
});

describe.each(implementations)('%s', (_label, helpers) => {
	test.each(VERSION_1_CASES)(
		'version 1 shows and fills in exactly what it did before version 2: %j',
		(stored) => {
			expect(shown(helpers, source, 1, stored)).toEqual(shown(helpers, before, 1, stored));
			expect(resolved(helpers, source, 1, stored)).toEqual(resolved(helpers, before, 1, stored));
		},
	);

	test('version 2 defaults: Pay, input columns mapped automatically, limits empty', () => {
		expect(resolved(helpers, source, 2, CREATE)).toMatchObject({
			runMode: 'pay',
			mappingMode: 'autoMapInputData',
			options: {},
		});
		const manual = resolved(helpers, source, 2, { ...CREATE, mappingMode: 'defineBelow' });
		expect(manual).toMatchObject({ additionalFields: {} });
		for (const name of ['receiverType', 'receiverGender', 'senderMiddleName', 'receiverEmail'])
			expect(manual).not.toHaveProperty(name);
	});

	test('version 2 groups the optional bank-transfer fields and lists the enumerations', () => {
		const names = (stored: INodeParameters) =>
			(shown(helpers, source, 2, stored) as Array<{ name: string }>).map(({ name }) => name);
		const bank = names({ ...CREATE, mappingMode: 'defineBelow' });
		expect(bank).toEqual([
			'resource',
			'operation',
			'moneyNotice',
			'runMode',
			'channelType',
			'channel',
			'mappingMode',
			'amount',
			'referenceNo',
			'callbackWebhookUrl',
			'callbackMissingNotice',
			'bankCode',
			'senderFirstName',
			'senderLastName',
			'receiverAccountName',
			'receiverAccountNumber',
			'additionalFields',
			'extraChannelFields',
			'sendAndWait',
			'options',
			'simplify',
		]);
		// Waiting, the callback URL is the execution's resume URL: its field gives way to the wait's.
		const waiting = names({ ...CREATE, mappingMode: 'defineBelow', sendAndWait: true });
		expect(waiting).toEqual(
			expect.arrayContaining([
				'sendAndWaitNotice',
				'waitTimeLimitMinutes',
				'waitConfirmWithService',
			]),
		);
		expect(waiting).not.toContain('callbackWebhookUrl');
		expect(waiting).not.toContain('callbackMissingNotice');
		expect(names({ ...CREATE, channelType: 'eWallet', mappingMode: 'defineBelow' })).toContain(
			'mobileNumber',
		);
		expect(names({ ...CREATE, channelType: 'eWallet' })).not.toContain('additionalFields');

		const additional = source.properties.find((p) => p.name === 'additionalFields')!;
		const field = (name: string) =>
			(additional.options as INodeProperties[]).find((option) => option.name === name)!;
		expect((additional.options as INodeProperties[]).map((option) => option.name)).toEqual([
			'senderMiddleName',
			'senderSuffix',
			'receiverType',
			'receiverMobileNumber',
			'receiverEmail',
			'receiverAddress',
			'receiverBarangay',
			'receiverCity',
			'receiverZipCode',
			'receiverGender',
		]);
		expect(field('receiverType')).toMatchObject({ type: 'options', default: 'INDIVIDUAL' });
		expect(field('receiverType').options).toEqual([
			{ name: 'Corporate', value: 'CORPORATE' },
			{ name: 'Individual', value: 'INDIVIDUAL' },
		]);
		expect(field('receiverGender').options).toEqual([
			{ name: 'Female', value: 'FEMALE' },
			{ name: 'Male', value: 'MALE' },
		]);
		// An expression stays allowed.
		expect(field('receiverType').noDataExpression).toBeUndefined();
	});

	test('version 2 Options: no Dry Run to add (it is Mode; a stored one shows only while on), and no limit pre-filled', () => {
		const options = source.properties.filter(
			(p) => p.name === 'options' && p.displayOptions?.show?.operation?.[0] === 'create',
		);
		const v2 = options.find((p) =>
			helpers.displayParameter(CREATE, p, nodeOf(source, 2, CREATE), source),
		)!;
		const byName = Object.fromEntries(
			(v2.options as INodeProperties[]).map((option) => [option.name, option]),
		);
		expect(Object.keys(byName).sort()).toEqual([
			'allowedRecipients',
			'concurrency',
			'dayTimeZone',
			'dryRun',
			'endpointPath',
			'maxAmountPerPayout',
			'maxTotalPerDay',
			'maxTotalPerRun',
			'timeoutSeconds',
		]);
		// Version 1's Dry Run is shown only while a stored workflow holds it on: nobody adds it anew.
		expect(byName.dryRun.displayOptions).toEqual({ show: { dryRun: [true] } });
		expect([
			byName.maxAmountPerPayout.default,
			byName.maxTotalPerRun.default,
			byName.maxTotalPerDay.default,
		]).toEqual(['', '', '']);
	});

	test('the notice says what the node does in each Mode', () => {
		const notices = (stored: INodeParameters, typeVersion = 2) => {
			const values = resolved(helpers, source, typeVersion, stored);
			return source.properties
				.filter((p) => p.type === 'notice' && /moneyNotice|dryRunNotice/.test(p.name))
				.filter((p) =>
					helpers.displayParameter(values, p, nodeOf(source, typeVersion, values), source),
				)
				.map((p) => p.displayName);
		};
		expect(notices(CREATE)).toEqual([expect.stringMatching(/^Money moves when this node runs/)]);
		expect(notices({ ...CREATE, runMode: 'dryRun' })).toEqual([
			expect.stringMatching(/^Check Only \(Dry Run\): .*nothing is paid/),
		]);
		expect(notices(CREATE, 1)).toEqual([
			expect.stringMatching(/"Dry Run" in Options checks a sheet without paying/),
		]);
	});
});

describe('the subtitle on the canvas says when the node only checks', () => {
	const nodeTypes: INodeTypes = {
		getByName: () => new Disbursement(),
		getByNameAndVersion: () => new Disbursement(),
		getKnownTypes: () => ({}),
	};
	const subtitle = (typeVersion: number, parameters: INodeParameters) => {
		const node = nodeOf(source, typeVersion, parameters);
		const workflow = new n8nWorkflow.Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes,
		});
		return workflow.expression.getSimpleParameterValue(node, source.subtitle, 'internal', {});
	};
	test.each([
		[2, { ...CREATE, runMode: 'pay' }, 'create: payout'],
		[2, { ...CREATE, runMode: 'dryRun' }, 'create (dry run): payout'],
		[1, { ...CREATE, options: {} }, 'create: payout'],
		[1, { ...CREATE, options: { dryRun: true } }, 'create (dry run): payout'],
		[2, { resource: 'payout', operation: 'get' }, 'get: payout'],
	])('version %i, %j: %s', (typeVersion, parameters, expected) => {
		expect(subtitle(typeVersion, parameters)).toBe(expected);
	});
});

describe('a version 2 payout in the engine', () => {
	const s = gatewayPerSuite(setUp, { beforeEach: freshStart });
	const PROCESS = '/v1/api/disbursement/transactions/process';
	const sent = () => Object.keys(s.gw.stats().creationsByReference);

	const v2 = { typeVersion: 2 };
	const eWallet = { ...CREATE, channelType: 'eWallet', channel: 'GCASH' };

	test('by default the rows are read as they are: no expression per field', async () => {
		const rows = [
			{ reference_no: 'V2-AUTO-1', amount: 150, mobile_number: '09171234567' },
			{ referenceNo: 'V2-AUTO-2', Amount: '1,200.50', 'Mobile Number': '0917 765 4321' },
		];
		const result = await run(s, eWallet, { ...v2, items: rows });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((item) => [item.reference_no, item.amount])).toEqual([
			['V2-AUTO-1', 150],
			['V2-AUTO-2', 1200.5],
		]);
		expect(sent()).toEqual(['V2-AUTO-1', 'V2-AUTO-2']);
	});

	test('a sheet with other column names: the error names the missing and the found columns', async () => {
		const result = await run(s, eWallet, {
			...v2,
			items: [{ ref: 'V2-COLS-1', amount: 10, mobile: '09171234567' }],
		});
		expect(result.error?.message).toBe(
			'Columns "reference_no" (Reference No), "mobile_number" (Mobile Number) missing: the item has columns "ref", "amount", "mobile" (row 1)',
		);
		expect(result.error?.description).toMatch(/switch Input Mapping to "Map Each Field Manually"/);
		expect(sent()).toEqual([]);
	});

	test('mapped by hand, the grouped fields and the listed values reach the body as version 1 sends them', async () => {
		const parameters: INodeParameters = {
			...CREATE,
			channel: 'INSTAPAY',
			mappingMode: 'defineBelow',
			amount: '={{ $json.amount }}',
			referenceNo: '={{ $json.ref }}',
			bankCode: '={{ $json.bank }}',
			senderFirstName: '={{ $json.senderFirst }}',
			senderLastName: '={{ $json.senderLast }}',
			receiverAccountName: '={{ $json.accountName }}',
			receiverAccountNumber: '={{ $json.accountNumber }}',
			additionalFields: {
				senderSuffix: 'Jr.',
				receiverType: 'CORPORATE',
				receiverGender: '={{ $json.gender }}',
				receiverEmail: 'juan@example.ph',
			},
		};
		const result = await run(s, parameters, {
			...v2,
			items: [bankRow('V2-BANK-1', { gender: 'female' })],
		});
		expect(result.error).toBeUndefined();
		const body = s.gw.lastRequestBody(PROCESS) as { fields: Record<string, unknown> };
		expect(body.fields).toEqual({
			bank_code: 'BDO',
			sender: { first_name: 'Maria', last_name: 'Santos', suffix: 'Jr.' },
			receiver: {
				account_name: 'Juan Dela Cruz',
				account_number: '001234567890',
				type: 'CORPORATE',
				email: 'juan@example.ph',
				gender: 'FEMALE',
			},
		});
	});

	test('without Additional Fields the receiver is an INDIVIDUAL, as in version 1', async () => {
		const result = await run(
			s,
			{ ...CREATE, channel: 'INSTAPAY' },
			{
				...v2,
				items: [
					{
						reference_no: 'V2-BANK-2',
						amount: 500,
						bank_code: 'BDO',
						sender_first_name: 'Maria',
						sender_last_name: 'Santos',
						receiver_account_name: 'Juan Dela Cruz',
						receiver_account_number: '001234567890',
					},
				],
			},
		);
		expect(result.error).toBeUndefined();
		const body = s.gw.lastRequestBody(PROCESS) as { fields: { receiver: Record<string, unknown> } };
		expect(body.fields.receiver.type).toBe('INDIVIDUAL');
	});

	test('Mode "Check Only (Dry Run)" sends nothing and shows what would be sent', async () => {
		const rows = [
			{ reference_no: 'V2-DRY-1', amount: 100, mobile_number: '09171234567' },
			{ reference_no: 'V2-DRY-2', amount: 250, mobile_number: '09171234568' },
		];
		const result = await run(s, { ...eWallet, runMode: 'dryRun' }, { ...v2, items: rows });
		expect(result.error).toBeUndefined();
		const out = jsonOf(result);
		expect(out.every((item) => item.dryRun === true)).toBe(true);
		expect(out.at(-1)).toMatchObject({ rows: 2 });
		expect(s.gw.stats().requestsByPath[`POST ${PROCESS}`]).toBeUndefined();
	});

	test('a Mode an expression gives as neither pay nor dryRun stops the node with nothing sent', async () => {
		const rows = [
			{ reference_no: 'V2-MODE-1', amount: 100, mobile_number: '09171234567', mode: 'maybe' },
		];
		const result = await run(
			s,
			{ ...eWallet, runMode: '={{ $json.mode }}' },
			{ ...v2, items: rows },
		);
		expect(result.error?.message).toBe('Mode is "maybe", not pay or dryRun: nothing was sent');
		expect(sent()).toEqual([]);
		const dry = await run(
			s,
			{ ...eWallet, runMode: '={{ $json.mode }}' },
			{ ...v2, items: [{ ...rows[0], mode: 'dryRun' }] },
		);
		expect(jsonOf(dry)[0]).toMatchObject({ dryRun: true });
		expect(sent()).toEqual([]);
	});

	test('a limit added and left empty stops the node; a limit typed in refuses a payout above it', async () => {
		const rows = [{ reference_no: 'V2-LIMIT-1', amount: 1500, mobile_number: '09171234567' }];
		const empty = await run(
			s,
			{ ...eWallet, options: { maxAmountPerPayout: '' } },
			{ ...v2, items: rows },
		);
		expect(empty.error?.message).toBe(
			'Maximum per Payout is empty, not a positive number: nothing was sent',
		);
		const emptyTotal = await run(
			s,
			{ ...eWallet, options: { maxTotalPerRun: '' } },
			{ ...v2, items: rows },
		);
		expect(emptyTotal.error?.message).toBe(
			'Maximum Total per Run is empty, not a positive number: nothing was sent',
		);
		const capped = await run(
			s,
			{ ...eWallet, options: { maxAmountPerPayout: '1000' } },
			{ ...v2, items: rows },
		);
		expect(capped.error?.message).toMatch(/Amount 1500 is above the Maximum per Payout \(1,000\)/);
		const total = await run(
			s,
			{ ...eWallet, options: { maxTotalPerRun: '1000' } },
			{ ...v2, items: rows },
		);
		expect(total.error?.message).toMatch(/Maximum Total per Run/);
		expect(sent()).toEqual([]);
	});
});
