// The sandbox gateway in its own process, so its CPU and memory stay out of the figures of the
// process that runs n8n's engine. Driven by the parent over IPC:
//   { cmd: 'prepare', latencyMs, seed? }  forget everything, create the seed's payouts (`seed`:
//                                  { n, tag }, the rows of payoutItems), set the latency, zero the
//                                  counters below
//   { cmd: 'collect' }             token requests, requests, peak requests in flight, CPU, RSS
//   { cmd: 'close' }
import http from 'http';

import { SANDBOX_CREDENTIALS } from '../../sandbox/credentials';
import { PAYOUT_PATH, payoutItems } from './workflows';

// Requests in flight at the gateway (control surface excluded), counted around the gateway's own
// handler. This is what proves a concurrency bound from the outside.
const meter = { inFlight: 0, peak: 0, served: 0, serverMs: 0 };
const createServer = http.createServer;
(http as { createServer: unknown }).createServer = function meteredCreateServer(
	this: unknown,
	...args: unknown[]
) {
	const server = (createServer as (...given: unknown[]) => http.Server).apply(this, args);
	server.prependListener('request', (req, res) => {
		if ((req.url || '').startsWith('/__sandbox')) return;
		const arrived = performance.now();
		meter.inFlight++;
		if (meter.inFlight > meter.peak) meter.peak = meter.inFlight;
		res.once('close', () => {
			meter.inFlight--;
			meter.served++;
			meter.serverMs += performance.now() - arrived;
		});
	});
	return server;
};

let cpuAtPrepare = process.cpuUsage();

function sum(record: Record<string, number>): number {
	return Object.values(record).reduce((total, n) => total + n, 0);
}

interface Message {
	cmd: string;
	id: number;
	latencyMs: number;
	seed?: { n: number; tag: string };
}

const SEED_CONCURRENCY = 32;

/** The run's rows created as payouts over the gateway's own HTTP, before the latency is set. */
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
	let next = 0;
	const worker = async () => {
		while (next < rows.length) {
			const row = rows[next++];
			const payout = {
				channel: 'GCASH',
				amount: row.amount,
				reference_no: row.referenceNo,
				fields: { mobile_number: row.mobileNumber },
			};
			await post(PAYOUT_PATH, payout, token);
		}
	};
	await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
}

async function main() {
	// Loaded after the meter is in place, so the gateway's server is a metered one.
	const { startSandboxGateway } = await import('../../sandbox');
	const gateway = await startSandboxGateway({ port: 0 });
	const send = (message: object) => process.send?.(message);
	process.on('message', async (message: Message) => {
		try {
			if (message.cmd === 'prepare') {
				gateway.reset();
				if (message.seed) await seedPayouts(gateway.url, message.seed);
				gateway.resetStats();
				gateway.setLatency(message.latencyMs);
				meter.peak = meter.inFlight;
				meter.served = 0;
				meter.serverMs = 0;
				if (global.gc) global.gc();
				cpuAtPrepare = process.cpuUsage();
				send({ id: message.id, ok: true });
			} else if (message.cmd === 'collect') {
				const stats = gateway.stats();
				const cpu = process.cpuUsage(cpuAtPrepare);
				send({
					id: message.id,
					ok: true,
					tokenRequests: stats.tokenRequests,
					requests: sum(stats.requestsByPath),
					requestsByPath: stats.requestsByPath,
					payoutsCreated: sum(stats.creationsByReference),
					peakInFlight: meter.peak,
					// From a request's arrival to its response's end: L plus the gateway's own time.
					serverMsPerRequest: meter.served ? meter.serverMs / meter.served : 0,
					cpuMs: (cpu.user + cpu.system) / 1000,
					rssMb: process.memoryUsage().rss / 2 ** 20,
				});
			} else if (message.cmd === 'close') {
				await gateway.close();
				process.exit(0);
			}
		} catch (error) {
			send({ id: message.id, ok: false, error: String((error && error.stack) || error) });
		}
	});
	process.on('disconnect', () => process.exit(0));
	send({ type: 'ready', url: gateway.url, pid: process.pid });
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
