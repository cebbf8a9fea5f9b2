import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { summaryOutputs } from '../shared/descriptions/versions';
import { resumeOnCallback } from '../shared/callbacks/resume';
import { sendAndWaitWebhooks } from '../shared/descriptions/sendAndWait';
import * as channel from './actions/channel/Channel.resource';
import { router, SUMMARY_OUTPUT_FROM } from './actions/router';
import * as transaction from './actions/transaction/Transaction.resource';
import { loadOptions } from './methods';

export class PaymentCollection implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Collection',
		name: 'paymentCollection',
		icon: { light: 'file:paymentCollection.svg', dark: 'file:paymentCollection.dark.svg' },
		group: ['transform'],
		// Version 2 gives Reconcile's summary an output of its own; version 1 stays for stored workflows.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create payment links and look up payments with the Payment Collection service',
		// Category, search words and Docs links: the codex file beside this one (*.node.json).
		defaults: { name: 'Payment Gateway Collection' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: summaryOutputs(SUMMARY_OUTPUT_FROM),
		// Send and Wait for Final Status: the service's callback resumes the waiting execution here.
		webhooks: sendAndWaitWebhooks,
		credentials: [{ name: 'paymentCollectionApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Channel', value: 'channel' },
					{ name: 'Transaction', value: 'transaction' },
				],
				default: 'transaction',
			},
			...transaction.description,
			...channel.description,
		],
	};

	methods = { loadOptions };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumeOnCallback(this, 'collection');
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
