/**
 * A batch's approval token (Payout > Prepare and Confirm with Approval set to one for all items):
 * one decision over a whole list of payouts. The token stays small however long the list: it binds
 * the list by a digest of its rows, each row being the facts a person reads before deciding (its
 * reference, amount, channel and recipient in full, with the account name when given), in any
 * order. With the digest it signs the list's figures, the credential, Environment and Base URL,
 * when it was prepared and its expiry, the same way a single payout's token is signed
 * (approvalToken.ts). A token reads `<the batch in words> [pb1.<payload>.<signature>]`.
 *
 * Confirm is given the rows and the list Prepare gave with the token: the list must have the
 * token's digest (so it is the approved list), and each row must be a row of it (so it names the
 * rows that differ, and how).
 */
import { createHash, randomBytes } from 'crypto';

import { canonicalJson, environmentLabel, readEnvelope, tokenOf } from './approvalToken';
import { comparableAccount, comparableCode, comparableMobile, type Recipient } from './recipient';
import type { DailyTotal } from './days';
import { shownText } from './shownText';
import { formatPesos, toCentavos } from './validation';

/** The batch token's version, the start of its signed part. */
export const BATCH_VERSION = 'pb1';

/** The facts of one payout a batch binds, in the forms they are compared in. */
export interface BatchRow {
	reference_no: string;
	amount: number;
	channel: string;
	/** The recipient: a bank account (bank code and account number) or an e-wallet's mobile number. */
	bankCode?: string;
	accountNumber?: string;
	mobileNumber?: string;
	/** The account name as the row gives it, for a bank account; absent when not given. */
	accountName?: string;
}

/** A row of the approved list as Prepare gives it: its facts and its row number in Prepare's input. */
export type ApprovedRow = BatchRow & { row: number };

/** One channel's share of a batch. */
export interface ChannelTotal {
	channel: string;
	count: number;
	total: number;
}

/** What a batch's token signs. */
export interface BatchPayload {
	batchId: string;
	count: number;
	total: number;
	byChannel: ChannelTotal[];
	largest: { reference_no: string; amount: number };
	/** SHA-256 of the rows' facts, sorted (`listDigest`). */
	digest: string;
	preparedAt: number;
	expiresAt: number;
	environment: string;
	baseUrl: string;
	credential: string;
	dailyTotal?: DailyTotal;
}

/** The facts a batch binds of one payout, from what Create checked (recipient.ts). */
export function batchRowOf(
	referenceNo: string,
	amount: number,
	recipient: Recipient,
	accountName?: unknown,
): BatchRow {
	const row: BatchRow = { reference_no: referenceNo, amount, channel: recipient.channel };
	if (recipient.kind === 'mobile') return { ...row, mobileNumber: recipient.mobileNumber };
	const name = typeof accountName === 'string' ? accountName.trim() : '';
	return {
		...row,
		bankCode: recipient.bankCode,
		accountNumber: recipient.accountNumber,
		...(name ? { accountName: name } : {}),
	};
}

/** The facts in the one form they are compared and hashed in: codes folded, amounts in centavos. */
function comparable(row: BatchRow): Record<string, string | number | undefined> {
	return {
		r: row.reference_no,
		a: toCentavos(row.amount),
		c: comparableCode(row.channel),
		b: comparableCode(row.bankCode),
		n: comparableAccount(row.accountNumber),
		m: comparableMobile(row.mobileNumber),
		name: row.accountName,
	};
}

const lineOf = (row: BatchRow) => canonicalJson(comparable(row));

/** The digest of a list of rows, whatever their order. */
export function listDigest(rows: BatchRow[]): string {
	const lines = rows.map(lineOf).sort();
	return createHash('sha256').update(lines.join('\n')).digest('base64url');
}

/** A new batch's identity: shown, stated in the summary and the token, never a secret. */
export const newBatchId = () => `batch-${randomBytes(6).toString('hex')}`;

/** The figures of a list: how many, the total, per channel, and the largest payout. */
export function batchFigures(
	rows: BatchRow[],
): Pick<BatchPayload, 'count' | 'total' | 'byChannel' | 'largest'> {
	const byChannel = new Map<string, { count: number; centavos: number }>();
	let centavos = 0;
	let largest = rows[0];
	for (const row of rows) {
		const cents = toCentavos(row.amount);
		centavos += cents;
		const channel = byChannel.get(row.channel) ?? { count: 0, centavos: 0 };
		channel.count += 1;
		channel.centavos += cents;
		byChannel.set(row.channel, channel);
		if (row.amount > largest.amount) largest = row;
	}
	return {
		count: rows.length,
		total: centavos / 100,
		byChannel: [...byChannel.entries()]
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
			.map(([channel, { count, centavos: cents }]) => ({ channel, count, total: cents / 100 })),
		largest: { reference_no: largest.reference_no, amount: largest.amount },
	};
}

