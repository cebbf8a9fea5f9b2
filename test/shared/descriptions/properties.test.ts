/**
 * The parameters both action nodes share (nodes/shared/descriptions/properties.ts): one definition
 * each, with defaults that match what the runner falls back to, and display conditions as
 * n8n-workflow's own `displayParameter` resolves them.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import {
	DEFAULT_CONCURRENCY,
	MAX_CONCURRENCY,
	amountProperty,
	columnsNotice,
	executionOptionsProperty,
	limitWithoutDefault,
	manualOnly,
	maxTotalPerRunOption,
	moneyGuardOptions,
	newReferenceNoProperty,
} from '../../../nodes/shared/descriptions/properties';
import { DEFAULT_TIMEOUT_MS, ENDPOINTS } from '../../../nodes/shared/transport/endpoints';

const shown = (property: INodeProperties, values: INodeParameters) =>
	NodeHelpers.displayParameter(values, property, { typeVersion: 1 }, null);
const optionNamed = (collection: INodeProperties, name: string) =>
	(collection.options as INodeProperties[]).find((option) => option.name === name);

describe('executionOptionsProperty', () => {
	test('Concurrency and Timeout default to what the runner falls back to (the lint wants literals)', () => {
		const options = executionOptionsProperty();
		expect(optionNamed(options, 'concurrency')).toMatchObject({
			default: DEFAULT_CONCURRENCY,
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		});
		expect(optionNamed(options, 'timeoutSeconds')?.default).toBe(DEFAULT_TIMEOUT_MS / 1000);
		expect(options).toMatchObject({ name: 'options', type: 'collection', default: {} });
	});

	test('Endpoint Path only for an assumed path, its placeholder the path assumed', () => {
		expect(optionNamed(executionOptionsProperty(), 'endpointPath')).toBeUndefined();
		expect(optionNamed(executionOptionsProperty('getBanks'), 'endpointPath')).toMatchObject({
			type: 'string',
			default: '',
			placeholder: ENDPOINTS.getBanks.path,
		});
	});

	test("an operation's own options come first", () => {
		const extra: INodeProperties = { displayName: 'X', name: 'x', type: 'string', default: '' };
		expect(
			(executionOptionsProperty('getBanks', [extra]).options as INodeProperties[]).map(
				(o) => o.name,
			),
		).toEqual(['x', 'concurrency', 'timeoutSeconds', 'endpointPath']);
	});
});

describe('money fields', () => {
	test('Amount is text, never a number input that shows its minimum when empty', () => {
		expect(amountProperty).toMatchObject({
			name: 'amount',
			type: 'string',
			default: '',
			required: true,
		});
	});

	test('a new reference_no is explained as the idempotency key', () => {
		expect(newReferenceNoProperty('payout', 'PAYOUT-0001')).toMatchObject({
			name: 'referenceNo',
			required: true,
			placeholder: 'PAYOUT-0001',
		});
		expect(newReferenceNoProperty('payout', 'x').description).toMatch(/idempotency key/);
	});

	test('Dry Run is off and Maximum Total per Run guards by default', () => {
		expect(moneyGuardOptions('payout').map((option) => [option.name, option.default])).toEqual([
			['dryRun', false],
			['maxTotalPerRun', 100000],
		]);
	});

	test('a limit without default starts empty, as text, and says that empty stops the node', () => {
		const limit = maxTotalPerRunOption('payout');
		const empty = limitWithoutDefault(limit);
		expect(empty).toMatchObject({
			name: 'maxTotalPerRun',
			type: 'string',
			default: '',
			placeholder: 'e.g. 20000',
		});
		expect(empty).not.toHaveProperty('typeOptions');
		expect(empty.description).toBe(
			`${limit.description} Left empty, it stops the node before anything is sent.`,
		);
		// The option it was made from is not changed.
		expect(limit).toMatchObject({
			type: 'number',
			default: 100000,
			typeOptions: { minValue: 0.01 },
		});
	});
});

describe('manualOnly', () => {
	const field: INodeProperties = {
		displayName: 'Channel',
		name: 'channel',
		type: 'string',
		default: '',
		displayOptions: { show: { resource: ['payout'] }, hide: { other: [true] } },
	};

	test.each([
		[{ resource: 'payout' }, true],
		[{ resource: 'payout', mappingMode: 'defineBelow' }, true],
		[{ resource: 'payout', mappingMode: 'autoMapInputData' }, false],
		[{ resource: 'payout', other: true }, false],
		[{ resource: 'transaction' }, false],
	])('with %j the field is shown: %p', (values, expected) => {
		expect(shown(manualOnly(field), values)).toBe(expected);
	});

	test('the field it was made from is not changed', () => {
		manualOnly(field);
		expect(field.displayOptions?.hide).toEqual({ other: [true] });
	});
});

describe('columnsNotice', () => {
	test('required columns first, then optional ones, a stand-in for a node field first among them', () => {
		const notice = columnsNotice(
			[
				{ param: 'referenceNo', label: 'Reference No', required: true },
				{ param: 'amount', label: 'Amount', required: true },
				{ param: 'mobileNumber', label: 'Mobile Number' },
				{ param: 'channelCode', label: 'Channel', orNodeField: true },
			],
			{ resource: ['payout'] },
			'Mobile',
		);
		expect(notice.displayName).toBe(
			'Required columns: reference_no, amount. Optional: channel_code (missing or empty: the Channel above), mobile_number. Names match ignoring case, spaces, "-" and "_" ("Reference No" is reference_no); other columns are ignored, and each row is checked as with manual mapping.',
		);
		expect(notice.name).toBe('columnsNoticeMobile');
		expect(shown(notice, { resource: 'payout', mappingMode: 'autoMapInputData' })).toBe(true);
		expect(shown(notice, { resource: 'payout', mappingMode: 'defineBelow' })).toBe(false);
	});

	test('without optional columns it names none', () => {
		expect(
			columnsNotice([{ param: 'referenceNo', label: 'Reference No', required: true }]).displayName,
		).toMatch(/^Required columns: reference_no\. Names match/);
	});
});
