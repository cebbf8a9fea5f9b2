// The sandbox gateway, in the benchmark's parent process: every run is a process of its own, so
// the gateway's CPU and memory stay out of the engine's figures, and the parent does nothing else
// while a run is out. Its requests in flight are counted around the gateway's own handler: that
// proves a concurrency bound from the outside.
import http from 'http';

import { SANDBOX_CREDENTIALS } from '../../sandbox/credentials';
import { PAYOUT_PATH, payoutItems } from './workflows';

const meter = { inFlight: 0, peak: 0, served: 0, serverMs: 0 };

/** Wraps http.createServer so the gateway's server is a metered one (control surface excluded). */
function meterServers(): void {
	const createServer = http.createServer;
	(http as { createServer: unknown }).createServer = (...args: unknown[]) => {
		const server = (createServer as (...given: unknown[]) => http.Server)(...args);
		server.prependListener('request', (req, res) => {
			if ((req.url || '').startsWith('/__sandbox')) return;
			const arrived = performance.now();
			meter.peak = Math.max(meter.peak, ++meter.inFlight);
			res.once('close', () => {
				meter.inFlight--;
				meter.served++;
				meter.serverMs += performance.now() - arrived;
			});
		});
		return server;
	};
}

const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0);

export async function startGateway() {
	meterServers();
	const { startSandboxGateway } = await import('../../sandbox');
	const gateway = await startSandboxGateway({ port: 0 });
	let cpuAtPrepare = process.cpuUsage();
	return {
		url: gateway.url,
		close: () => gateway.close(),
		/** Forgets everything, creates the seed's payouts (off the clock), sets the latency, zeroes the counters. */
		async prepare(latencyMs: number, seed?: { n: number; tag: string }) {
			gateway.reset();
			if (seed) await seedPayouts(gateway.url, seed);
			gateway.resetStats();
			gateway.setLatency(latencyMs);
			Object.assign(meter, { peak: meter.inFlight, served: 0, serverMs: 0 });
			cpuAtPrepare = process.cpuUsage();
		},
		collect() {
			const stats = gateway.stats();
			const cpu = process.cpuUsage(cpuAtPrepare);
			return {
				tokenRequests: stats.tokenRequests.disbursement,
				requests: sum(stats.requestsByPath),
				payoutsCreated: sum(stats.creationsByReference),
				peakInFlight: meter.peak,
				// From a request's arrival to its response's end: L plus the gateway's own time.
				serverMsPerRequest: meter.served ? meter.serverMs / meter.served : 0,
				cpuMs: (cpu.user + cpu.system) / 1000,
			};
		},
	};
}

/** The run's rows created as payouts over the gateway's own HTTP, 32 at a time. */
async function seedPayouts(url: string, { n, tag }: { n: number; tag: string }): Promise<void> {
	const post = async (path: string, body: object, token?: string) => {
		const res = await fetch(`${url}${path}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				...(token ? { authorization: `Bearer ${token}` } : {}),
			},
			body: JSON.stringify(body),
		});
		const answer = (await res.json()) as { data?: { token?: string } };
		if (!res.ok) throw new Error(`seeding ${path}: HTTP ${res.status} ${JSON.stringify(answer)}`);
		return answer;
	};
	const { username, password } = SANDBOX_CREDENTIALS.disbursement;
	const token = (await post('/v1/auth/token', { username, password })).data?.token;
	const rows = payoutItems(n, tag);
	const worker = async () => {
		for (let row = rows.shift(); row; row = rows.shift()) {
			const fields = { mobile_number: row.mobileNumber };
			const payout = {
				channel: 'GCASH',
				amount: row.amount,
				reference_no: row.referenceNo,
				fields,
			};
			await post(PAYOUT_PATH, payout, token);
		}
	};
	await Promise.all(Array.from({ length: 32 }, worker));
}

export type GatewayFigures = ReturnType<Awaited<ReturnType<typeof startGateway>>['collect']>;