const payouts = (count: number) =>
	`${count.toLocaleString('en-US')} payout${count === 1 ? '' : 's'}`;

/**
 * The batch in words: how many payouts and their total, where, per channel, the largest, the day's
 * figures when Prepare read them, and the batch's identity and expiry. Every part comes from the
 * signed payload, so Confirm rebuilds it and refuses a token whose words were changed.
 */
export function batchInWords(payload: BatchPayload): string {
	const channels = payload.byChannel
		.map(
			({ channel, count, total }) =>
				`${shownText(channel, 40)} ${payouts(count)}, ${formatPesos(total)}`,
		)
		.join('; ');
	const { largest, dailyTotal } = payload;
	const parts = [
		`Pay ${payouts(payload.count)}, ${formatPesos(payload.total)} in total (${environmentLabel(payload.environment)})`,
		`By channel: ${channels}`,
		`Largest: ${formatPesos(largest.amount)}, reference ${shownText(largest.reference_no, 64)}`,
	];
	if (dailyTotal) {
		const { day, timeZone, maximum, totalBefore, total, remaining } = dailyTotal;
		const left = remaining > 0 ? `${formatPesos(remaining)} left` : 'nothing left';
		parts.push(
			`Today (${shownText(day, 10)}, ${shownText(timeZone, 40)}) so far ${formatPesos(totalBefore)} of ${formatPesos(maximum)}; after this batch ${formatPesos(total)}, ${left}`,
		);
	}
	parts.push(
		`Batch ${shownText(payload.batchId, 40)}, prepared ${new Date(payload.preparedAt).toISOString()}, valid until ${new Date(payload.expiresAt).toISOString()}`,
	);
	return parts.join('. ');
}

/** A batch's token taken apart, NOT yet verified. */
export interface ReadBatchToken {
	summary: string;
	signed: string;
	payload: BatchPayload;
}

const BATCH_TOKEN = tokenOf(BATCH_VERSION);

/** Whether a text is a whole batch token (a single payout's Confirm names it). */
export const isBatchToken = (token: unknown) =>
	typeof token === 'string' && BATCH_TOKEN.test(token.trim());

const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

/** The parts of a batch token, NOT yet verified; undefined when the text is not a whole one. */
export function readBatchToken(token: unknown): ReadBatchToken | undefined {
	const envelope = readEnvelope(BATCH_TOKEN, token);
	if (!envelope) return undefined;
	const { summary, signed } = envelope;
	const payload = envelope.payload as BatchPayload;
	const texts = [
		payload.batchId,
		payload.digest,
		payload.environment,
		payload.baseUrl,
		payload.credential,
	];
	const numbers = [payload.count, payload.total, payload.preparedAt, payload.expiresAt];
	if (!texts.every((text) => typeof text === 'string') || !numbers.every(isNumber))
		return undefined;
	if (!Array.isArray(payload.byChannel) || !payload.largest) return undefined;
	return { summary, signed, payload };
}

/** The token's identity for a summary or a log: its batch and the start of its signature. */
export function tokenIdentity({ payload, signed }: ReadBatchToken): string {
	return `${payload.batchId}/${signed.split('.')[2]?.slice(0, 12) ?? ''}`;
}

/** Reads the approved list as Prepare gave it; undefined when it is not a list of rows. */
export function readApprovedRows(value: unknown): ApprovedRow[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const rows: ApprovedRow[] = [];
	for (const entry of value as unknown[]) {
		if (!entry || typeof entry !== 'object') return undefined;
		const row = entry as ApprovedRow;
		if (typeof row.reference_no !== 'string' || !isNumber(row.amount)) return undefined;
		if (typeof row.channel !== 'string' || !isNumber(row.row)) return undefined;
		rows.push(row);
	}
	return rows;
}

/** The facts a person reads, by column: the HTML and CSV tables' headings and values. */
const COLUMNS: Array<[string, (row: ApprovedRow) => string]> = [
	['Row', (row) => String(row.row)],
	['Reference', (row) => row.reference_no],
	['Amount', (row) => row.amount.toFixed(2)],
	['Channel', (row) => row.channel],
	['Bank Code', (row) => row.bankCode ?? ''],
	['Account Number', (row) => row.accountNumber ?? ''],
	['Mobile Number', (row) => row.mobileNumber ?? ''],
	['Account Name', (row) => row.accountName ?? ''],
];

