// What every queue-mode check works with, and the figures they report.
import type { N8nRest } from '../n8n/rest';
import type { QueueCluster } from './cluster';
import type { SandboxControl } from './executions';
import type { Postgres } from './services';

export type Check = (name: string, fn: () => Promise<void>) => Promise<void>;

export interface QueueContext {
	cluster: QueueCluster;
	rest: N8nRest;
	sandbox: SandboxControl;
	postgres: Postgres;
	/** The first webhook process, as published in WEBHOOK_URL: 'http://127.0.0.1:<port>/'. */
	webhookBase: string;
	figures: Figures;
}

export interface ThroughputRow {
	workers: number;
	executions: number;
	executionSeconds: number;
	payouts: number;
	payoutSeconds: number;
	/** The machine's 1-minute load average when the row was measured (other programs included). */
	load: number;
}

export interface Figures {
	/** Token requests at the sandbox when two workers start at once with no stored token. */
	tokenRequestsColdStart?: number;
	tokenRequestsWarm?: number;
	tokenRequestsAfterExpiry?: number;
	tokenRequestsRefused?: number;
	payoutsSent?: number;
	createRequests?: number;
	duplicates?: number;
	lost?: number;
	/** References the second execution answered with the existing payout, or with a conflict. */
	replayed?: number;
	conflicts?: number;
	/** Executions started when one callback hits two webhook processes at the same moment. */
	executionsFromSimultaneousDelivery?: number;
	executionsFromSequentialDelivery?: number;
	/** Callbacks the trigger accepted, and how many of them its record in the database holds. */
	callbacksAccepted?: number;
	callbacksRememberedInDatabase?: number;
	throughput: ThroughputRow[];
}
