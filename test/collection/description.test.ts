/** The node as the editor and workflows see it: stable names, icons, tool use (its codex file: test/shared/descriptions/documentation.test.ts). */
import { existsSync } from 'fs';
import { join } from 'path';
import type { INodeProperties } from 'n8n-workflow';

import { PaymentCollection } from '../../nodes/PaymentCollection/PaymentCollection.node';

const node = new PaymentCollection();
const { description } = node;
const dir = join(__dirname, '..', '..', 'nodes', 'PaymentCollection');

/** Names of the properties shown for a resource/operation. */
function shownFor(resource: string, operation: string): string[] {
	return description.properties
		.filter((property) => {
			const show = property.displayOptions?.show;
			return (
				show?.resource?.includes(resource) &&
				(!show.operation || show.operation.includes(operation))
			);
		})
		.filter((property) => property.name !== 'operation')
		.map((property) => property.name);
}

function optionValues(property: INodeProperties | undefined): unknown[] {
	return (property?.options ?? []).map((option) => ('value' in option ? option.value : undefined));
}

it('keeps its stable type, credential and class names', () => {
	expect(description.name).toBe('paymentCollection');
	expect(description.displayName).toBe('Payment Gateway Collection');
	expect(description.credentials).toEqual([{ name: 'paymentCollectionApi', required: true }]);
	expect([description.version, description.defaultVersion]).toEqual([[1, 2], 2]);
	expect(description.usableAsTool).toBe(true);
	expect(description.subtitle).toBe('={{$parameter["operation"] + ": " + $parameter["resource"]}}');
});

it('offers the stable resources and operations', () => {
	const resource = description.properties.find((property) => property.name === 'resource');
	expect(optionValues(resource)).toEqual(['channel', 'transaction']);
	const operations = description.properties.filter((property) => property.name === 'operation');
	expect(
		operations.map((property) => [property.displayOptions?.show?.resource, optionValues(property)]),
	).toEqual([
		[['transaction'], ['generate', 'get', 'reconcile', 'waitForFinalStatus']],
		[['channel'], ['getMany']],
	]);
});

it("waits for the final status through a restart webhook at the node's id, as n8n's send-and-wait operations do", () => {
	expect(description.webhooks).toEqual([
		{
			name: 'default',
			httpMethod: 'POST',
			responseMode: 'onReceived',
			path: '={{ $nodeId }}',
			restartWebhook: true,
			isFullPath: true,
		},
	]);
	const named = (name: string) => description.properties.find((property) => property.name === name);
	// Not offered to an agent's tool; the callback URL is then the resume URL, so its field hides.
	expect(named('sendAndWait')?.displayOptions?.hide).toEqual({ '@tool': [true] });
	expect(named('callbackWebhookUrl')?.displayOptions?.hide).toEqual({ sendAndWait: [true] });
	expect(named('waitTimeLimitMinutes')?.default).toBe(0);
	expect(named('waitConfirmWithService')?.default).toBe(true);
});

it('shows the stable parameters for each operation', () => {
	expect(shownFor('transaction', 'generate')).toEqual([
		'channelCode',
		'mappingMode',
		'columnsNotice',
		'amount',
		'referenceNo',
		'sendAndWait',
		'sendAndWaitNotice',
		'waitTimeLimitMinutes',
		'waitConfirmWithService',
		'callbackWebhookUrl',
		'callbackMissingNotice',
		'successRedirectUrl',
		'failureRedirectUrl',
		'customerFields',
		'options',
		'simplify',
		'simplify',
	]);
	expect(shownFor('transaction', 'get')).toEqual([
		'referenceNo',
		'options',
		'simplify',
		'simplify',
	]);
	expect(shownFor('channel', 'getMany')).toEqual(['returnAll', 'limit', 'filters', 'options']);
});

it('loads the channel dropdown from the service and tells users what Reference No and Callback Webhook URL are for', () => {
	const channel = description.properties.find((property) => property.name === 'channelCode');
	expect(channel?.typeOptions?.loadOptionsMethod).toBe('getChannels');
	expect(Object.keys(node.methods.loadOptions).sort()).toEqual([
		'getChannelCategories',
		'getChannels',
	]);
	const reference = description.properties.find(
		(property) =>
			property.name === 'referenceNo' &&
			property.displayOptions?.show?.operation?.includes('generate'),
	);
	expect(reference?.description).toMatch(/invoice number/);
	expect(reference?.description).toMatch(/idempotency key/);
	const callback = description.properties.find(
		(property) => property.name === 'callbackWebhookUrl',
	);
	expect(callback?.description).toMatch(
		/^Strongly recommended\. Paste the Production URL of a Payment Gateway Trigger/,
	);
});

it('starts Amount empty, warns while Callback Webhook URL is empty, and offers Simplify (on by default for an AI tool)', () => {
	const show = { resource: ['transaction'], operation: ['generate'] };
	const amount = description.properties.find((property) => property.name === 'amount');
	expect(amount).toMatchObject({
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show },
	});
	expect(amount?.typeOptions).toBeUndefined();
	const notice = description.properties.find(
		(property) => property.name === 'callbackMissingNotice',
	);
	expect(notice).toMatchObject({
		type: 'notice',
		displayOptions: { show: { ...show, callbackWebhookUrl: [''] } },
	});
	expect(notice?.displayName).toMatch(
		/final status of the payment .* no callback will arrive.*Wait for Final Status/,
	);
	// The trigger lives in a workflow of its own, not above this node.
	expect(notice?.displayName).toMatch(/Payment Gateway Trigger, usually in another workflow/);
	expect(notice?.displayName).not.toMatch(/above/);
	const simplify = description.properties.filter((property) => property.name === 'simplify');
	expect(
		simplify.map((property) => [property.default, property.displayOptions?.show?.['@tool']]),
	).toEqual([
		[true, [true]],
		[false, [false]],
	]);
	expect(
		simplify.every(
			(property) => property.displayOptions?.show?.operation?.join() === 'generate,get',
		),
	).toBe(true);
});

it('has light and dark icons', () => {
	expect(description.icon).toEqual({
		light: 'file:paymentCollection.svg',
		dark: 'file:paymentCollection.dark.svg',
	});
	expect(existsSync(join(dir, 'paymentCollection.svg'))).toBe(true);
	expect(existsSync(join(dir, 'paymentCollection.dark.svg'))).toBe(true);
});
