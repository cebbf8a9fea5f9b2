// The payout ledger behind "Maximum Total per Day" in a running n8n 2.x: an n8n Data Table named
// "Payout ledger", reached through n8n's public API (/api/v1) with an API key of the owner. The key
// is created over the internal REST API with the owner's session (n8n has no CLI for API keys, and
// shows a key in full only when it creates it), so it is kept in the user folder (ledger.json,
// readable by its owner only) and reused while it still works. n8n 1.x has no Data Table public API.
import fs from 'fs';
import path from 'path';
import type { CredentialRef, ImportedCredential } from './credentials';
import type { N8nInstance } from './instance';
import { answerOf, type N8nRest } from './rest';

/** What the package's ledger credential (`paymentGatewayLedgerApi`) holds. */
export interface Ledger {
	/** n8n's public API base, e.g. http://127.0.0.1:5678/api/v1. */
	apiUrl: string;
	apiKey: string;
	dataTableId: string;
}

/** A ledger set up, and what was there before. */
export interface LedgerSetup extends Ledger {
	keyReused: boolean;
	tableReused: boolean;
}

export const LEDGER_TABLE = 'Payout ledger';

export const LEDGER_COLUMNS = [
	{ name: 'day', type: 'string' },
	{ name: 'scope', type: 'string' },
	{ name: 'reference', type: 'string' },
	{ name: 'centavos', type: 'number' },
	{ name: 'state', type: 'string' },
] as const;

/** The API key's scopes: find or create the table, and read, add, change and remove its rows. */
export const LEDGER_SCOPES = [
	'dataTable:read',
	'dataTable:list',
	'dataTable:create',
	'dataTableRow:create',
	'dataTableRow:read',
	'dataTableRow:update',
	'dataTableRow:delete',
] as const;

export const LEDGER_KEY_LABEL = 'Payout ledger';

export const LEDGER_CREDENTIAL = {
	id: 'pgwPayoutLedger',
	name: 'Payout ledger (this n8n)',
	type: 'paymentGatewayLedgerApi',
} satisfies CredentialRef;

/** The first n8n whose public API has Data Tables. */
export const LEDGER_MIN_N8N = '2.7';

/** Whether this n8n version has the Data Table public API the ledger needs. */
export function supportsLedger(n8nVersion: string): boolean {
	const [major, minor] = n8nVersion.replace(/^v/, '').split('.').map(Number);
	const [minMajor, minMinor] = LEDGER_MIN_N8N.split('.').map(Number);
	return major > minMajor || (major === minMajor && minor >= minMinor);
}

/** The ledger credential as `n8n import:credentials` takes it (plain `data`, encrypted on import). */
export function ledgerCredential(ledger: Ledger): ImportedCredential {
	const { apiUrl, apiKey, dataTableId } = ledger;
	return { ...LEDGER_CREDENTIAL, data: { apiUrl, apiKey, dataTableId } };
}

/** n8n's public API base for an n8n served at `n8nUrl`. */
export const publicApiUrl = (n8nUrl: string): string => `${n8nUrl.replace(/\/+$/, '')}/api/v1`;

/** What ledger.json keeps: the key (shown in full only once), its id and scopes, the table's id. */
interface SavedLedger {
	apiKeyId: string;
	apiKey: string;
	scopes: string[];
	dataTableId: string;
}

export const ledgerFile = (userFolder: string): string => path.join(userFolder, 'ledger.json');

function readSaved(userFolder: string): SavedLedger | undefined {
	try {
		const saved = JSON.parse(fs.readFileSync(ledgerFile(userFolder), 'utf8')) as SavedLedger;
		return typeof saved.apiKey === 'string' && typeof saved.apiKeyId === 'string'
			? saved
			: undefined;
	} catch {
		return undefined;
	}
}

/**
 * The ledger an earlier set-up saved in this user folder, pointed at `n8nUrl` (the port may have
 * changed), for importing its credential before n8n starts; undefined when there is none. Whether
 * its key still works is known only once n8n runs (`setUpLedger`).
 */
