import {
	NodeConnectionTypes,
	NodeOperationError,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type NodeConnectionType,
} from 'n8n-workflow';

import { ledgerPicker } from '../shared/descriptions/credentialProperties';
import { LEDGER_CREDENTIAL_TYPE } from '../shared/transport/ledger';
import { serviceRun } from '../shared/transport/runState';
import { properties } from './description';
import { chosenInterfaces } from './helpers/chosenInterfaces';
import { claimScope, claimsInLedger, ledgerProblem } from './helpers/ledgerClaims';
import { triggerSettings } from './helpers/settings';
import { allowListProblem } from './helpers/sourceAddress';
import {
	missingSecretError,
	missingSecretReason,
	signingSecrets,
} from '../shared/callbacks/verification';
import { handleCallback } from './webhook';

// A constant rather than an inline array: n8n's two rule sets disagree on how an inline array
// must spell it ('main' against NodeConnectionTypes.Main), and neither has a view on this form.
const MAIN_OUTPUT: NodeConnectionType[] = [NodeConnectionTypes.Main];

/** Also in the message itself: n8n's answer to publishing shows the message only. */
const LEDGER_FIX =
	"The ledger is an n8n Data Table reached through n8n's public API (n8n 2.7 or later). Check the Payout Ledger credential's n8n API URL, its API key (with the dataTableRow scopes) and its Data Table ID, or remove the credential from this trigger: each webhook process then keeps its own record of deliveries.";

export class PaymentGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Trigger',
		name: 'paymentGatewayTrigger',
		icon: { light: 'file:paymentGatewayTrigger.svg', dark: 'file:paymentGatewayTrigger.dark.svg' },
		group: ['trigger'],
		// Version 2 confirms callbacks with the service by default (see confirmProperties.ts).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{"Callbacks: " + $parameter["interface"]}}',
		description: 'Starts the workflow when a payment or payout reaches its final status',
		// Category, search words and Docs links: the codex file beside this one (*.node.json).
		defaults: { name: 'Payment Gateway Trigger' },
		inputs: [],
		outputs: MAIN_OUTPUT,
		// Each shown only for the Interface that uses it, with `hide` rather than `show`, and
		// optional: see helpers/chosenInterfaces.ts for why, and for the check.
		credentials: [
			{
				name: 'paymentCollectionApi',
				required: false,
				displayName: 'Collection Credential (Payments)',
				displayOptions: { hide: { interface: ['disbursement'] } },
			},
			{
				name: 'disbursementApi',
				required: false,
				displayName: 'Disbursement Credential (Payouts)',
				displayOptions: { hide: { interface: ['collection'] } },
			},
			// Optional: one execution per delivery across webhook processes (helpers/ledgerClaims.ts).
			{
				name: LEDGER_CREDENTIAL_TYPE,
				required: false,
				// Several webhook processes (queue mode): each delivery is claimed in the ledger, so it starts one execution (docs/trigger.md).
				displayName: ledgerPicker('One Execution per Callback'),
			},
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
	 * checkExists runs on activation: an Allowed IP Addresses entry that is not an address, or a
	 * chosen credential without a Signing Secret while Accept Unsigned Callbacks (Unsafe) is off,
	 * fails the activation (rather than every callback later); with that option on, the missing
	 * secret is warned about. An error reading the credential is not caught either.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const chosen = chosenInterfaces(this);
				const { allowText, acceptUnsigned } = triggerSettings(this);
				const problem = allowListProblem(allowText);
				if (problem) {
					throw new NodeOperationError(this.getNode(), problem, {
						description:
							'Write each entry as an address (43.198.4.7, ::ffff:43.198.4.7, 2001:db8::1) or a CIDR range (43.198.4.0/24, 2001:db8::/32), separated by commas.',
					});
				}
				if (claimsInLedger(this)) {
					const unusable = await ledgerProblem(this, claimScope(this));
					if (unusable)
						throw new NodeOperationError(
							this.getNode(),
							`Cannot activate "${this.getNode().name}": its Payout Ledger cannot be used (${unusable}). ${LEDGER_FIX}`,
							{ description: LEDGER_FIX },
						);
				}
				const { withoutSecret } = await signingSecrets(serviceRun(this), chosen);
				if (withoutSecret.length > 0 && !acceptUnsigned)
					throw missingSecretError(this, withoutSecret);
				if (withoutSecret.length > 0) {
					const its = withoutSecret.length > 1 ? 'their' : 'its';
					this.logger.warn(
						`Payment Gateway Trigger "${this.getNode().name}": ${missingSecretReason(this.getNode(), withoutSecret)}, so ${its} callbacks are accepted WITHOUT verification (Accept Unsigned Callbacks (Unsafe) is on)`,
					);
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
