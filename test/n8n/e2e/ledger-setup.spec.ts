// The payout ledger of "Maximum Total per Day" set up in the running n8n as the demo does it
// (scripts/n8n/ledger.ts): an API key made over the REST API with the owner's session, the Data
// Table "Payout ledger" found or created through the public API, the credential imported. Then its
// rows over plain fetch with the key, as a node would use them. n8n 1.x has no Data Table public API.
import fs from 'fs';
import {
	LEDGER_CREDENTIAL,
	LEDGER_TABLE,
	ledgerFile,
	publicApi,
	setUpLedger,
	setUpLedgerCredential,
	type Ledger,
} from '../../../scripts/n8n/ledger';
import { major } from '../../../scripts/n8n/targets';
import { test, expect } from './fixtures';

test.describe.configure({ mode: 'serial' });
test.skip(
	({ n8nTarget }) => major(n8nTarget.n8n) < 2,
	'the payout ledger needs n8n 2.7 or later: n8n 1.x has no Data Table public API',
);

let ledger: Ledger | undefined;
const set = (): Ledger => {
	if (!ledger) throw new Error('the ledger was not set up (the first check failed)');
	return ledger;
};

type LedgerRow = {
	id: number;
	day: string;
	scope: string;
	reference: string;
	centavos: number;
	state: string;
};

const dayFilter = (day: string) =>
	encodeURIComponent(
		JSON.stringify({ type: 'and', filters: [{ columnName: 'day', condition: 'eq', value: day }] }),
	);

/** The rows of one day, in one read (at most 250, the public API's largest page). */
async function rowsOf(day: string): Promise<LedgerRow[]> {
	const answer = await publicApi(
		set(),
		'GET',
		`/data-tables/${set().dataTableId}/rows?filter=${dayFilter(day)}&limit=250`,
	);
	expect(answer.status, `rows of ${day}: ${answer.text}`).toBe(200);
	const { data, nextCursor } = answer.json as { data: LedgerRow[]; nextCursor: string | null };
	expect(nextCursor, 'every row of the day on one page').toBeNull();
	return data;
}

async function insert(row: Omit<LedgerRow, 'id'>): Promise<LedgerRow> {
	const answer = await publicApi(set(), 'POST', `/data-tables/${set().dataTableId}/rows`, {
		data: [row],
		returnType: 'all',
	});
	expect(answer.status, `insert ${row.reference}: ${answer.text}`).toBe(200);
	return (answer.json as LedgerRow[])[0];
}

test.afterAll(async ({ workerLeg }) => {
	await workerLeg.stop();
});

test('the ledger set up in a running n8n: API key, Data Table "Payout ledger", its credential imported; set up again it is the same', async ({
	leg,
}) => {
	const rest = await leg.start([]);
	const first = await setUpLedgerCredential(leg.instance, rest, leg.n8nUrl);
	expect(first.ledger, 'a new key and a new table').toMatchObject({
		keyReused: false,
		tableReused: false,
		apiUrl: `${leg.n8nUrl}/api/v1`,
	});
	expect(first.credentialImported, 'the credential imported').toBe(true);
	expect(
		fs.statSync(ledgerFile(leg.instance.userFolder)).mode & 0o077,
		'ledger.json, which holds the key, readable by its owner only',
	).toBe(0);
	const credentials = await rest.expectOk<Array<{ id: string; name: string; type: string }>>(
		'GET',
		'/credentials',
	);
	expect(
		credentials.filter((c) => c.type === LEDGER_CREDENTIAL.type),
		'the ledger credential in n8n, once',
	).toEqual([expect.objectContaining(LEDGER_CREDENTIAL)]);

	const again = await setUpLedgerCredential(leg.instance, rest, leg.n8nUrl, first.ledger);
	expect(again.ledger, 'the same key and table, reused').toEqual({
		...first.ledger,
		keyReused: true,
		tableReused: true,
	});
	expect(again.credentialImported, 'the credential left as it is').toBe(false);

	// As after a restart of the demo: n8n started again, the key kept in the user folder still works.
	const restarted = await leg.start([]);
	const afterRestart = await setUpLedger(restarted, leg.n8nUrl, leg.instance.userFolder);
	expect(afterRestart, 'after a restart: the same key and table').toEqual(again.ledger);

	// A key revoked in n8n (Settings > n8n API) is replaced; the table stays.
	const { apiKeyId } = JSON.parse(fs.readFileSync(ledgerFile(leg.instance.userFolder), 'utf8')) as {
		apiKeyId: string;
	};
	await restarted.expectOk('DELETE', `/api-keys/${apiKeyId}`);
	const replaced = await setUpLedger(restarted, leg.n8nUrl, leg.instance.userFolder);
	expect(replaced, 'a new key, the same table').toMatchObject({
		keyReused: false,
		tableReused: true,
		dataTableId: first.ledger.dataTableId,
	});
	expect(replaced.apiKey).not.toBe(first.ledger.apiKey);
	expect(
		(await publicApi(first.ledger, 'GET', '/data-tables')).status,
		'the revoked key refused',
	).toBe(401);

	const tables = await publicApi(replaced, 'GET', '/data-tables');
	expect(
		(tables.json as { data: Array<{ name: string }> }).data.filter((t) => t.name === LEDGER_TABLE),
		'one table "Payout ledger"',
	).toHaveLength(1);
	ledger = { apiUrl: replaced.apiUrl, apiKey: replaced.apiKey, dataTableId: replaced.dataTableId };
});

test('a ledger row over the public API with the key: inserted, listed by its day, deleted', async () => {
	const day = '2026-11-27';
	const row = await insert({
		day,
		scope: 'wallet:e2e',
		reference: 'LEDGER-E2E-001',
		centavos: 125050,
		state: 'reserved',
	});
	expect(row, 'the row as stored').toMatchObject({ day, centavos: 125050, state: 'reserved' });
	expect(await rowsOf(day), 'the day lists the row').toEqual([expect.objectContaining(row)]);
	expect(await rowsOf('2026-11-28'), 'another day lists nothing').toEqual([]);

	const filter = encodeURIComponent(
		JSON.stringify({
			type: 'and',
			filters: [{ columnName: 'id', condition: 'eq', value: row.id }],
		}),
	);
	const deleted = await publicApi(
		set(),
		'DELETE',
		`/data-tables/${set().dataTableId}/rows/delete?filter=${filter}&returnData=true`,
	);
	expect(deleted.status, deleted.text).toBe(200);
	expect(deleted.json, 'the deleted row returned').toEqual([expect.objectContaining(row)]);
	expect(await rowsOf(day), 'the day lists nothing after the delete').toEqual([]);
});

test('20 concurrent inserts, then one filtered read sees all 20 and their sum', async () => {
	const day = '2026-11-29';
	const rows = Array.from({ length: 20 }, (_, i) => ({
		day,
		scope: 'wallet:e2e',
		reference: `LEDGER-E2E-C${String(i + 1).padStart(2, '0')}`,
		centavos: 10000 + i * 101,
		state: 'reserved',
	}));
	const inserted = await Promise.all(rows.map((row) => insert(row)));
	expect(new Set(inserted.map((r) => r.id)).size, '20 rows, each its own id').toBe(20);

	const read = await rowsOf(day);
	expect(read.map((r) => r.reference).sort(), 'the read sees every insert').toEqual(
		rows.map((r) => r.reference).sort(),
	);
	const sum = (list: Array<{ centavos: number }>) => list.reduce((s, r) => s + r.centavos, 0);
	expect(sum(read), 'the sum of centavos').toBe(sum(rows));
	expect(sum(rows)).toBe(219190);
});
