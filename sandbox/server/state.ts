/**
 * The fake's memory, one part per resource: tokens, collection transactions, payouts, reposts,
 * scripted outcomes, the request log and the counters. Creating a record lives here because it
 * touches several parts (counters, expiry, scripted or automatic settling).
 */
import type { CallbackDispatcher } from '../callbacks/dispatcher';
import { buildTransaction, type CollectionRecord } from '../collection/transactions';
import type { GenerateInput } from '../collection/validation';
import { buildPayout, type PayoutRecord } from '../disbursement/payouts';
import { RepostLimiter } from '../disbursement/reposts';
import type { PayoutInput } from '../disbursement/validation';
import type { RecordedRequest, SandboxStats } from '../types';
import { Outcomes } from './outcomes';
import { RecordStore, type AnyRecord } from './records';
import { RequestLog } from './requestLog';
import { countUp, emptyStats } from './stats';
import type { Scheduler } from './timers';
import { manilaIso } from './time';
import { TokenStore } from './tokens';

export interface StateConfig {
	tokenLifetimeSeconds: number;
	transactionExpirySeconds: number;
	payoutAutoSettleMs?: number;
	repostLimit: { max: number; windowMs: number };
}

export class SandboxState {
	stats: SandboxStats = emptyStats();
	readonly tokens: TokenStore;
	readonly transactions = new RecordStore<CollectionRecord>();
	readonly payouts = new RecordStore<PayoutRecord>();
	readonly reposts: RepostLimiter;
	readonly outcomes: Outcomes;
	/** What creating with a reference that exists answers: 422 "taken" (default), or 200 with the existing record. */
	reusedReferenceAnswer: 'taken' | 'existing' = 'taken';
	private readonly requests = new RequestLog();

	constructor(
		private readonly cfg: StateConfig,
		private readonly timers: Scheduler,
		private readonly dispatcher: CallbackDispatcher,
	) {
		this.tokens = new TokenStore(cfg.tokenLifetimeSeconds);
		this.reposts = new RepostLimiter(cfg.repostLimit);
		this.outcomes = new Outcomes(this, timers, dispatcher);
	}

	reset(): void {
		this.timers.cancelAll();
		this.dispatcher.reset();
		this.stats = emptyStats();
		this.tokens.expireAll();
		this.transactions.clear();
		this.payouts.clear();
		this.outcomes.clear();
		this.reposts.clear();
		this.requests.clear();
		this.reusedReferenceAnswer = 'taken';
	}

	/** The record a create with a reused reference answers with, when the service is set to answer so. */
	reusedRecord(
		store: RecordStore<AnyRecord>,
		referenceNo: unknown,
	): Record<string, unknown> | undefined {
		return this.reusedReferenceAnswer === 'existing' && typeof referenceNo === 'string'
			? store.view(referenceNo)
			: undefined;
	}

	/** Sets when a record was made (a transaction's `date`, a payout's `created_at`), as an earlier run would have. */
	backdate(referenceNo: string, createdAt: number): boolean {
		const record = this.transactions.get(referenceNo) ?? this.payouts.get(referenceNo);
		if (!record) return false;
		record.createdAt = createdAt;
		record.view[record.kind === 'collection' ? 'date' : 'created_at'] = manilaIso(createdAt);
		return true;
	}

	recordRequest(request: RecordedRequest): void {
		this.requests.record(request);
	}

	lastRequest(pathPrefix: string): RecordedRequest | undefined {
		return this.requests.last(pathPrefix);
	}

	createTransaction(input: GenerateInput, baseUrl: string): CollectionRecord {
		const now = Date.now();
		const lifetimeMs = this.cfg.transactionExpirySeconds * 1000;
		const record = buildTransaction(input, baseUrl, now, now + lifetimeMs);
		this.transactions.add(record);
		countUp(this.stats.creationsByReference, input.referenceNo);
		record.cancelExpiry = this.timers.after(lifetimeMs, () => {
			void this.outcomes.finalize(record, 'cancelled', 'expired');
		});
		this.outcomes.applyScript(record);
		return record;
	}

	createPayout(input: PayoutInput): PayoutRecord {
		const record = buildPayout(input, Date.now());
		this.payouts.add(record);
		countUp(this.stats.creationsByReference, input.referenceNo);
		const autoSettleMs = this.cfg.payoutAutoSettleMs;
		if (!this.outcomes.applyScript(record) && autoSettleMs !== undefined) {
			this.timers.after(autoSettleMs, () => void this.outcomes.finalize(record, 'completed'));
		}
		return record;
	}
}