/** A CSV cell: quoted when it must be, and never read as a formula by a spreadsheet. */
function csvCell(value: string): string {
	const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
	return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The approved list as CSV (RFC 4180, CRLF), a row per payout. */
export function batchCsv(rows: ApprovedRow[]): string {
	const lines = [COLUMNS.map(([name]) => name).join(',')];
	for (const row of rows) lines.push(COLUMNS.map(([, value]) => csvCell(value(row))).join(','));
	return `${lines.join('\r\n')}\r\n`;
}

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};
const html = (text: string, longest = 200) =>
	shownText(text, longest).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);

/** The batch in words, then its table, as HTML for an e-mail or a form's page. */
export function batchHtml(words: string, rows: ApprovedRow[]): string {
	const head = COLUMNS.map(([name]) => `<th>${name}</th>`).join('');
	const body = rows
		.map((row) => `<tr>${COLUMNS.map(([, value]) => `<td>${html(value(row))}</td>`).join('')}</tr>`)
		.join('\n');
	return `<p>${html(words, Infinity)}</p>\n<table border="1" cellpadding="4" cellspacing="0">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** How a given row differs from the approved row of its reference: the facts, named. */
function factsThatDiffer(approved: BatchRow, given: BatchRow): string[] {
	const a = comparable(approved);
	const b = comparable(given);
	const labels: Array<[keyof typeof a, string, (row: BatchRow) => unknown]> = [
		['a', 'amount', (row) => row.amount.toFixed(2)],
		['c', 'channel', (row) => row.channel],
		['b', 'bank code', (row) => row.bankCode],
		['n', 'account number', (row) => row.accountNumber],
		['m', 'mobile number', (row) => row.mobileNumber],
		['name', 'account name', (row) => row.accountName],
	];
	return labels
		.filter(([key]) => a[key] !== b[key])
		.map(
			([, label, value]) =>
				`${label} ${shownText(value(given) ?? 'not given', 40)} (approved ${shownText(value(approved) ?? 'not given', 40)})`,
		);
}

/** How many differences a refusal names before it counts the rest. */
const NAMED = 20;

/** Each row that repeats the reference of an earlier row, named: a batch pays a reference once. */
export function repeatedReferences(rows: BatchRow[]): string[] {
	const seen = new Map<string, number>();
	const found: string[] = [];
	rows.forEach((row, index) => {
		const earlier = seen.get(row.reference_no);
		if (earlier === undefined) seen.set(row.reference_no, index);
		else
			found.push(
				`row ${index + 1} (${shownText(row.reference_no, 64)}) repeats the reference of row ${earlier + 1}`,
			);
	});
	return found;
}

/**
 * Every way the rows differ from the approved list, each naming the row: a reference given twice,
 * a row whose facts differ, a row the list does not hold, an approved payout no row gives. Empty
 * when the rows are exactly the approved list.
 */
export function differencesFrom(approved: ApprovedRow[], given: BatchRow[]): string[] {
	const byReference = new Map(approved.map((row) => [row.reference_no, row]));
	const givenReferences = new Set(given.map((row) => row.reference_no));
	const found = repeatedReferences(given);
	const firstOfReference = new Map<string, number>();
	given.forEach((row, index) => {
		if (firstOfReference.has(row.reference_no)) return;
		firstOfReference.set(row.reference_no, index);
		const ref = shownText(row.reference_no, 64);
		const match = byReference.get(row.reference_no);
		if (!match) {
			found.push(
				`row ${index + 1} (${ref}) was not approved: the approved list has no such reference`,
			);
			return;
		}
		const facts = factsThatDiffer(match, row);
		if (facts.length > 0) found.push(`row ${index + 1} (${ref}) differs: ${facts.join(', ')}`);
	});
	for (const row of approved) {
		if (!givenReferences.has(row.reference_no))
			found.push(
				`the approved payout ${shownText(row.reference_no, 64)} (approved row ${row.row}) is missing`,
			);
	}
	return found;
}

/** The differences as one sentence: the first few named, the rest counted. */
export function namedDifferences(found: string[]): string {
	const named = found.slice(0, NAMED).join('; ');
	const more = found.length - NAMED;
	return more > 0 ? `${named}; and ${more.toLocaleString('en-US')} more` : named;
}
