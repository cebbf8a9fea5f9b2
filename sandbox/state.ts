/**
 * The fake's memory: tokens, collection transactions, payouts, scripted outcomes, repost history
 * and counters. Status changes go through finalize(), which enforces section 3 (only
 * pending -> completed | cancelled, once) and sends exactly one callback per change.
 */
import { randomBytes } from 'crypto';
import type { ApiInterface } from '../nodes/shared/endpoints';
import { CURRENCY, type CollectionChannel } from './fixtures';
import type { CallbackDispatcher } from './callbacks';
import type { FinalStatus, RecordedRequest, SandboxStats } from './types';
import type { Scheduler } from './timers';
import type { GenerateInput, PayoutInput } from './validation';
import { manilaIso } from './time';

export class SandboxError extends Error {
	constructor(
		readonly statusCode: number,
		message: string,
	) {
		super(message);
	}
}

export interface CollectionRecord {
	kind: 'collection';
	/** The 2.2 transaction as the service shows it; status and is_expired change over time. */
	view: Record<string, unknown> & { reference_no: string; status: string; subtotal_amount: number; total_amount: number };
	channel: CollectionChannel;
	createdAt: number;
	callbackUrl?: string;
	successUrl?: string;
	failureUrl?: string;
	cancelExpiry?: () => void;
}

export interface PayoutRecord {
	kind: 'payout';
	view: Record<string, unknown> & { reference_no: string; status: string; amount: number; total_amount: number };
	createdAt: number;
	callbackUrl?: string;
}

export type AnyRecord = CollectionRecord | PayoutRecord;

export interface StateConfig {
	tokenLifetimeSeconds: number;
	transactionExpirySeconds: number;
	payoutAutoSettleMs?: number;
	repostLimit: { max: number; windowMs: number };
}

