/**
 * Shared by the fault, bad-input and security tests: the two money-moving operations described
 * once (so every table runs against both), a seeded random generator, and read-only
 * instrumentation of the sandbox (which fault rule hit, which bearer token each request carried).
 */
import type { IDataObject, INodeExecutionData, INodeParameters, OnError } from 'n8n-workflow';

import { ENDPOINTS } from '../../nodes/shared/transport/endpoints';
import type { FaultMode, FaultRule, RecordedRequest, SandboxOptions } from '../../sandbox';
import { FaultInjector } from '../../sandbox/server/faults';
import { SandboxState } from '../../sandbox/server/state';
import * as collection from './collectionRuns';
import * as disbursement from './disbursementRuns';
import { scannedCount, secretsOf, type CredentialStore, type NodeRunResult } from './index';
import { report } from './report';

export const PATHS = {
	generate: ENDPOINTS.generateTransaction.path,
	collectionLookup: ENDPOINTS.getCollectionTransactions.path,
	collectionToken: ENDPOINTS.collectionToken.path,
	process: ENDPOINTS.createPayout.path,
	payoutLookup: ENDPOINTS.getPayouts.path,
	disbursementToken: ENDPOINTS.disbursementToken.path,
} as const;

/** What to do about an outcome not known yet (no Payout Ledger): check it, try again only with the same reference_no. */
export const CHECK_THEN_SAME_REFERENCE = (noun: 'transaction' | 'payout') => {
	const [resource, twice] =
		noun === 'payout'
			? ['Payout', 'could pay twice']
			: ['Transaction', 'could create a second transaction'];
	return `Check it with ${resource} > Get or ${resource} > Reconcile before anything else. To try again, use the same reference_no: a run with it finds the ${noun} or sends it once, while a new reference_no ${twice}.`;
};

/** The error of an item whose answers were unclear (`what`) and whose look-ups found nothing: its outcome is not known yet. */
export const OUTCOME_UNKNOWN = (noun: string, reference: string, what: string, details = '') =>
	`The outcome of the ${noun} "${reference}" is not known yet: ${what}. No ${noun} was found under this reference_no so far, but the service may still complete it.${details}`;

/** OUTCOME_UNKNOWN after every attempt failed unclearly, the last as `lastAttempt`. */
export const NO_CLEAR_ANSWER = (noun: string, reference: string, lastAttempt: string) =>
	OUTCOME_UNKNOWN(
		noun,
		reference,
		'none of 3 attempts got a clear answer',
		` Last attempt: ${lastAttempt}`,
	);

/** Generate (Payment Collection) or Payout Create (Disbursement), behind one shape. */
export interface MoneyOperation {
	name: 'Generate' | 'Payout Create';
	/** How the node names its service in messages. */
	label: 'Payment Collection' | 'Disbursement';
	noun: 'transaction' | 'payout';
	credentialType: string;
	createPath: string;
	lookupPath: string;
	tokenPath: string;
	setup: collection.Setup | disbursement.Setup;
	/** Node parameters mapping each item's columns, with these Options (and overrides). */
	parameters(options?: INodeParameters, overrides?: INodeParameters): INodeParameters;
	/** A valid spreadsheet row. */
	row(ref: string, amount: number, extra?: IDataObject): IDataObject;
	/** What the service holds for a reference now (its public view). */
	record(ref: string): object | undefined;
	/** Runs the node with the file's credential, or with `credentialId`. */
	run(
		parameters: INodeParameters,
		items: IDataObject[],
		onError?: OnError,
		credentialId?: string,
	): Promise<NodeRunResult>;
	/** A row the service itself refuses with 422, and what it says. */
	/**
	 * A row the service refuses (422): its columns, the field errors, and the error the item gets
	 * when the node explains the refusal further (a payout's channel, with the valid codes).
	 */
	rejected: {
		extra: IDataObject;
		fieldErrors: Record<string, string[]>;
		explained?: { error: string; errorDetails: string };
		/** Read-only requests made to explain it. */
		explainedWith?: Record<string, number>;
	};
}

export async function collectionOperation(options: SandboxOptions = {}): Promise<MoneyOperation> {
	const setup = await collection.setUp(options);
	return {
		name: 'Generate',
		label: 'Payment Collection',
		noun: 'transaction',
		credentialType: collection.COLLECTION,
		createPath: PATHS.generate,
		lookupPath: PATHS.collectionLookup,
		tokenPath: PATHS.collectionToken,
		setup,
		parameters: (opts = {}, overrides = {}) =>
			collection.generateParameters({ options: opts, ...overrides }),
		row: (ref, amount, extra = {}) => ({ ref, amount, ...extra }),
		record: (ref) => setup.gw.getTransaction(ref),
		run: async (parameters, items, onError, credentialId) =>
			await collection.run(setup, parameters, { items, onError, credentialId }),
		rejected: {
			extra: { channel: 'NOPE' },
			fieldErrors: { channel_code: ['The selected channel code is invalid.'] },
		},
	};
}

