/** The node's description: the stable names workflows depend on (docs/DEVELOPMENT.md, Stable names) and its wiring. */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Disbursement } from '../../nodes/Disbursement/Disbursement.node';
import { implementations, nodeOf } from '../harness/installedN8n';

const { description } = new Disbursement();

function property(name: string, show: Record<string, string[]>): INodeProperties | undefined {
	return description.properties.find(
		(p) =>
			p.name === name &&
			Object.entries(show).every(
				([key, values]) => JSON.stringify(p.displayOptions?.show?.[key]) === JSON.stringify(values),
			),
	);
}

test('type, credential, tool use and icons', () => {
	expect(description).toMatchObject({
		name: 'disbursement',
		displayName: 'Payment Gateway Disbursement',
		version: [1, 2, 3],
		defaultVersion: 3,
		usableAsTool: true,
		credentials: [
			{ name: 'disbursementApi', required: true },
			{
				name: 'paymentGatewayLedgerApi',
				required: false,
				displayName: 'Payout Ledger (Optional: Maximum Total per Day)',
				displayOptions: {
					show: {
						resource: ['payout'],
						operation: ['create', 'prepare', 'confirm'],
						'options.maxTotalPerDay': [{ _cnd: { exists: true } }],
					},
				},
			},
		],
		icon: { light: 'file:disbursement.svg', dark: 'file:disbursement.dark.svg' },
		subtitle:
			'={{$parameter["operation"] + ($parameter["operation"] === "create" && ($parameter["runMode"] === "dryRun" || ($parameter["options"] || {}).dryRun === true) ? " (dry run)" : "") + ": " + $parameter["resource"]}}',
	});
	expect(description.description).toMatch(/Maximum per Payout/);
});

test('resources and operations keep their stable names', () => {
	const resource = description.properties.find((p) => p.name === 'resource');
	expect(resource?.options?.map((o) => (o as { value: string }).value).sort()).toEqual([
		'authorization',
		'bank',
		'payout',
		'wallet',
	]);
	const operations = Object.fromEntries(
		description.properties
			.filter((p) => p.name === 'operation')
			.map((p) => [
				p.displayOptions?.show?.resource?.[0],
				p.options?.map((o) => (o as { value: string }).value),
			]),
	);
	expect(operations).toEqual({
		payout: ['confirm', 'create', 'get', 'prepare', 'reconcile', 'repost', 'waitForFinalStatus'],
		wallet: ['getMany', 'getTransactions'],
		bank: ['getMany'],
		authorization: ['get'],
	});
});

test('Payout > Create waits for the final status through a restart webhook, a day by default; Prepare does not offer it', () => {
	expect(description.webhooks).toEqual([
		expect.objectContaining({ path: '={{ $nodeId }}', restartWebhook: true, isFullPath: true }),
	]);
	const create = { resource: ['payout'], operation: ['create'] };
	expect(property('sendAndWait', create)?.displayOptions?.hide).toEqual({ '@tool': [true] });
	expect(property('waitTimeLimitMinutes', create)?.default).toBe(1440);
	expect(property('sendAndWait', { resource: ['payout'], operation: ['prepare'] })).toBeUndefined();
	expect(property('callbackWebhookUrl', create)?.displayOptions?.hide).toEqual({
		sendAndWait: [true],
	});
});

test('payout fields change with the channel type', () => {
	const create = { resource: ['payout'], operation: ['create'] };
	for (const name of [
		'channelType',
		'channel',
		'amount',
		'referenceNo',
		'callbackWebhookUrl',
		'extraChannelFields',
	]) {
		expect(property(name, create)).toBeDefined();
	}
	const bank = [
		'bankCode',
		'senderFirstName',
		'senderMiddleName',
		'senderLastName',
		'senderSuffix',
		'receiverAccountName',
		'receiverAccountNumber',
		'receiverType',
		'receiverMobileNumber',
		'receiverEmail',
		'receiverAddress',
		'receiverBarangay',
		'receiverCity',
		'receiverZipCode',
		'receiverGender',
	];
	for (const name of bank)
		expect(property(name, { ...create, channelType: ['bankTransfer'] })).toBeDefined();
	expect(property('mobileNumber', { ...create, channelType: ['eWallet'] })).toBeDefined();
	expect(property('bankCode', create)?.typeOptions).toEqual({ loadOptionsMethod: 'getBanks' });
	expect(property('receiverType', create)?.default).toBe('INDIVIDUAL');

	const options = property('options', create)?.options as INodeProperties[];
	expect(options.map((o) => o.name).sort()).toEqual([
		'allowedRecipients',
		'concurrency',
		'dryRun',
		'endpointPath',
		'maxAmountPerPayout',
		'maxTotalPerRun',
		'timeoutSeconds',
	]);
	expect(options.find((o) => o.name === 'maxAmountPerPayout')?.default).toBe(50000);
	expect(options.find((o) => o.name === 'endpointPath')?.placeholder).toBe(
		'/v1/api/disbursement/transactions/process',
	);
});

