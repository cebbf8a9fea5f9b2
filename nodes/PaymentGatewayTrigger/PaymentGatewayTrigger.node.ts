import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/transport';
import { properties } from './description';
import { chosenInterfaces } from './helpers/chosenInterfaces';
import { handleCallback } from './webhook';

export class PaymentGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Trigger',
		name: 'paymentGatewayTrigger',
		icon: { light: 'file:paymentGatewayTrigger.svg', dark: 'file:paymentGatewayTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Callbacks: " + $parameter["interface"]}}',
		description: 'Starts the workflow when a payment or payout reaches its final status',
		defaults: { name: 'Payment Gateway Trigger' },
		inputs: [],
		// eslint-disable-next-line n8n-nodes-base/node-class-description-outputs-wrong
		outputs: [NodeConnectionTypes.Main],
		// Optional and always shown: see helpers/chosenInterfaces.ts for why, and for the check.
		credentials: [
			{ name: 'paymentCollectionApi', required: false },
			{ name: 'disbursementApi', required: false },
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'callback',
			},
		],
		properties,
	};

	/**
	 * The service has no API to register, list or remove callback URLs: the URL travels with each
	 * payment or payout as callback_webhook_url. So there is nothing to create or delete.
	 * checkExists only warns, on activation, when callbacks will not be verified; an error
	 * reading the credential is not caught, so activation fails and says why.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				for (const api of chosenInterfaces(this)) {
					const credentials = await this.getCredentials(CREDENTIAL_TYPE[api]);
					if (!credentials.signingSecret) {
						this.logger.warn(
							`Payment Gateway Trigger "${this.getNode().name}": the ${api} credential has no Signing Secret, so its callbacks are NOT verified`,
						);
					}
				}
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleCallback.call(this);
	}
}
