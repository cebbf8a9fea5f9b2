/**
 * Starts the sandbox gateway on its own:
 *   node -r ts-node/register/transpile-only sandbox/cli.ts [--port 8787] [--payout-auto-settle-ms 3000] [--token-lifetime 3600]
 *     [--state-file sandbox-state.json] [--answers full|documented|documented-untimed]
 * Prints the URL, the test credentials of both interfaces and the signing secret (public test
 * values of this local fake) and runs until SIGINT/SIGTERM. `--answers` (or SANDBOX_ANSWERS) sets how
 * much payout answers state: `documented` plays a service that states only what the interface
 * document shows (reference_no, amount, channel, status, the time made).
 */
import { startSandboxGateway } from './gateway';
import { SANDBOX_CREDENTIALS } from './credentials';
import { readPayoutAnswers } from './disbursement/payouts';
import type { SandboxOptions } from './types';

/** The value of `--name value` or `--name=value`: '' when the flag has none, undefined when absent. */
function stringArg(argv: string[], name: string): string | undefined {
	const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
	if (i === -1) return undefined;
	return (argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1]) ?? '';
}

function numberArg(argv: string[], name: string): number | undefined {
	const raw = stringArg(argv, name);
	if (raw === undefined) return undefined;
	const value = Number(raw);
	if (raw === '' || !Number.isFinite(value) || value < 0) {
		throw new Error(`${name} needs a non-negative number, got "${raw}"`);
	}
	return value;
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const options: SandboxOptions = {
		port: numberArg(argv, '--port') ?? 0,
		payoutAutoSettleMs: numberArg(argv, '--payout-auto-settle-ms'),
		tokenLifetimeSeconds: numberArg(argv, '--token-lifetime'),
		stateFile: stringArg(argv, '--state-file'),
		payoutAnswers: readPayoutAnswers(
			stringArg(argv, '--answers') ?? process.env.SANDBOX_ANSWERS,
			'--answers',
		),
		log: argv.includes('--verbose') ? (line) => console.log(line) : undefined,
	};
	const gateway = await startSandboxGateway(options);
	const c = SANDBOX_CREDENTIALS;
	console.log(`Sandbox gateway listening on ${gateway.url}`);
	console.log(`  collection   username=${c.collection.username} password=${c.collection.password}`);
	console.log(
		`  disbursement username=${c.disbursement.username} password=${c.disbursement.password}`,
	);
	console.log(`  signing secret ${c.signingSecret}`);
	console.log(`  control surface ${gateway.url}/__sandbox/stats`);
	if (options.stateFile) console.log(`  records kept in ${options.stateFile}`);
	if (options.payoutAnswers && options.payoutAnswers !== 'full')
		console.log(
			`  payout answers state only what the interface document shows (${options.payoutAnswers})`,
		);

	const stop = () => {
		gateway.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
	console.error(err instanceof Error ? err.message : String(err));
	process.exit(1);
});