test('list operations have the status filter, Return All and Limit, and the assumed paths can be overridden', () => {
	for (const [resource, operation, path] of [
		['wallet', 'getMany', '/v1/api/wallets'],
		['wallet', 'getTransactions', '/v1/api/wallets/transactions'],
		['bank', 'getMany', '/v1/api/banks'],
	]) {
		const show = { resource: [resource], operation: [operation] };
		if (resource === 'wallet') {
			expect(property('status', show)?.options?.map((o) => (o as { value: string }).value)).toEqual(
				['all', 'cancelled', 'completed', 'pending'],
			);
		}
		expect(property('returnAll', show)).toBeDefined();
		const options = property('options', show)?.options as INodeProperties[];
		expect(options.find((o) => o.name === 'endpointPath')?.placeholder).toBe(path);
	}
	expect(property('code', { resource: ['authorization'], operation: ['get'] })?.required).toBe(
		true,
	);
	expect(property('jsonBody', { resource: ['authorization'], operation: ['get'] })?.type).toBe(
		'json',
	);
});

describe('the payout form (Payout > Create)', () => {
	const create = { resource: ['payout'], operation: ['create'] };
	/** The properties n8n shows for a Channel Type, with n8n's own display rules (version 1 unless told). */
	const shownFor = (channelType: string, typeVersion = 1) =>
		description.properties.filter((p) =>
			NodeHelpers.displayParameter(
				{
					resource: 'payout',
					operation: 'create',
					channelType,
					callbackWebhookUrl: 'x',
					mappingMode: 'defineBelow',
					runMode: 'pay',
				},
				p,
				{ typeVersion },
				description,
			),
		);

	test.each([1, 2])(
		'each field is declared once: no parameter name is shown twice for a Channel Type (version %i)',
		(typeVersion) => {
			for (const channelType of ['bankTransfer', 'eWallet']) {
				const names = shownFor(channelType, typeVersion).map((p) => p.name);
				expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
			}
		},
	);

	test.each([1, 2])(
		'what both Channel Types use is one parameter shown for both, so switching keeps its value (version %i)',
		(typeVersion) => {
			const bank = new Map(shownFor('bankTransfer', typeVersion).map((p) => [p.name, p]));
			const shared = shownFor('eWallet', typeVersion)
				.filter((p) => bank.get(p.name) === p)
				.map((p) => p.name);
			expect(shared).toEqual(
				expect.arrayContaining([
					'channelType',
					'channel',
					'amount',
					'referenceNo',
					'callbackWebhookUrl',
					'extraChannelFields',
					'options',
					'simplify',
				]),
			);
			expect(shownFor('eWallet', typeVersion).map((p) => p.name)).not.toContain('bankCode');
			expect(shownFor('bankTransfer', typeVersion).map((p) => p.name)).not.toContain(
				'mobileNumber',
			);
		},
	);

	test('Input Mapping: manual by default; automatic hides the per-row fields and lists the columns it reads', () => {
		const mode = property('mappingMode', create);
		expect(mode).toMatchObject({ type: 'options', default: 'defineBelow', noDataExpression: true });
		expect(
			(mode?.options ?? []).map((option) => ('value' in option ? option.value : undefined)),
		).toEqual(['defineBelow', 'autoMapInputData']);
		const shownIn = (channelType: string, mappingMode: string) =>
			description.properties
				.filter((p) =>
					NodeHelpers.displayParameter(
						{
							resource: 'payout',
							operation: 'create',
							channelType,
							mappingMode,
							callbackWebhookUrl: 'x',
						},
						p,
						{ typeVersion: 1 },
						description,
					),
				)
				.map((p) => p.name);
		const perRow = [
			'amount',
			'referenceNo',
			'mobileNumber',
			'bankCode',
			'senderFirstName',
			'receiverAccountNumber',
		];
		for (const channelType of ['bankTransfer', 'eWallet']) {
			expect(
				shownIn(channelType, 'autoMapInputData').filter((name) => perRow.includes(name)),
			).toEqual([]);
			expect(shownIn(channelType, 'autoMapInputData')).toEqual(
				expect.arrayContaining([
					'channelType',
					'channel',
					'callbackWebhookUrl',
					'extraChannelFields',
					'options',
					'columnsNotice' + (channelType === 'eWallet' ? 'EWallet' : 'BankTransfer'),
				]),
			);
			expect(shownIn(channelType, 'defineBelow')).toEqual(shownFor(channelType).map((p) => p.name));
		}
		const notice = description.properties.find((p) => p.name === 'columnsNoticeEWallet');
		expect(notice?.displayName).toMatch(
			/^Required columns: reference_no, amount, mobile_number\. Optional: channel \(missing or empty: the Channel above\)\. Names match/,
		);
		// Bank Transfer's: its seven required columns first, the Channel stand-in first among the optional ones.
		expect(
			description.properties.find((p) => p.name === 'columnsNoticeBankTransfer')?.displayName,
		).toMatch(
			/^Required columns: reference_no, amount, bank_code, sender_first_name, sender_last_name, receiver_account_name, receiver_account_number\. Optional: channel \(missing or empty: the Channel above\), sender_middle_name, /,
		);
	});

	test('Channel is a dropdown loaded for the chosen Channel Type, and still takes an expression', () => {
		const channel = property('channel', create);
		expect(channel).toMatchObject({
			displayName: 'Channel Name or ID',
			type: 'options',
			required: true,
			default: '',
			typeOptions: {
				loadOptionsMethod: 'getPayoutChannels',
				loadOptionsDependsOn: ['channelType'],
			},
		});
		expect(channel?.noDataExpression).toBeUndefined();
		expect(channel?.displayOptions?.show).toEqual(create);
	});

	test('Amount starts empty, and a notice shows while Callback Webhook URL is empty', () => {
		expect(property('amount', create)).toMatchObject({
			type: 'string',
			default: '',
			required: true,
		});
		const notice = property('callbackMissingNotice', create);
		expect(notice).toMatchObject({
			type: 'notice',
			displayOptions: { show: { ...create, callbackWebhookUrl: [''] } },
		});
		expect(notice?.displayName).toMatch(
			/final status of the payout .* no callback will arrive.*Wait for Final Status/,
		);
		// The trigger lives in a workflow of its own, not above this node.
		expect(notice?.displayName).toMatch(/Payment Gateway Trigger, usually in another workflow/);
		expect(notice?.displayName).not.toMatch(/above/);
		const shown = (callbackWebhookUrl: string) =>
			NodeHelpers.displayParameter(
				{ resource: 'payout', operation: 'create', callbackWebhookUrl },
				notice!,
				{ typeVersion: 1 },
				description,
			);
		expect([shown(''), shown('https://n8n.example.com/webhook/x/callback')]).toEqual([true, false]);
	});

	test('the AI-agent notice shows only in the tool variant; the money notice only in a workflow', () => {
		// n8n tells the variants apart by the type name: the tool variant's ends in "Tool".
		const shownIn = (name: string, typeName: string) =>
			NodeHelpers.displayParameter(
				{ resource: 'payout', operation: 'create' },
				property(name, create)!,
				{ typeVersion: 1 },
				{ ...description, name: typeName },
			);
		expect([
			shownIn('agentNotice', 'disbursement'),
			shownIn('agentNotice', 'disbursementTool'),
		]).toEqual([false, true]);
		expect([
			shownIn('moneyNotice', 'disbursement'),
			shownIn('moneyNotice', 'disbursementTool'),
		]).toEqual([true, false]);
		expect(property('agentNotice', create)?.displayName).toMatch(/Maximum per Payout/);
	});

	test('Simplify on Payout Create and Get: on by default for an AI tool, off in a workflow', () => {
		const simplify = description.properties.filter((p) => p.name === 'simplify');
		expect(simplify.map((p) => [p.type, p.default, p.displayOptions?.show])).toEqual([
			[
				'boolean',
				true,
				{ resource: ['payout'], operation: ['create', 'get', 'confirm'], '@tool': [true] },
			],
			[
				'boolean',
				false,
				{ resource: ['payout'], operation: ['create', 'get', 'confirm'], '@tool': [false] },
			],
		]);
	});
});

