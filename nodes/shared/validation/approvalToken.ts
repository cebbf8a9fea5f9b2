/**
 * The approval token of Payout > Prepare and Payout > Confirm: what a person approved, signed so
 * that Confirm can send exactly that and nothing else, with no state kept anywhere (queue-mode
 * workers and restarts see the same token).
 *
 * A token reads `<summary> [pa4.<payload>.<signature>]`. The summary is the payout in words (amount,
 * the recipient in full, channel, reference, environment), then the day's figures when there are,
 * then the names a row or the service
 * gave, last, each after its own label: a person's review shows the token the agent passes to
 * Confirm, so it shows that summary. Confirm rebuilds the summary from the signed payload and
 * refuses a token whose summary differs, so no text from a model can make a review show one payout
 * while Confirm pays another. The payload is canonical JSON (sorted keys) of the request that will
 * be sent, the channel type, the expiry, the environment and Base URL it was prepared for, and a
 * fingerprint of the credential; the signature an HMAC-SHA256 of it. With Maximum Total per Day set
 * on Prepare, the payload also holds the day's figures Prepare read, and the summary states them
 * after the payout's facts, so a model cannot change what a person is told of the day.
 *
 * Earlier versions, which Confirm refuses by name: pa2 put the names amid the facts, where a name
 * could read as another bank, channel or environment; pa3 had no day's figures in its payload.
 *
 * The key is derived with scrypt from the credential's Signing Secret and the credential's id. A
 * person's password is never a key: every token is shown to the model, its provider and the
 * chat's history, and each would be an offline test of a guessed password.
 */
