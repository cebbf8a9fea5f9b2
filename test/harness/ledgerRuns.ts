/**
 * Set-up of the Maximum Total per Day tests: a sandbox gateway and its Disbursement credential, a
 * local n8n Data Table API (dataTableApi.ts) holding the ledger, and a Payout Ledger credential
 * for it; payouts run through Payout > Create (version 2) or Confirm with both credentials.
 */
import type { IDataObject, INodeCredentials, INodeParameters, OnError } from 'n8n-workflow';

import { dayIn } from '../../nodes/shared/validation/days';
import { startDataTableApi, type DataTableApi } from './dataTableApi';
import { eWalletParameters, run, setUp, type Setup } from './disbursementRuns';
import type { NodeRunResult } from './index';

export const LEDGER_CREDENTIAL = 'paymentGatewayLedgerApi';

export interface LedgerSetup extends Setup {
	ledger: DataTableApi;
	/** The node's Payout Ledger credential, pointing at `ledger`. */
	ledgerCredential: INodeCredentials;
}

export async function setUpWithLedger(): Promise<LedgerSetup> {
	const setup = await setUp();
	const ledger = await startDataTableApi();
	const stored = setup.store.add(LEDGER_CREDENTIAL, {
		apiUrl: ledger.url,
		apiKey: ledger.apiKey,
		dataTableId: ledger.tableId,
	});
	return {
		...setup,
		ledger,
		ledgerCredential: { [LEDGER_CREDENTIAL]: { id: stored.id, name: stored.name } },
	};
}

/** Another Payout Ledger credential (a wrong key, an unreachable URL), as the node's. */
export function otherLedgerCredential(s: LedgerSetup, data: IDataObject): INodeCredentials {
	const stored = s.store.add(LEDGER_CREDENTIAL, {
		apiUrl: s.ledger.url,
		apiKey: s.ledger.apiKey,
		dataTableId: s.ledger.tableId,
		...data,
	});
	return { [LEDGER_CREDENTIAL]: { id: stored.id, name: stored.name } };
}

/** Today in the time zone, as the ledger's `day` column holds it. */
export const today = (timeZone = 'Asia/Manila') => dayIn(timeZone, new Date());

/** The ledger's scope of the sandbox's Disbursement credential: its username at the gateway's host. */
export const scopeOf = (s: LedgerSetup) => `sandbox-disburser@${new URL(s.gw.url).host}`;

/** Version 2's e-wallet payout with these Options, fields set below (no automatic mapping). */
export function cappedPayout(options: IDataObject): INodeParameters {
	return {
		...eWalletParameters({ options: options as INodeParameters }),
		runMode: 'pay',
		mappingMode: 'defineBelow',
	};
}

/** Runs Payout > Create (version 2) with the ledger credential (or `credentials` instead). */
export async function payWithLedger(
	s: LedgerSetup,
	parameters: INodeParameters,
	items: IDataObject[],
	{ onError, credentials }: { onError?: OnError; credentials?: INodeCredentials } = {},
): Promise<NodeRunResult> {
	return await run(s, parameters, {
		items,
		onError,
		typeVersion: 2,
		moreCredentials: credentials ?? s.ledgerCredential,
	});
}

/** Runs Payout > Prepare (version 2) with the ledger credential (or `credentials` instead). */
export async function prepareWithLedger(
	s: LedgerSetup,
	options: IDataObject,
	items: IDataObject[],
	more: { onError?: OnError; credentials?: INodeCredentials } = {},
): Promise<NodeRunResult> {
	return await payWithLedger(s, { ...cappedPayout(options), operation: 'prepare' }, items, more);
}

/** Runs Payout > Confirm with the ledger credential, on each item's `token`. */
export async function confirmWithLedger(
	s: LedgerSetup,
	options: IDataObject,
	tokens: string[],
	onError?: OnError,
): Promise<NodeRunResult> {
	return await payWithLedger(
		s,
		{
			resource: 'payout',
			operation: 'confirm',
			approvalToken: '={{ $json.token }}',
			options: options as INodeParameters,
		},
		tokens.map((token) => ({ token })),
		{ onError },
	);
}

/** A request to the ledger's rows as another writer sends it; throws unless n8n answers 200. */
async function ledgerRequest(
	s: LedgerSetup,
	method: string,
	path: string,
	body: unknown,
): Promise<unknown> {
	const response = await fetch(`${s.ledger.url}/data-tables/${s.ledger.tableId}/rows${path}`, {
		method,
		headers: { 'content-type': 'application/json', 'x-n8n-api-key': s.ledger.apiKey },
		body: JSON.stringify(body),
	});
	if (response.status !== 200)
		throw new Error(`the ledger refused ${method} ${path || '/rows'}: HTTP ${response.status}`);
	return await response.json();
}

/**
 * Rows written before a run, as an earlier execution's payouts: by default of the sandbox
 * credential's scope, paid, created now by n8n's clock (the fake's), or at `createdAt` (ms).
 */
export async function writeLedgerRows(
	s: LedgerSetup,
	rows: Array<{
		day?: string;
		scope?: string;
		centavos: number;
		state?: string;
		reference?: string;
		createdAt?: number;
	}>,
): Promise<void> {
	const offset = s.ledger.clockOffset();
	const instants = [...new Set(rows.map((entry) => entry.createdAt))];
	try {
		for (const instant of instants) {
			if (instant !== undefined) s.ledger.setClockOffset(instant - Date.now());
			await ledgerRequest(s, 'POST', '', {
				data: rows
					.map((entry, i) => ({ entry, i }))
					.filter(({ entry }) => entry.createdAt === instant)
					.map(({ entry, i }) => ({
						day: entry.day ?? today(),
						scope: entry.scope ?? scopeOf(s),
						reference: entry.reference ?? `EARLIER-${i}`,
						centavos: entry.centavos,
						state: entry.state ?? 'paid',
					})),
			});
		}
	} finally {
		s.ledger.setClockOffset(offset);
	}
}

/** Changes the rows the filter picks, as another writer would (n8n's `PATCH .../rows/update`). */
export async function updateLedgerRows(
	s: LedgerSetup,
	filters: Array<{ columnName: string; condition: string; value: string | number }>,
	data: IDataObject,
): Promise<void> {
	await ledgerRequest(s, 'PATCH', '/update', { filter: { type: 'and', filters }, data });
}

/** The rows the ledger holds for a day and scope, without n8n's own columns. */
export function ledgerRows(s: LedgerSetup, day = today()): IDataObject[] {
	return s.ledger
		.rows()
		.filter((row) => row.day === day && row.scope === scopeOf(s))
		.map(({ reference, centavos, state }) => ({ reference, centavos, state }) as IDataObject);
}
