/** Shared set-up of the Disbursement node tests: a sandbox gateway and a credential store. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { loadOptions, type NodeRunResult } from './index';
import { nodeRunner, type Setup } from './nodeRun';

export { gatewayPerSuite, type RunOptions, type Setup } from './nodeRun';

export const NODE_TYPE = 'n8n-nodes-payment-gateway.disbursement';
export const DISBURSEMENT = 'disbursementApi';

const runner = nodeRunner({
	type: NODE_TYPE,
	credentialType: DISBURSEMENT,
	account: 'disbursement',
});
export const { setUp, run, addCredential } = runner;

/**
 * Starts a test from clean counters and no faults. Tokens and earlier payouts stay (references
 * are unique per test): resetting tokens would only add a 401 and a token refresh to each test.
 */
export function freshStart(setup: Setup): void {
	setup.gw.faults.clear();
	setup.gw.resetStats();
}

export async function loadBanks(setup: Setup, credentialId?: string) {
	return await loadOptions({
		type: NODE_TYPE,
		method: 'getBanks',
		store: setup.store,
		parameters: { resource: 'payout', operation: 'create', channelType: 'bankTransfer' },
		path: 'parameters.bankCode',
		credentials: runner.credentialsOf(setup, credentialId),
	});
}

/** Bank-transfer payout parameters mapped from each item, as a user maps spreadsheet columns. */
export function bankTransferParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'payout',
		operation: 'create',
		channelType: 'bankTransfer',
		channel: '={{ $json.channel ?? "INSTAPAY" }}',
		amount: '={{ $json.amount }}',
		referenceNo: '={{ $json.ref }}',
		callbackWebhookUrl: '={{ $json.callback ?? "" }}',
		bankCode: '={{ $json.bank }}',
		senderFirstName: '={{ $json.senderFirst }}',
		senderMiddleName: '={{ $json.senderMiddle ?? "" }}',
		senderLastName: '={{ $json.senderLast }}',
		senderSuffix: '={{ $json.senderSuffix ?? "" }}',
		receiverAccountName: '={{ $json.accountName }}',
		receiverAccountNumber: '={{ $json.accountNumber }}',
		receiverType: '={{ $json.receiverType ?? "INDIVIDUAL" }}',
		receiverMobileNumber: '={{ $json.receiverMobile ?? "" }}',
		receiverEmail: '={{ $json.receiverEmail ?? "" }}',
		receiverAddress: '={{ $json.address ?? "" }}',
		receiverBarangay: '={{ $json.barangay ?? "" }}',
		receiverCity: '={{ $json.city ?? "" }}',
		receiverZipCode: '={{ $json.zip ?? "" }}',
		receiverGender: '={{ $json.gender ?? "" }}',
		...extra,
	};
}

/** E-wallet payout parameters mapped from each item. */
export function eWalletParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'payout',
		operation: 'create',
		channelType: 'eWallet',
		channel: '={{ $json.channel ?? "GCASH" }}',
		amount: '={{ $json.amount }}',
		referenceNo: '={{ $json.ref }}',
		callbackWebhookUrl: '={{ $json.callback ?? "" }}',
		mobileNumber: '={{ $json.mobile }}',
		...extra,
	};
}

/** A complete bank-transfer row. */
export function bankRow(ref: string, extra: IDataObject = {}): IDataObject {
	return {
		ref,
		amount: 1500,
		bank: 'BDO',
		senderFirst: 'Maria',
		senderLast: 'Santos',
		accountName: 'Juan Dela Cruz',
		accountNumber: '001234567890',
		...extra,
	};
}

/** What the item at each output position pairs with. */
export function pairs(result: NodeRunResult, output = 0): number[] {
	return (result.outputs[output] ?? []).map((item) => (item.pairedItem as { item: number }).item);
}

export function jsonOf(result: NodeRunResult, output = 0): IDataObject[] {
	return (result.outputs[output] ?? []).map((item) => item.json);
}