import { createHmac, scryptSync, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { ChannelType } from './channels';
import { readRecipient, recipientInFull, type Recipient } from './recipient';
import { shownText } from './shownText';
import type { DailyTotal } from './days';
import { formatPesos, readUrl } from './validation';

/** The token's version, the start of its signed part. */
export const APPROVAL_VERSION = 'pa4';
const PREFIX = APPROVAL_VERSION;
/** Versions Confirm no longer takes, each with why (confirm.operation.ts names it). */
const EARLIER_VERSIONS = ['pa2', 'pa3'] as const;
export type EarlierVersion = (typeof EARLIER_VERSIONS)[number];

/** Where a token may pay: the credential's Environment, its Base URL in normal form, its username. */
export interface ApprovalBinding {
	environment: string;
	baseUrl: string;
	username: string;
}

/** What a token covers: every field of the request that will be sent, where, and for how long. */
export interface ApprovalPayload {
	/** The request as sent: endpoint name, path override (when set), query and the exact body. */
	send: { endpoint: string; body: IDataObject } & IDataObject;
	/** The form's channel type: which fields name the recipient. */
	channelType: string;
	/** Expiry, milliseconds since the epoch. */
	expiresAt: number;
	/** The credential's Environment and Base URL when it was prepared (shown when they differ). */
	environment: string;
	baseUrl: string;
	/** The credential, its Environment, Base URL and username (`credentialFingerprint`). */
	credential: string;
	/** The receiving bank's name as the service lists it, for the summary; absent when unknown. */
	bankName?: string;
	/** The day's figures Prepare read with Maximum Total per Day set, for the summary; else absent. */
	dailyTotal?: DailyTotal;
}

/** A credential's signing key, from its Signing Secret; derived once per run by the caller. */
export function approvalKey(signingSecret: string, credentialId: string): Buffer {
	return scryptSync(signingSecret, `n8n payout approval|${credentialId}`, 32);
}

/** A Base URL in the form requests use: scheme and host lower-cased, no trailing slash. */
export function normalBaseUrl(baseUrl: string): string {
	const url = readUrl(baseUrl.trim());
	return url instanceof URL ? url.href.replace(/\/+$/, '') : baseUrl.trim();
}

/** Tells credentials, environments, hosts and usernames apart, revealing nothing of the key. */
export function credentialFingerprint(key: Buffer, binding: ApprovalBinding): string {
	const bound = JSON.stringify([
		binding.environment,
		normalBaseUrl(binding.baseUrl),
		binding.username,
	]);
	return createHmac('sha256', key).update(`credential|${bound}`).digest('base64url').slice(0, 22);
}

/** JSON with object keys sorted at every level, so the same request always gives the same text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as IDataObject)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonicalJson(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value ?? null);
}

const ENVIRONMENT_LABEL: Record<string, string> = { sandbox: 'Sandbox', production: 'Production' };
export const environmentLabel = (environment: string) =>
	ENVIRONMENT_LABEL[environment] ?? `"${shownText(environment, 20)}"`;

const pesos = (amount: unknown) =>
	typeof amount === 'number' && Number.isFinite(amount)
		? formatPesos(amount)
		: `"${shownText(amount, 20)}"`;

/** A bank or channel code as the summary shows one: ASCII letters, digits, `-`, `_` and `.`, 40 at most. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/**
 * The codes of a recipient that are not codes, each as a problem naming it: the summary would show
 * such a code amid the payout's facts, where its words could read as another fact.
 */
export function unshownCodes(recipient: Recipient): string[] {
	const codes: Array<[string, string]> = [['Channel', recipient.channel]];
	if (recipient.kind === 'bankAccount') codes.unshift(['Bank Code', recipient.bankCode]);
	return codes
		.filter(([, code]) => !CODE.test(code))
		.map(
			([label, code]) =>
				`${label} "${shownText(code, 40)}" is not a code (letters, digits, "-", "_" and "." only, 40 at most)`,
		);
}

/**
 * The day's figures as a person says them: the day and its time zone, what the day held when
 * Prepare read it, of the maximum, then the day's total after this payout and what is left.
 */
function dayInWords(figures: DailyTotal): string {
	const { day, timeZone, maximum, totalBefore, total, remaining } = figures;
	const left = remaining > 0 ? `${pesos(remaining)} left` : 'nothing left';
	return `Today (${shownText(day, 10)}, ${shownText(timeZone, 40)}) so far ${pesos(totalBefore)} of ${pesos(maximum)}; after this payout ${pesos(total)}, ${left}`;
}

/** The label before the account name, the summary's last part. */
const ACCOUNT_NAME_LABEL = 'Account name as given:';
/** The label before the bank's name from the service's bank list. */
const BANK_NAME_LABEL = 'Bank name as listed:';
/** Room for a long name, with characters written out, in one line. */
const LONGEST_NAME = 100;

/**
 * The payout a payload sends, in words: amount, the recipient in full, channel, reference and
 * environment; then the day's figures, when Prepare read them; then the bank's name and the account name, when there are, each after its label and
 * in quotation marks that nothing inside them can close (shownText). No name stands before a fact
 * of the payout, so none can be read as its bank, channel, reference or environment. Undefined
 * when the payload names no readable recipient, or a code that is not one (`unshownCodes`).
 */
export function approvalSummary(payload: ApprovalPayload): string | undefined {
	const { body } = payload.send;
	const read = readRecipient(body, payload.channelType as ChannelType);
	if (!('recipient' in read) || unshownCodes(read.recipient).length > 0) return undefined;
	const { recipient } = read;
	const receiver = ((body.fields as IDataObject | undefined)?.receiver ?? {}) as IDataObject;
	const names: string[] = [];
	if (recipient.kind === 'bankAccount' && payload.bankName !== undefined)
		names.push(`${BANK_NAME_LABEL} "${shownText(payload.bankName, LONGEST_NAME)}"`);
	if (recipient.kind === 'bankAccount' && typeof receiver.account_name === 'string')
		names.push(`${ACCOUNT_NAME_LABEL} "${shownText(receiver.account_name, LONGEST_NAME)}"`);
	const reference = shownText(body.reference_no, 64);
	const facts = `Pay ${pesos(body.amount)} to ${recipientInFull(recipient)}, reference ${reference} (${environmentLabel(payload.environment)})`;
	const day = payload.dailyTotal ? [dayInWords(payload.dailyTotal)] : [];
	return [facts, ...day, ...names].join('. ');
}

const signatureOf = (key: Buffer, encodedPayload: string, version = PREFIX) =>
	createHmac('sha256', key).update(`${version}.${encodedPayload}`).digest('base64url');

/** A payload's signed part, `<version>.<payload>.<signature>`: a batch's token (batchToken.ts) signs this way too. */
export function signPayload(key: Buffer, payload: object, version = PREFIX): string {
	const encoded = Buffer.from(canonicalJson(payload)).toString('base64url');
	return `${version}.${encoded}.${signatureOf(key, encoded, version)}`;
}

/** The token: the payload's summary, then the signed payload. */
export function signApproval(key: Buffer, payload: ApprovalPayload): string {
	const summary = approvalSummary(payload);
	if (summary === undefined) throw new Error('The payout to approve names no readable recipient');
	return `${summary} [${signPayload(key, payload)}]`;
}

/** A whole token of a version: its summary, then its signed part in brackets. */
export const tokenOf = (version: string) =>
	new RegExp(`^([^\\n]*) \\[(${version}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)\\]$`);
const TOKEN = tokenOf(PREFIX);

/** The version of a whole token of an earlier version, which Confirm no longer takes; else undefined. */
export function earlierApprovalVersion(token: unknown): EarlierVersion | undefined {
	if (typeof token !== 'string') return undefined;
	return EARLIER_VERSIONS.find((version) => tokenOf(version).test(token.trim()));
}

/** Whether a payload's day's figures have their shape: two texts and four numbers. */
function isDailyTotal(value: unknown): value is DailyTotal {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
	const { day, timeZone, maximum, totalBefore, total, remaining } = value as DailyTotal;
	return (
		typeof day === 'string' &&
		typeof timeZone === 'string' &&
		[maximum, totalBefore, total, remaining].every(
			(figure) => typeof figure === 'number' && Number.isFinite(figure),
		)
	);
}

/** A token taken apart, NOT yet verified: its summary as written, its signed part and payload. */
export interface ReadToken {
	summary: string;
	signed: string;
	payload: ApprovalPayload;
}

/**
 * The parts of a token, NOT yet verified: limits and allow-lists may be checked against its payload
 * early, since a changed payload fails `hasValidSignature` before anything is sent. Undefined when
 * the text is not a whole approval token (a bare `pa4.…` without its summary is not one).
 */
export function readApprovalToken(token: unknown): ReadToken | undefined {
	const envelope = readEnvelope(TOKEN, token);
	if (!envelope) return undefined;
	const { summary, signed, payload } = envelope;
	const { send, channelType, expiresAt, credential, environment, baseUrl, bankName, dailyTotal } =
		payload as ApprovalPayload;
	const body = send?.body;
	if (!body || typeof body !== 'object' || typeof send.endpoint !== 'string') return undefined;
	if (typeof expiresAt !== 'number' || typeof credential !== 'string') return undefined;
	if (typeof channelType !== 'string' || typeof environment !== 'string') return undefined;
	if (typeof baseUrl !== 'string') return undefined;
	if (bankName !== undefined && typeof bankName !== 'string') return undefined;
	if (dailyTotal !== undefined && !isDailyTotal(dailyTotal)) return undefined;
	return { summary, signed, payload: payload as ApprovalPayload };
}

/**
 * A token's summary, its signed part and its payload as JSON, NOT yet verified, for a token of the
 * form `pattern` matches (tokenOf); undefined when the text is not a whole token or its payload is
 * not a JSON object.
 */
export function readEnvelope(
	pattern: RegExp,
	token: unknown,
): { summary: string; signed: string; payload: object } | undefined {
	if (typeof token !== 'string') return undefined;
	const match = pattern.exec(token.trim());
	if (!match) return undefined;
	const [, summary, signed] = match;
	try {
		const payload = JSON.parse(
			Buffer.from(signed.split('.')[1], 'base64url').toString('utf8'),
		) as unknown;
		return payload && typeof payload === 'object' ? { summary, signed, payload } : undefined;
	} catch {
		return undefined;
	}
}

/** Whether the token's signed part was signed with this key, over exactly its payload's text. */
export function hasValidSignature<T extends { signed: string }>(
	key: Buffer,
	{ signed }: T,
): boolean {
	const [version, encoded, signature] = signed.split('.');
	const expected = Buffer.from(signatureOf(key, encoded ?? '', version));
	const given = Buffer.from(signature ?? '');
	return given.length === expected.length && timingSafeEqual(given, expected);
}