export async function payoutOperation(options: SandboxOptions = {}): Promise<MoneyOperation> {
	const setup = await disbursement.setUp(options);
	return {
		name: 'Payout Create',
		label: 'Disbursement',
		noun: 'payout',
		credentialType: disbursement.DISBURSEMENT,
		createPath: PATHS.process,
		lookupPath: PATHS.payoutLookup,
		tokenPath: PATHS.disbursementToken,
		setup,
		parameters: (opts = {}, overrides = {}) =>
			disbursement.eWalletParameters({ options: opts, ...overrides }),
		row: (ref, amount, extra = {}) => ({ ref, amount, mobile: '09171234567', ...extra }),
		record: (ref) => setup.gw.getPayout(ref),
		run: async (parameters, items, onError, credentialId) =>
			await disbursement.run(setup, parameters, { items, onError, credentialId }),
		rejected: {
			extra: { channel: 'NOPE' },
			fieldErrors: { channel: ['The selected channel is invalid.'] },
			explained: {
				error:
					'Channel "NOPE" is not an E-Wallet channel of this account; E-Wallet channels: GCASH, PAYMAYA',
				errorDetails:
					'Nothing was sent: the service refused the payout (The service rejected the request: channel: The selected channel is invalid.). Pick the channel from the Channel list (codes are case-sensitive), or change Channel Type.',
			},
			explainedWith: { 'GET /v1/api/disbursement/channels': 1 },
		},
	};
}

/** Makes the operation's next create or look-up request meet `fault`, once. */
export function failOnce(
	op: MoneyOperation,
	request: 'create' | 'lookUp',
	fault: Omit<FaultRule, 'method' | 'path' | 'times'>,
): void {
	const [method, path] = request === 'create' ? ['POST', op.createPath] : ['GET', op.lookupPath];
	op.setup.gw.faults.add({ method, path, ...fault, times: 1 });
}

/** The item a successful row becomes: the service's record as it is now, plus `replayed`. */
export function itemFor(
	record: object | undefined,
	itemIndex: number,
	replayed = false,
): INodeExecutionData {
	expect(record).toBeDefined();
	return { json: { ...(record as IDataObject), replayed }, pairedItem: { item: itemIndex } };
}

export function createdItem(
	op: MoneyOperation,
	ref: string,
	itemIndex: number,
	replayed = false,
): INodeExecutionData {
	return itemFor(op.record(ref), itemIndex, replayed);
}

/** Request counts by 'METHOD /path' for one operation's three paths, zeros left out. */
export function requestCounts(op: MoneyOperation): Record<string, number> {
	const byPath = op.setup.gw.stats().requestsByPath;
	const counts: Record<string, number> = {};
	for (const key of [`POST ${op.createPath}`, `GET ${op.lookupPath}`, `POST ${op.tokenPath}`]) {
		if (byPath[key]) counts[key] = byPath[key];
	}
	return counts;
}

/** FAULT_SEED when given (to replay a failing run), otherwise a fresh one. */
export function faultSeed(): number {
	const given = process.env.FAULT_SEED;
	if (given !== undefined && given.trim() !== '') {
		const seed = Number(given);
		if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
			throw new Error(`FAULT_SEED must be an integer from 0 to 4294967295, not "${given}"`);
		}
		return seed;
	}
	return Math.floor(Math.random() * 0x100000000);
}

export interface FaultHit {
	method: string;
	path: string;
	mode: FaultMode;
}

/**
 * Records every fault the sandbox's injector decides on (it only reads the decision), so a test
 * can say how many faults its run really hit. Restore with `.restore()`.
 */
export function recordFaultHits(): { hits: FaultHit[]; restore(): void } {
	const hits: FaultHit[] = [];
	const original = FaultInjector.prototype.decide;
	const spy = jest.spyOn(FaultInjector.prototype, 'decide').mockImplementation(function (
		this: FaultInjector,
		method,
		path,
	) {
		const decision = original.call(this, method, path);
		if (decision.fault) hits.push({ method, path, mode: decision.fault.mode });
		return decision;
	});
	return { hits, restore: () => spy.mockRestore() };
}

/** Records every request any sandbox gateway receives (method, path, headers, body). */
export function recordRequests(): { requests: RecordedRequest[]; restore(): void } {
	const requests: RecordedRequest[] = [];
	const original = SandboxState.prototype.recordRequest;
	const spy = jest.spyOn(SandboxState.prototype, 'recordRequest').mockImplementation(function (
		this: SandboxState,
		request,
	) {
		requests.push(request);
		original.call(this, request);
	});
	return { requests, restore: () => spy.mockRestore() };
}