// n8n fills in one credential by itself on a new node: the newest of every type the node shows
// (the editor's default credential). Shown on every new payout node, the Payout Ledger would win
// when it is the newest, Disbursement API would stay empty and the Channel and Bank lists could not
// load ("Node does not have any credentials set for disbursementApi"). The editor reads the
// description as JSON, so the conditions are read after a JSON round trip.
describe.each(implementations)('the Payout Ledger credential as %s shows it', (_label, helpers) => {
	const editorsCopy = JSON.parse(JSON.stringify(description)) as typeof description;
	const ledger = editorsCopy.credentials!.find(({ name }) => name === 'paymentGatewayLedgerApi')!;
	const shownWith = (options: Record<string, unknown>) =>
		helpers.displayParameter(
			{ resource: 'payout', operation: 'create', options } as INodeParameters,
			ledger,
			nodeOf(editorsCopy, 3),
			editorsCopy,
		);

	test.each([
		['a new node (no options)', false, {}],
		['Maximum Total per Day added, still empty', false, { maxTotalPerDay: '' }],
		['another option only', false, { maxAmountPerPayout: '5000' }],
		['Maximum Total per Day filled in', true, { maxTotalPerDay: '50000' }],
		['Maximum Total per Day from an expression', true, { maxTotalPerDay: '={{ $json.cap }}' }],
	])('%s: shown %s', (_case, shown, options) => {
		expect(shownWith(options)).toBe(shown);
	});
});
