// Redis and PostgreSQL for a queue-mode n8n: installed from Debian's packages when missing, each
// started on 127.0.0.1 on a free port with its data in a temporary folder, and stopped by PID.
// PostgreSQL's server refuses to run as root: initdb and postgres then run as the `postgres` user
// the Debian package creates.
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { execFileSync } from 'child_process';
import { freePort, runLogged, runVisible, sleep } from '../../../scripts/n8n/proc';
import { log, seconds } from '../../../scripts/n8n/log';
import { startService, type Service } from './processes';

const DEBIAN_PACKAGES = ['redis-server', 'postgresql'];
const POSTGRES_LIB = '/usr/lib/postgresql';
const DB_USER = 'n8n';
/** initdb and createdb: longer means something is wrong. */
const SETUP_TIMEOUT_MS = 120000;
export const DB_NAME = 'n8n';

export interface Postgres extends Service {
	port: number;
	user: string;
	database: string;
	/** Its own temporary folder: data and log. */
	dir: string;
	/** One SQL statement through psql; its rows, unaligned, one a line. */
	query(sql: string): string;
}

export interface Redis extends Service {
	port: number;
}

function onPath(command: string): boolean {
	try {
		execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/** The newest installed PostgreSQL server's bin folder, or undefined. */
function postgresBinDir(): string | undefined {
	if (!fs.existsSync(POSTGRES_LIB)) return undefined;
	const versions = fs
		.readdirSync(POSTGRES_LIB)
		.filter((v) => fs.existsSync(path.join(POSTGRES_LIB, v, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(POSTGRES_LIB, versions[0], 'bin') : undefined;
}

/** Installs redis-server and PostgreSQL with apt-get when either is missing. */
export async function ensureServices(): Promise<{ installed: boolean }> {
	if (onPath('redis-server') && postgresBinDir()) return { installed: false };
	if (process.getuid?.() !== 0) {
		throw new Error(
			`redis-server or PostgreSQL is missing: install them with \`sudo apt-get install -y ${DEBIAN_PACKAGES.join(' ')}\``,
		);
	}
	const started = Date.now();
	log(`installing ${DEBIAN_PACKAGES.join(' and ')} with apt-get`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	// Waits for another apt-get holding the lock rather than failing at once.
	const install = ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', ...DEBIAN_PACKAGES];
	try {
		await runVisible('apt-get', install, { env });
	} catch {
		await runVisible('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { env });
		await runVisible('apt-get', install, { env });
	}
	if (!onPath('redis-server') || !postgresBinDir())
		throw new Error('apt-get finished, but redis-server or PostgreSQL is still missing');
	log(`installed in ${seconds(started)}`);
	return { installed: true };
}

/**
 * Resolves once `ready` says so (an error counts as not yet); throws with the end of the service's
 * log when it exits first or `timeoutMs` passes.
 */
export async function waitReady(
	service: Service,
	ready: () => Promise<boolean>,
	{ timeoutMs = 60000, quiet = false, where = '' } = {},
): Promise<void> {
	const started = Date.now();
	while (Date.now() - started < timeoutMs) {
		if (service.hasExited())
			throw new Error(`${service.name} exited early, see ${service.logFile}:\n${service.tail()}`);
		if (await ready().catch(() => false)) {
			if (!quiet) log(`${service.name} ready in ${seconds(started)}${where}`);
			return;
		}
		await sleep(250);
	}
	throw new Error(
		`${service.name} was not ready in ${timeoutMs / 1000} s, see ${service.logFile}:\n${service.tail()}`,
	);
}

/** True when the server on `port` answers PING with PONG. */
export function redisPong(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		let answer = '';
		socket.setTimeout(1000, () => socket.destroy());
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			answer += chunk.toString();
			if (answer.includes('\r\n')) socket.end();
		});
		socket.on('close', () => resolve(answer.startsWith('+PONG')));
		socket.on('error', () => resolve(false));
	});
}

export async function startRedis(dir: string): Promise<Redis> {
	fs.mkdirSync(dir, { recursive: true });
	const port = await freePort(26000 + Math.floor(Math.random() * 10000));
	// No snapshots, no append-only file: the queue lives only as long as this run.
	const args = [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--dir',
		dir,
		'--save',
		'',
		'--appendonly',
		'no',
		'--daemonize',
		'no',
	];
	const service = startService('redis', 'redis-server', args, {
		logFile: path.join(dir, 'redis.log'),
	});
	await waitReady(service, () => redisPong(port), { where: ` on port ${port}` });
	return { ...service, port };
}

function postgresUser(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	return { uid, gid };
}

/** PostgreSQL with its data in a new temporary folder of its own (`dir`, for the caller to remove). */
export async function startPostgres(): Promise<Postgres> {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed');
	const owner = postgresUser();
	// Its own folder straight under the temporary folder: the postgres user must be able to reach it.
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-queue-pg-'));
	const dataDir = path.join(dir, 'data');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	if (owner) {
		fs.chmodSync(dir, 0o755);
		fs.chownSync(dataDir, owner.uid, owner.gid);
	}
	const logFile = path.join(dir, 'postgres.log');
	const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
	const init = await runLogged(
		path.join(bin, 'initdb'),
		['-D', dataDir, '-U', DB_USER, '--auth=trust', '-E', 'UTF8', '--no-sync'],
		{
			timeoutMs: SETUP_TIMEOUT_MS,
			env: { ...process.env, LC_ALL: 'C' },
			cwd: dir,
			logFile,
			...asOwner,
		},
	);
	if (init.code !== 0)
		throw new Error(`initdb failed (exit ${init.code}):\n${init.output.slice(-2000)}`);
	const port = await freePort(36000 + Math.floor(Math.random() * 10000));
	// TCP on 127.0.0.1 only; no Unix socket, so nothing is written outside the data folder.
	const args = [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'unix_socket_directories=',
	];
	const service = startService('postgres', path.join(bin, 'postgres'), args, {
		logFile,
		cwd: dir,
		...asOwner,
		stopSignal: 'SIGINT',
	});
	await waitReady(
		service,
		async () => /ready to accept connections/.test(fs.readFileSync(logFile, 'utf8')),
		{ where: ` on port ${port}` },
	);
	const created = await runLogged(
		path.join(bin, 'createdb'),
		['-h', '127.0.0.1', '-p', String(port), '-U', DB_USER, DB_NAME],
		{
			cwd: dir,
			logFile,
			timeoutMs: SETUP_TIMEOUT_MS,
		},
	);
	if (created.code !== 0)
		throw new Error(`createdb failed (exit ${created.code}):\n${created.output.slice(-2000)}`);
	const query = (sql: string) =>
		execFileSync(
			path.join(bin, 'psql'),
			['-h', '127.0.0.1', '-p', String(port), '-U', DB_USER, '-d', DB_NAME, '-tAc', sql],
			{ encoding: 'utf8' },
		).trim();
	return { ...service, port, user: DB_USER, database: DB_NAME, dir, query };
}
