import type {
	IExecuteFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	NodeParameterValue,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ledgerPicker } from '../shared/descriptions/credentialProperties';
import { summaryOutputs } from '../shared/descriptions/versions';
import { resumeOnCallback } from '../shared/callbacks/resume';
import { sendAndWaitWebhooks } from '../shared/descriptions/sendAndWait';
import * as authorization from './actions/authorization/Authorization.resource';
import * as bank from './actions/bank/Bank.resource';
import * as payout from './actions/payout/Payout.resource';
import { router, SUMMARY_OUTPUT_FROM } from './actions/router';
import * as wallet from './actions/wallet/Wallet.resource';
import { loadOptions } from './methods';

export class Disbursement implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Disbursement',
		name: 'disbursement',
		icon: { light: 'file:disbursement.svg', dark: 'file:disbursement.dark.svg' },
		group: ['transform'],
		// Version 2 tidies the Payout > Create form (actions/payout/formVersions.ts); version 3 gives
		// Reconcile's and Check Only's summary an output of its own. Earlier versions stay for stored workflows.
		version: [1, 2, 3],
		defaultVersion: 3,
		// A node that only checks says so on the canvas: Mode from version 2, Dry Run in Options in version 1.
		subtitle:
			'={{$parameter["operation"] + ($parameter["operation"] === "create" && ($parameter["runMode"] === "dryRun" || ($parameter["options"] || {}).dryRun === true) ? " (dry run)" : "") + ": " + $parameter["resource"]}}',
		description:
			'Send payouts to bank accounts and e-wallets, and read wallets, banks and authorizations. Payout > Create moves real money with a production credential: for AI agent use, set its "Maximum per Payout" option.',
		// Category, search words and Docs links: the codex file beside this one (*.node.json).
		defaults: { name: 'Payment Gateway Disbursement' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: summaryOutputs(SUMMARY_OUTPUT_FROM),
		// Send and Wait for Final Status: the service's callback resumes the waiting execution here.
		webhooks: sendAndWaitWebhooks,
		credentials: [
			{ name: 'disbursementApi', required: true },
			// Only Maximum Total per Day reads it (nodes/shared/runner/dailyCap.ts), so it is shown only
			// once a maximum is filled in. Shown on every new payout node, n8n would pick it for the node
			// by itself when it is the newest credential (n8n fills in one credential, of any type shown),
			// leaving Disbursement API empty and the Channel and Bank lists unloadable.
			{
				name: 'paymentGatewayLedgerApi',
				required: false,
				displayName: ledgerPicker('Maximum Total per Day'),
				displayOptions: {
					show: {
						resource: ['payout'],
						operation: ['create', 'prepare', 'confirm'],
						// n8n reads conditions on a credential as on a parameter (NodeHelpers.displayParameter);
						// its type for credentials names plain values only.
						'options.maxTotalPerDay': [{ _cnd: { exists: true } } as unknown as NodeParameterValue],
					},
				},
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Authorization', value: 'authorization' },
					{ name: 'Bank', value: 'bank' },
					{ name: 'Payout', value: 'payout' },
					{ name: 'Wallet', value: 'wallet' },
				],
				default: 'payout',
			},
			...payout.description,
			...wallet.description,
			...bank.description,
			...authorization.description,
		],
	};

	methods = { loadOptions };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumeOnCallback(this, 'disbursement');
	}

	async execute(this: IExecuteFunctions) {
		return await router.call(this);
	}
}