export function emptyStats(): SandboxStats {
	return {
		tokenRequests: { collection: 0, disbursement: 0 },
		requestsByPath: {},
		creationsByReference: {},
		attemptsByReference: {},
		callbacksSent: 0,
	};
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const clone = <T>(value: T): T => structuredClone(value);

export class SandboxState {
	stats: SandboxStats = emptyStats();
	private tokens = new Map<string, { api: ApiInterface; expiresAt: number }>();
	readonly transactions = new Map<string, CollectionRecord>();
	readonly payouts = new Map<string, PayoutRecord>();
	private scripts = new Map<string, { status: FinalStatus; afterMs: number }>();
	private reposts = new Map<string, number[]>();
	private lastRequests = new Map<string, { seq: number; request: RecordedRequest }>();
	private seq = 0;

	constructor(
		private readonly cfg: StateConfig,
		private readonly timers: Scheduler,
		private readonly dispatcher: CallbackDispatcher,
	) {}

	reset(): void {
		this.timers.cancelAll();
		this.dispatcher.reset();
		this.stats = emptyStats();
		this.tokens.clear();
		this.transactions.clear();
		this.payouts.clear();
		this.scripts.clear();
		this.reposts.clear();
		this.lastRequests.clear();
	}

	// Requests ------------------------------------------------------------------------------

	count(map: Record<string, number>, key: string): void {
		map[key] = (map[key] ?? 0) + 1;
	}

	recordRequest(request: RecordedRequest): void {
		this.lastRequests.set(request.path, { seq: ++this.seq, request });
	}

	lastRequest(pathPrefix: string): RecordedRequest | undefined {
		let best: { seq: number; request: RecordedRequest } | undefined;
		for (const [path, entry] of this.lastRequests) {
			if (path.startsWith(pathPrefix) && (!best || entry.seq > best.seq)) best = entry;
		}
		return best && clone(best.request);
	}

	// Tokens --------------------------------------------------------------------------------

	issueToken(api: ApiInterface): { token: string; type: 'Bearer'; expires_in: number } {
		const token = randomBytes(30).toString('base64url');
		const lifetime = this.cfg.tokenLifetimeSeconds;
		this.tokens.set(token, { api, expiresAt: Date.now() + lifetime * 1000 });
		// At least 1: expires_in is a positive integer even when a test shortens the lifetime.
		return { token, type: 'Bearer', expires_in: Math.max(1, Math.ceil(lifetime)) };
	}

	/** True only for a live token of this interface: one interface's token never opens the other. */
	isValidToken(token: string | undefined, api: ApiInterface): boolean {
		if (!token) return false;
		const entry = this.tokens.get(token);
		if (!entry) return false;
		if (Date.now() >= entry.expiresAt) {
			this.tokens.delete(token);
			return false;
		}
		return entry.api === api;
	}

	expireTokens(): void {
		this.tokens.clear();
	}

	// Collection ----------------------------------------------------------------------------

	createTransaction(input: GenerateInput, baseUrl: string): CollectionRecord {
		const now = Date.now();
		const { channel } = input;
		const fee = channel.serviceFee;
		const payUrl = `${baseUrl}/pay/${encodeURIComponent(input.referenceNo)}`;
		const view = {
			subtotal_amount: round2(input.amount),
			service_fee: fee,
			total_amount: round2(input.amount + fee),
			reference_no: input.referenceNo,
			provider_reference_no: null,
			other_reference_no: null,
			status: 'pending',
			barcode_url: null,
			qrcode_url: null,
			link_url: null,
			is_web_payment: true,
			web_payment_url: payUrl,
			qrcode: null,
			is_expired: false,
			expires_at: manilaIso(now + this.cfg.transactionExpirySeconds * 1000),
			date: manilaIso(now),
			items: [],
			currency: { ...CURRENCY },
			channel: {
				name: channel.name,
				desciption: channel.description,
				instruction: [
					`## How to pay with ${channel.name}`,
					'',
					...channel.steps.map((step, i) => `${i + 1}. ${step}`),
					'',
					`[Pay ${CURRENCY.symbol}${round2(input.amount + fee).toFixed(2)} now](${payUrl})`,
				].join('\n'),
				slug: channel.slug,
				code: channel.code,
				logo: `${baseUrl}/static/logos/${channel.slug}.svg`,
				category: { ...channel.category },
			},
		};
		const record: CollectionRecord = {
			kind: 'collection',
			view,
			channel,
			createdAt: now,
			callbackUrl: input.callbackUrl,
			successUrl: input.successUrl,
			failureUrl: input.failureUrl,
		};
		this.transactions.set(input.referenceNo, record);
		this.count(this.stats.creationsByReference, input.referenceNo);
		record.cancelExpiry = this.timers.after(this.cfg.transactionExpirySeconds * 1000, () => {
			void this.finalize(record, 'cancelled', 'expired');
		});
		this.applyScript(record);
		return record;
	}

	// Payouts -------------------------------------------------------------------------------

	createPayout(input: PayoutInput): PayoutRecord {
		const now = Date.now();
		const view = {
			reference_no: input.referenceNo,
			channel: input.channel.code,
			amount: round2(input.amount),
			status: 'pending',
			fields: clone(input.fields),
			callback_webhook_url: input.callbackUrl ?? null,
			fee: input.channel.fee,
			total_amount: round2(input.amount + input.channel.fee),
			created_at: manilaIso(now),
		};
		const record: PayoutRecord = { kind: 'payout', view, createdAt: now, callbackUrl: input.callbackUrl };
		this.payouts.set(input.referenceNo, record);
		this.count(this.stats.creationsByReference, input.referenceNo);
		if (!this.applyScript(record) && this.cfg.payoutAutoSettleMs !== undefined) {
			this.timers.after(this.cfg.payoutAutoSettleMs, () => void this.finalize(record, 'completed'));
		}
		return record;
	}

	// Status changes ------------------------------------------------------------------------

	/**
	 * pending -> completed | cancelled, once. Returns the callback delivery, or undefined when the
	 * record was no longer pending (a final status never changes).
	 */
	finalize(record: AnyRecord, status: FinalStatus, reason?: 'expired'): Promise<void> | undefined {
		if (record.view.status !== 'pending') return undefined;
		record.view.status = status;
		if (record.kind === 'collection') {
			record.cancelExpiry?.();
			if (reason === 'expired') record.view.is_expired = true;
		}
		return this.sendCallback(record);
	}

	sendCallback(record: AnyRecord): Promise<void> {
		const view = record.view;
		const amount = record.kind === 'collection' ? record.view.subtotal_amount : record.view.amount;
		return this.dispatcher.send({
			url: record.callbackUrl,
			referenceNo: view.reference_no,
			amount,
			totalAmount: view.total_amount,
			status: view.status,
			transaction: clone(view),
		});
	}

	recordsFor(referenceNo: string): AnyRecord[] {
		const found: AnyRecord[] = [];
		const tx = this.transactions.get(referenceNo);
		if (tx) found.push(tx);
		const payout = this.payouts.get(referenceNo);
		if (payout) found.push(payout);
		return found;
	}

	async settle(referenceNo: string, status: FinalStatus): Promise<void> {
		if (status !== 'completed' && status !== 'cancelled') {
			throw new SandboxError(422, 'status must be completed or cancelled.');
		}
		const records = this.recordsFor(referenceNo);
		if (records.length === 0) throw new SandboxError(404, `No transaction or payout with reference_no ${referenceNo}.`);
		const deliveries = records.map((r) => this.finalize(r, status)).filter((d): d is Promise<void> => d !== undefined);
		if (deliveries.length === 0) {
			throw new SandboxError(409, `${referenceNo} is already ${records[0].view.status}; a final status never changes.`);
		}
		await Promise.all(deliveries);
	}

	scriptOutcome(referenceNo: string, status: FinalStatus, afterMs = 0): void {
		if (status !== 'completed' && status !== 'cancelled') {
			throw new SandboxError(422, 'status must be completed or cancelled.');
		}
		this.scripts.set(referenceNo, { status, afterMs });
		for (const record of this.recordsFor(referenceNo)) this.applyScript(record);
	}

	private applyScript(record: AnyRecord): boolean {
		const script = this.scripts.get(record.view.reference_no);
		if (!script) return false;
		// Always asynchronous, so a creation response still shows `pending`.
		const delay = Math.max(0, record.createdAt + script.afterMs - Date.now());
		this.timers.after(delay, () => void this.finalize(record, script.status));
		return true;
	}

	// Repost --------------------------------------------------------------------------------

	/** Sliding-window limit per reference. Returns seconds to wait, or 0 when allowed (and counted). */
	takeRepostSlot(referenceNo: string): number {
		const { max, windowMs } = this.cfg.repostLimit;
		const now = Date.now();
		if (max <= 0) return Math.max(1, Math.ceil(windowMs / 1000));
		const recent = (this.reposts.get(referenceNo) ?? []).filter((t) => now - t < windowMs);
		if (recent.length >= max) {
			this.reposts.set(referenceNo, recent);
			return Math.max(1, Math.ceil((recent[0] + windowMs - now) / 1000));
		}
		recent.push(now);
		this.reposts.set(referenceNo, recent);
		return 0;
	}

	// Views ---------------------------------------------------------------------------------

	transactionView(referenceNo: string): Record<string, unknown> | undefined {
		const record = this.transactions.get(referenceNo);
		return record && clone(record.view);
	}

	payoutView(referenceNo: string): Record<string, unknown> | undefined {
		const record = this.payouts.get(referenceNo);
		return record && clone(record.view);
	}
}
