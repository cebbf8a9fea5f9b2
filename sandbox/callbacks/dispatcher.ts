/**
 * Signed webhook delivery (body and signature: body.ts, signature.ts).
 * Retry policy of the real service is unknown: here, `retries` extra attempts 200 ms apart after
 * a non-2xx answer or a connection error.
 *
 * Safety: only loopback hosts are ever contacted. A callback URL pointing anywhere else is
 * recorded as skipped, so a test or demo can never post to a real system.
 */
import * as http from 'http';
import * as https from 'https';
import type { Scheduler } from '../server/timers';
import type { CallbackRecord } from '../types';
import { buildCallbackBody, isLoopbackHost, type CallbackEvent } from './body';

const RETRY_DELAY_MS = 200;
const ATTEMPT_TIMEOUT_MS = 5000;

export interface DispatcherOptions {
	secret: string;
	retries: number;
	timers: Scheduler;
	log: (line: string) => void;
	onSent: () => void;
	/** Called after each delivery attempt is recorded (the state file is written). */
	onRecorded: () => void;
}

export class CallbackDispatcher {
	private records: CallbackRecord[] = [];
	private readonly inFlight = new Set<http.ClientRequest>();
	/** Bumped by reset() and close(): retries of an older generation stop. */
	private generation = 0;
	private closed = false;

	constructor(private readonly opts: DispatcherOptions) {}

	list(): CallbackRecord[] {
		return this.records.map((r) => ({ ...r }));
	}

	reset(): void {
		this.generation++;
		this.records = [];
	}

	/** The attempts of an earlier run of the gateway, from its state file. */
	restore(records: CallbackRecord[]): void {
		this.records = [...records, ...this.records];
	}

	close(): void {
		this.closed = true;
		this.generation++;
		for (const req of this.inFlight) req.destroy();
		this.inFlight.clear();
	}

	/** Delivers one event (with retries). Resolves when delivery succeeded or was given up. */
	async send(event: CallbackEvent): Promise<void> {
		if (!event.url || this.closed) return;
		const body = buildCallbackBody(this.opts.secret, event);
		const base = { url: event.url, body, referenceNo: event.referenceNo, status: event.status };

		let target: URL;
		try {
			target = new URL(event.url);
		} catch {
			this.record({
				...base,
				attempt: 1,
				skipped: true,
				error: 'invalid URL',
				time: Date.now(),
			});
			return;
		}
		if (!isLoopbackHost(target.hostname) || !/^https?:$/.test(target.protocol)) {
			this.record({
				...base,
				attempt: 1,
				skipped: true,
				error: 'not a loopback http(s) URL: not contacted',
				time: Date.now(),
			});
			this.opts.log(`callback ${event.referenceNo} ${event.status} skipped (not loopback)`);
			return;
		}

		const generation = this.generation;
		const text = JSON.stringify(body);
		this.opts.onSent();
		for (let attempt = 1; attempt <= 1 + this.opts.retries; attempt++) {
			if (attempt > 1) {
				await this.opts.timers.delay(RETRY_DELAY_MS);
				if (generation !== this.generation) return;
			}
			const result = await this.post(target, text);
			if (generation !== this.generation) return;
			this.record({ ...base, attempt, ...result, time: Date.now() });
			this.opts.log(
				`callback ${event.referenceNo} ${event.status} attempt ${attempt} -> ${result.statusCode ?? result.error}`,
			);
			if (result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300)
				return;
		}
	}

	private record(attempt: CallbackRecord): void {
		this.records.push(attempt);
		this.opts.onRecorded();
	}

	private post(target: URL, text: string): Promise<{ statusCode?: number; error?: string }> {
		return new Promise((resolve) => {
			const client = target.protocol === 'https:' ? https : http;
			// `localhost` is pinned to 127.0.0.1 so name resolution can never lead off the machine.
			const hostname = target.hostname.replace(/^\[|\]$/g, '');
			const req = client.request(
				{
					method: 'POST',
					host: hostname.toLowerCase() === 'localhost' ? '127.0.0.1' : hostname,
					port: target.port || (target.protocol === 'https:' ? 443 : 80),
					path: `${target.pathname}${target.search}`,
					headers: {
						host: target.host,
						'content-type': 'application/json',
						'content-length': Buffer.byteLength(text),
						'user-agent': 'payment-gateway-sandbox/1.0',
					},
					timeout: ATTEMPT_TIMEOUT_MS,
					// Loopback test receivers use self-signed certificates.
					rejectUnauthorized: false,
					agent: false,
				},
				(res) => {
					res.resume();
					res.on('end', () => finish({ statusCode: res.statusCode }));
					res.on('error', () => finish({ statusCode: res.statusCode }));
				},
			);
			this.inFlight.add(req);
			let settled = false;
			const finish = (result: { statusCode?: number; error?: string }) => {
				if (settled) return;
				settled = true;
				this.inFlight.delete(req);
				resolve(result);
			};
			req.on('timeout', () => req.destroy(new Error('timed out')));
			req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? err.message }));
			req.on('close', () => finish({ error: 'connection closed' }));
			req.end(text);
		});
	}
}
