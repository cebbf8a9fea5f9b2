import { spawn } from 'child_process';
import * as path from 'path';
import { SANDBOX_CREDENTIALS } from '../../sandbox';

describe('sandbox gateway CLI', () => {
	it('starts, prints its URL and the test credentials, serves, and stops on SIGTERM', async () => {
		const root = path.resolve(__dirname, '../..');
		const child = spawn(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				'sandbox/cli.ts',
				'--port',
				'0',
				'--payout-auto-settle-ms',
				'500',
				'--answers',
				'documented',
			],
			{
				cwd: root,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let out = '';
		child.stdout.on('data', (chunk) => (out += chunk));
		child.stderr.on('data', (chunk) => (out += chunk));
		const exited = new Promise<number | null>((resolve) =>
			child.on('exit', (code) => resolve(code)),
		);
		try {
			const url = await new Promise<string>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 15000);
				const check = () => {
					const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
					if (m && out.includes(SANDBOX_CREDENTIALS.signingSecret)) {
						clearTimeout(timer);
						resolve(m[0]);
					}
				};
				child.stdout.on('data', check);
				child.on('exit', () => reject(new Error(`exited early: ${out}`)));
			});
			expect(out).toContain(SANDBOX_CREDENTIALS.collection.username);
			expect(out).toContain(SANDBOX_CREDENTIALS.disbursement.password);
			const stats = await fetch(`${url}/__sandbox/stats`);
			expect(stats.status).toBe(200);
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
		expect(out).toContain(
			'payout answers state only what the interface document shows (documented)',
		);
	});

	it('refuses an unknown --answers (or SANDBOX_ANSWERS) by name, without starting', async () => {
		const root = path.resolve(__dirname, '../..');
		const child = spawn(
			process.execPath,
			['-r', 'ts-node/register/transpile-only', 'sandbox/cli.ts', '--port', '0'],
			{
				cwd: root,
				env: { ...process.env, SANDBOX_ANSWERS: 'generous' },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let out = '';
		child.stdout.on('data', (chunk) => (out += chunk));
		child.stderr.on('data', (chunk) => (out += chunk));
		const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
		expect(code).toBe(1);
		expect(out).toContain(
			'--answers needs one of full, documented, documented-untimed, got "generous"',
		);
		expect(out).not.toContain('listening');
	});
});
