/** Shared set-up of the trigger tests: sandbox gateway, both credentials, signed callback bodies. */
import type { INodeCredentials, INodeParameters } from 'n8n-workflow';

import { signCallback } from '../../nodes/shared/validation/signature';
import { SANDBOX_CREDENTIALS, startSandboxGateway, type SandboxGateway } from '../../sandbox';
import { CredentialStore } from './credentialStore';
import { call as callSandbox, collectionToken, txBody } from './sandboxCalls';
import {
	startTriggerHarness,
	type TriggerHarness,
	type TriggerHarnessOptions,
} from './webhookHarness';

export const SECRET = SANDBOX_CREDENTIALS.signingSecret;
export const COLLECTION = 'paymentCollectionApi';
export const DISBURSEMENT = 'disbursementApi';
/** The look-ups "Confirm With Service" makes, as the sandbox's stats name them. */
export const LOOKUP_COLLECTION = 'GET /v1/biller/transactions';
export const LOOKUP_PAYOUTS = 'GET /v1/api/disbursement/transactions';

export interface Setup {
	gw: SandboxGateway;
	store: CredentialStore;
	collection: { id: string; name: string };
	disbursement: { id: string; name: string };
	/** Credentials of the same gateway without a signing secret. */
	unsignedCollection: { id: string; name: string };
	harnesses: TriggerHarness[];
}

export async function setUp(): Promise<Setup> {
	// No callback retries: a refused test callback must arrive exactly once.
	const gw = await startSandboxGateway({ callbackRetries: 0 });
	const store = new CredentialStore();
	const base = { environment: 'sandbox', baseUrl: gw.url };
	const collection = store.add(COLLECTION, {
		...base,
		...SANDBOX_CREDENTIALS.collection,
		signingSecret: SECRET,
	});
	const disbursement = store.add(DISBURSEMENT, {
		...base,
		...SANDBOX_CREDENTIALS.disbursement,
		signingSecret: SECRET,
	});
	const unsignedCollection = store.add(COLLECTION, { ...base, ...SANDBOX_CREDENTIALS.collection });
	return { gw, store, collection, disbursement, unsignedCollection, harnesses: [] };
}

/**
 * The set-up every trigger test file shares: one sandbox gateway and its credentials for the whole
 * file, and every trigger it served closed after the last test. The object is filled in before
 * the first test runs.
 */
export function setUpPerFile(): Setup {
	const setup = {} as Setup;
	beforeAll(async () => {
		Object.assign(setup, await setUp());
	});
	afterAll(async () => {
		await tearDown(setup);
	});
	return setup;
}

export async function tearDown(setup: Setup): Promise<void> {
	await Promise.all(setup.harnesses.map(async (harness) => await harness.close()));
	await setup.gw.close();
}

/** A trigger served as n8n serves it, with the node's parameters and credentials. */
export async function trigger(
	setup: Setup,
	parameters: INodeParameters = {},
	options: Partial<TriggerHarnessOptions> & { credentials?: INodeCredentials } = {},
): Promise<TriggerHarness> {
	const choice = (parameters.interface as string | undefined) ?? 'collection';
	const credentials: INodeCredentials = options.credentials ?? {
		...(choice !== 'disbursement' ? { [COLLECTION]: setup.collection } : {}),
		...(choice !== 'collection' ? { [DISBURSEMENT]: setup.disbursement } : {}),
	};
	const harness = await startTriggerHarness({
		store: setup.store,
		parameters,
		...options,
		credentials,
	});
	setup.harnesses.push(harness);
	return harness;
}

/** The transaction copy a collection callback carries (2.2, trimmed): `channel` is an object. */
export function collectionTransaction(referenceNo: string, amount: number, status: string) {
	return {
		reference_no: referenceNo,
		subtotal_amount: amount,
		service_fee: 10,
		total_amount: amount + 10,
		status,
		channel: {
			name: 'GCash',
			code: 'GCASH_TRN',
			slug: 'gcash',
			category: { name: 'E-Wallet', slug: 'e-wallet' },
		},
	};
}

/** The payout copy a disbursement callback carries: `channel` is a string, plus `fields`. */
export function payoutTransaction(referenceNo: string, amount: number, status: string) {
	return {
		reference_no: referenceNo,
		channel: 'GCASH',
		amount,
		status,
		fields: { mobile_number: '09171234567' },
		fee: 15,
		total_amount: amount + 15,
	};
}

export interface CallbackOptions {
	secret?: string;
	/** Amount put in the body (default: the signed one). */
	bodyAmount?: number | string;
	signature?: string | null;
	transaction?: Record<string, unknown>;
	totalAmount?: number;
}

/** A callback body as the service sends it: {data: {..., signature}} (docs/endpoints.md, Callbacks). */
export function callbackBody(
	referenceNo: string,
	amount: number,
	status: string,
	options: CallbackOptions = {},
): { data: Record<string, unknown> } {
	const transaction = options.transaction ?? collectionTransaction(referenceNo, amount, status);
	const data: Record<string, unknown> = {
		reference_no: referenceNo,
		amount: options.bodyAmount ?? amount,
		status,
		signature: signCallback(options.secret ?? SECRET, amount, referenceNo),
		total_amount: options.totalAmount ?? (transaction.total_amount as number),
		transaction,
	};
	if (options.signature === null) delete data.signature;
	else if (options.signature !== undefined) data.signature = options.signature;
	return { data };
}

/**
 * The callback the service sends for a record the sandbox holds: its total_amount and a copy of
 * the record (with `status` as the callback states it, which may be forged).
 */
export function serviceCallback(
	gw: SandboxGateway,
	referenceNo: string,
	amount: number,
	status: string,
) {
	const record = (gw.getTransaction(referenceNo) ?? gw.getPayout(referenceNo)) as
		| Record<string, unknown>
		| undefined;
	if (!record) throw new Error(`The sandbox holds no ${referenceNo}`);
	return callbackBody(referenceNo, amount, status, {
		transaction: { ...record, status },
		totalAmount: record.total_amount as number,
	});
}

/** A payment link created in the sandbox and paid (or cancelled): its record as the look-up returns it. */
export async function paidTransaction(
	gw: SandboxGateway,
	referenceNo: string,
	amount: number,
	status: 'completed' | 'cancelled' = 'completed',
): Promise<Record<string, unknown>> {
	const token = await collectionToken(gw);
	const res = await callSandbox(gw, 'POST', '/v1/biller/transactions/generate', {
		token,
		body: txBody(referenceNo, { amount }),
	});
	if (res.status !== 200)
		throw new Error(`The sandbox refused to create ${referenceNo}: HTTP ${res.status}`);
	await gw.settle(referenceNo, status);
	return gw.getTransaction(referenceNo) as Record<string, unknown>;
}
