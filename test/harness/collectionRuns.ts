/** Shared set-up of the PaymentCollection node tests: a sandbox gateway and a credential store. */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { nodeRunner, type Setup } from './nodeRun';

export { gatewayPerSuite, type RunOptions, type Setup } from './nodeRun';

export const NODE_TYPE = 'n8n-nodes-payment-gateway.paymentCollection';
export const COLLECTION = 'paymentCollectionApi';

const runner = nodeRunner({ type: NODE_TYPE, credentialType: COLLECTION, account: 'collection' });
export const { setUp, run } = runner;

/** A credential whose password the service refuses. */
export function addWrongCredential(setup: Setup): string {
	return runner.addCredential(setup, { password: 'wrong-password-123' });
}

/** Generate Transaction parameters mapped from each item, as a user maps spreadsheet columns. */
export function generateParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'transaction',
		operation: 'generate',
		channelCode: '={{ $json.channel ?? "GCASH_TRN" }}',
		amount: '={{ $json.amount }}',
		referenceNo: '={{ $json.ref }}',
		callbackWebhookUrl: '={{ $json.callback ?? "" }}',
		...extra,
	};
}

export interface ExpectedError {
	/** The message; the row it names (from 1) is added when it does not end with it already. */
	message: string;
	description?: string;
	/** HTTP status, for errors that came from a response. */
	httpCode?: number;
	/** 422 field errors, kept on the error for the error output. */
	fieldErrors?: Record<string, string[]>;
}

/**
 * The item a failed input item became (continue-on-fail). On the regular output its json holds
 * the error, its details, status and field errors; on the error output n8n keeps only the message
 * in the json and the error itself on the item.
 */
export function expectErrorItem(
	item: INodeExecutionData | undefined,
	itemIndex: number,
	expected: ExpectedError,
	output: 'regular' | 'error' = 'regular',
	inputRow: IDataObject = {},
): void {
	const row = ` (row ${itemIndex + 1})`;
	const message = expected.message.endsWith(row) ? expected.message : expected.message + row;
	if (output === 'regular') {
		const json: IDataObject = { error: message, itemIndex };
		if (expected.description !== undefined) json.errorDetails = expected.description;
		if (expected.httpCode !== undefined) json.httpCode = expected.httpCode;
		if (expected.fieldErrors !== undefined) json.fieldErrors = expected.fieldErrors;
		expect(item).toEqual({ json, pairedItem: { item: itemIndex } });
		return;
	}
	// On the error output n8n hands back the failed input row with the reason added.
	expect(item).toEqual({ json: { ...inputRow, error: message }, pairedItem: { item: itemIndex } });
}