export function savedLedger(userFolder: string, n8nUrl: string): Ledger | undefined {
	const saved = readSaved(userFolder);
	if (!saved?.dataTableId) return undefined;
	return { apiUrl: publicApiUrl(n8nUrl), apiKey: saved.apiKey, dataTableId: saved.dataTableId };
}

interface PublicAnswer {
	status: number;
	json: unknown;
	text: string;
}

/** One call of n8n's public API with an API key. */
export async function publicApi(
	ledger: Pick<Ledger, 'apiUrl' | 'apiKey'>,
	method: string,
	route: string,
	body?: unknown,
): Promise<PublicAnswer> {
	const res = await fetch(`${ledger.apiUrl}${route}`, {
		method,
		headers: {
			'x-n8n-api-key': ledger.apiKey,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return await answerOf(res);
}

/** The ledger's rows whose columns equal these values: one page (at most 250), or an error. */
export async function ledgerRowsWhere(
	ledger: Ledger,
	equal: Record<string, string>,
): Promise<Array<Record<string, unknown>>> {
	const filter = encodeURIComponent(
		JSON.stringify({
			type: 'and',
			filters: Object.entries(equal).map(([columnName, value]) => ({
				columnName,
				condition: 'eq',
				value,
			})),
		}),
	);
	const route = `/data-tables/${ledger.dataTableId}/rows?limit=250&filter=${filter}`;
	const page = expectStatus(
		await publicApi(ledger, 'GET', route),
		[200],
		`GET /api/v1${route}`,
	) as {
		data: Array<Record<string, unknown>>;
		nextCursor: string | null;
	};
	if (page.nextCursor !== null) throw new Error(`GET /api/v1${route}: more than one page of rows`);
	return page.data;
}

function expectStatus(answer: PublicAnswer, ok: number[], what: string): unknown {
	if (!ok.includes(answer.status))
		throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
	return answer.json;
}

interface DataTable {
	id: string;
	name: string;
	columns?: Array<{ name: string; type: string }>;
}

const tableFilter = () =>
	`/data-tables?filter=${encodeURIComponent(JSON.stringify({ name: LEDGER_TABLE }))}`;

/** The ledger table found by name with this key, or undefined; a 401 or 403 says the key is no good. */
async function findTable(
	key: Pick<Ledger, 'apiUrl' | 'apiKey'>,
): Promise<{ keyWorks: boolean; table?: DataTable }> {
	const answer = await publicApi(key, 'GET', tableFilter());
	if (answer.status === 401 || answer.status === 403) return { keyWorks: false };
	const { data } = expectStatus(answer, [200], `GET /api/v1${tableFilter()}`) as {
		data: DataTable[];
	};
	return { keyWorks: true, table: data.find((t) => t.name === LEDGER_TABLE) };
}

/** Throws when a table of that name lacks a ledger column or has it with another type. */
function checkColumns(table: DataTable): void {
	if (!table.columns) return;
	const wrong = LEDGER_COLUMNS.filter(
		(col) => !table.columns?.some((c) => c.name === col.name && c.type === col.type),
	);
	if (wrong.length)
		throw new Error(
			`The Data Table "${LEDGER_TABLE}" (${table.id}) in this n8n lacks the column(s) ${wrong
				.map((c) => `${c.name} (${c.type})`)
				.join(', ')}: rename or delete it in n8n, and the set-up creates the ledger anew.`,
		);
}

/** A new API key of the signed-in user with the ledger's scopes. */
async function createKey(rest: N8nRest): Promise<{ id: string; rawApiKey: string }> {
	const res = await rest.request('POST', '/api-keys', {
		label: LEDGER_KEY_LABEL,
		scopes: LEDGER_SCOPES,
		expiresAt: null,
	});
	if (res.status === 404)
		throw new Error(
			'POST /rest/api-keys answered 404: the public API of this n8n is switched off (N8N_PUBLIC_API_DISABLED), and the ledger needs it.',
		);
	const key = (res.json as { data?: { id?: string; rawApiKey?: string } } | undefined)?.data;
	if (res.status !== 200 || !key?.id || !key.rawApiKey)
		throw new Error(`POST /rest/api-keys answered ${res.status}: ${res.text.slice(0, 300)}`);
	return { id: key.id, rawApiKey: key.rawApiKey };
}

/**
 * Finds or makes the ledger in the n8n at `n8nUrl`, `rest` signed in as its owner: reuses the key
 * kept in `userFolder` when n8n still accepts it and it has every ledger scope, else creates one
 * (and deletes the one it replaces); finds the table "Payout ledger" by name, else creates it. Run
 * again, it returns the same key and table.
 */
export async function setUpLedger(
	rest: N8nRest,
	n8nUrl: string,
	userFolder: string,
): Promise<LedgerSetup> {
	const apiUrl = publicApiUrl(n8nUrl);
	const saved = readSaved(userFolder);
	let key: { id: string; apiKey: string } | undefined;
	let found: DataTable | undefined;
	if (saved && LEDGER_SCOPES.every((scope) => saved.scopes?.includes(scope))) {
		const check = await findTable({ apiUrl, apiKey: saved.apiKey });
		if (check.keyWorks) {
			key = { id: saved.apiKeyId, apiKey: saved.apiKey };
			found = check.table;
		}
	}
	const keyReused = Boolean(key);
	if (!key) {
		if (saved) await rest.request('DELETE', `/api-keys/${encodeURIComponent(saved.apiKeyId)}`);
		const created = await createKey(rest);
		key = { id: created.id, apiKey: created.rawApiKey };
		const check = await findTable({ apiUrl, apiKey: key.apiKey });
		if (!check.keyWorks)
			throw new Error(`n8n refused the API key it has just created (GET /api/v1${tableFilter()})`);
		found = check.table;
	}
	const access = { apiUrl, apiKey: key.apiKey };
	const tableReused = Boolean(found);
	if (!found) {
		const answer = await publicApi(access, 'POST', '/data-tables', {
			name: LEDGER_TABLE,
			columns: LEDGER_COLUMNS,
		});
		// 409: made meanwhile by another set-up; take that one.
		found =
			answer.status === 409
				? (await findTable(access)).table
				: (expectStatus(answer, [200, 201], 'POST /api/v1/data-tables') as DataTable);
		if (!found?.id) throw new Error(`POST /api/v1/data-tables gave no table: ${answer.text}`);
	}
	checkColumns(found);
	const keep: SavedLedger = {
		apiKeyId: key.id,
		apiKey: key.apiKey,
		scopes: [...LEDGER_SCOPES],
		dataTableId: found.id,
	};
	fs.writeFileSync(ledgerFile(userFolder), JSON.stringify(keep, null, 2) + '\n', { mode: 0o600 });
	return { apiUrl, apiKey: key.apiKey, dataTableId: found.id, keyReused, tableReused };
}

/**
 * The ledger set up in the running n8n and its credential ("Payout ledger (this n8n)") in n8n.
 * `imported` is the ledger whose credential was imported before n8n started, if any: the
 * credential is imported again (`n8n import:credentials`, beside the running n8n, matched by id)
 * only when the key or the table changed.
 */
export async function setUpLedgerCredential(
	instance: N8nInstance,
	rest: N8nRest,
	n8nUrl: string,
	imported?: Ledger,
): Promise<{ ledger: LedgerSetup; credentialImported: boolean }> {
	const ledger = await setUpLedger(rest, n8nUrl, instance.userFolder);
	const same =
		imported?.apiUrl === ledger.apiUrl &&
		imported.apiKey === ledger.apiKey &&
		imported.dataTableId === ledger.dataTableId;
	if (!same) await instance.importCredentials([ledgerCredential(ledger)]);
	return { ledger, credentialImported: !same };
}
