/**
 * The fake's memory, one part per resource: tokens, collection transactions, payouts, reposts,
 * scripted outcomes, the request log and the counters. Creating a record lives here because it
 * touches several parts (counters, expiry, scripted or automatic settling). With a state file the
 * records, scripted outcomes and callbacks survive a restart (stateFile.ts); tokens, counters,
 * the request log and repost limits start fresh.
 */
import type { CallbackDispatcher } from '../callbacks/dispatcher';
import { buildTransaction, type CollectionRecord } from '../collection/transactions';
import type { GenerateInput } from '../collection/validation';
import { buildPayout, type PayoutRecord } from '../disbursement/payouts';
import { RepostLimiter } from '../disbursement/reposts';
import type { PayoutInput } from '../disbursement/validation';
import type { PayoutAnswers, RecordedRequest, SandboxStats } from '../types';
import { Outcomes } from './outcomes';
import { RecordStore, type AnyRecord } from './records';
import { RequestLog } from './requestLog';
import { readStateFile, writeStateFile, type StateSnapshot } from './stateFile';
import { countUp, emptyStats } from './stats';
import type { Scheduler } from './timers';
import { manilaIso } from './time';
import { TokenStore } from './tokens';

export interface StateConfig {
	tokenLifetimeSeconds: number;
	transactionExpirySeconds: number;
	payoutAutoSettleMs?: number;
	repostLimit: { max: number; windowMs: number };
	payoutAnswers: PayoutAnswers;
	/** Where the records are kept across restarts; none: in memory only. */
	stateFile?: string;
	/** Told when the state file cannot be written; the gateway keeps serving from memory. */
	onSaveError: (error: Error) => void;
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
	/** How much payout answers state now (set at start, changed by the control surface). */
	payoutAnswers: PayoutAnswers;
	private readonly requests = new RequestLog();

	constructor(
		private readonly cfg: StateConfig,
		private readonly timers: Scheduler,
		private readonly dispatcher: CallbackDispatcher,
	) {
		this.payoutAnswers = cfg.payoutAnswers;
		this.tokens = new TokenStore(cfg.tokenLifetimeSeconds);
		this.reposts = new RepostLimiter(cfg.repostLimit);
		this.outcomes = new Outcomes(this, timers, dispatcher);
		const saved = cfg.stateFile ? readStateFile(cfg.stateFile) : undefined;
		if (saved) this.restore(saved);
	}

	/** After every change of a record, scripted outcome or callback: the state file is rewritten. */
	changed(): void {
		if (!this.cfg.stateFile) return;
		try {
			writeStateFile(this.cfg.stateFile, {
				transactions: this.transactions.all().map(({ cancelExpiry: _timer, ...stored }) => stored),
				payouts: this.payouts.all(),
				duplicates: {
					transactions: this.transactions.duplicateViews(),
					payouts: this.payouts.duplicateViews(),
				},
				scripts: this.outcomes.saved(),
				callbacks: this.dispatcher.list(),
			});
		} catch (error) {
			this.cfg.onSaveError(error as Error);
		}
	}

	/**
	 * The records of an earlier run. A pending one settles as it was scheduled: a transaction
	 * expires at its expires_at, a scripted or auto-settled record settles at its creation time
	 * plus the delay; a time that passed while the gateway was stopped settles it at once.
	 */
	private restore(saved: StateSnapshot): void {
		this.outcomes.restore(saved.scripts);
		this.dispatcher.restore(saved.callbacks);
		this.transactions.restoreDuplicates(saved.duplicates.transactions);
		this.payouts.restoreDuplicates(saved.duplicates.payouts);
		for (const record of saved.transactions) {
			this.transactions.add(record);
			if (record.view.status === 'pending')
				this.scheduleTransaction(record, Date.parse(String(record.view.expires_at)));
		}
		for (const record of saved.payouts) {
			this.payouts.add(record);
			if (record.view.status === 'pending') this.schedulePayout(record);
		}
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
		this.payoutAnswers = this.cfg.payoutAnswers;
		this.changed();
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
		this.changed();
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
		this.scheduleTransaction(record, now + lifetimeMs);
		this.changed();
		return record;
	}

	createPayout(input: PayoutInput): PayoutRecord {
		const record = buildPayout(input, Date.now());
		this.payouts.add(record);
		countUp(this.stats.creationsByReference, input.referenceNo);
		this.schedulePayout(record);
		this.changed();
		return record;
	}

	private scheduleTransaction(record: CollectionRecord, expiresAt: number): void {
		record.cancelExpiry = this.timers.after(expiresAt - Date.now(), () => {
			void this.outcomes.finalize(record, 'cancelled', 'expired');
		});
		this.outcomes.applyScript(record);
	}

	private schedulePayout(record: PayoutRecord): void {
		const autoSettleMs = this.cfg.payoutAutoSettleMs;
		if (!this.outcomes.applyScript(record) && autoSettleMs !== undefined) {
			const delay = record.createdAt + autoSettleMs - Date.now();
			this.timers.after(delay, () => void this.outcomes.finalize(record, 'completed'));
		}
	}
}