/**
 * Reports (TEST_REPORT=1) what the secret guard has scanned in this test file, and for how many
 * distinct secrets (counted by kind, never shown). `secrets` is the sum of secretsOf() over the
 * stores.
 */
export function reportSecretScan(
	label: string,
	stores: CredentialStore[],
): { scanned: number; secrets: number } {
	const secrets = stores.reduce((sum, store) => sum + secretsOf(store).total, 0);
	const distinct = new Map<string, string>();
	for (const store of stores) {
		for (const secret of store.secrets())
			distinct.set(`${secret.kind}\u0000${secret.value}`, secret.kind);
	}
	const byKind = (kind: string) => [...distinct.values()].filter((k) => k === kind).length;
	const scanned = scannedCount();
	report(
		`secret scan (${label}): ${scanned} texts scanned for ${distinct.size} distinct secrets ` +
			`(${byKind('password')} passwords, ${byKind('signing secret')} signing secret, ${byKind('session token')} session tokens) ` +
			`held by ${stores.length} credential stores; 0 found`,
	);
	return { scanned, secrets };
}

/**
 * Both money-creating operations for every test of a file: each on its own sandbox gateway, warmed
 * up with one created record (so a stored token is there), faults and counters cleared before
 * each test, the secret scan reported and the gateways closed after the last.
 */
export function moneyOperationsPerFile(
	label: string,
	options: SandboxOptions = {},
): Record<MoneyOperation['name'], MoneyOperation> {
	const ops = {} as Record<MoneyOperation['name'], MoneyOperation>;
	beforeAll(async () => {
		ops.Generate = await collectionOperation(options);
		ops['Payout Create'] = await payoutOperation(options);
		for (const op of Object.values(ops)) {
			const warm = await op.run(op.parameters(), [op.row(`WARM-${op.noun}`, 1)]);
			expect(warm.error).toBeUndefined();
		}
	});
	beforeEach(() => {
		for (const op of Object.values(ops)) {
			op.setup.gw.faults.clear();
			op.setup.gw.resetStats();
			op.setup.store.resetStats();
		}
	});
	afterAll(async () => {
		reportSecretScan(
			label,
			Object.values(ops).map((op) => op.setup.store),
		);
		await Promise.all(Object.values(ops).map(async (op) => await op.setup.gw.close()));
	});
	return ops;
}

/** The two ways a node reads a row: expressions per field, or "Map Input Columns Automatically". */
export const MAPPINGS = ['manual', 'automatic'] as const;
export type Mapping = (typeof MAPPINGS)[number];

/** The operation's parameters in either mapping, with these Options. */
export function mappedParameters(
	op: MoneyOperation,
	mapping: Mapping,
	options: IDataObject = {},
): INodeParameters {
	if (mapping === 'manual') return op.parameters(options as INodeParameters);
	const fixed: INodeParameters =
		op.name === 'Generate'
			? { resource: 'transaction', operation: 'generate', channelCode: 'GCASH_TRN' }
			: { resource: 'payout', operation: 'create', channelType: 'eWallet', channel: 'GCASH' };
	return { ...fixed, mappingMode: 'autoMapInputData', options: options as INodeParameters };
}

/** A valid row for either mapping (automatic: the service's column names). */
export function mappedRow(
	op: MoneyOperation,
	mapping: Mapping,
	reference: string,
	amount: unknown,
): IDataObject {
	if (mapping === 'manual') return op.row(reference, amount as number);
	return {
		reference_no: reference,
		amount: amount as number,
		...(op.name === 'Payout Create' ? { mobile_number: '09171234567' } : {}),
	};
}

/** [rows, amount] of one final status in Reconcile's summary. */
type StatusTotal = [rows: number, amount: number];

/**
 * Reconcile's summary item, as both nodes output it: completed, pending and cancelled always
 * present ([0, 0] unless given), every count 0 unless given.
 */
export function reconcileSummary(
	rows: number,
	byStatus: Partial<Record<'completed' | 'pending' | 'cancelled', StatusTotal>>,
	counts: Partial<
		Record<'notFound' | 'ambiguous' | 'mismatched' | 'unconfirmed' | 'notChecked', number>
	> = {},
): IDataObject {
	const total = (status: keyof typeof byStatus) => {
		const [statusRows, amount] = byStatus[status] ?? [0, 0];
		return { rows: statusRows, amount };
	};
	return {
		summary: true,
		rows,
		byStatus: {
			completed: total('completed'),
			pending: total('pending'),
			cancelled: total('cancelled'),
		},
		notFound: 0,
		ambiguous: 0,
		mismatched: 0,
		unconfirmed: 0,
		notChecked: 0,
		...counts,
	};
}
