// The stored results of the benchmarks and the queue sheet run (docs/results/): one JSON file per
// run kind, with the machine, the versions, the date and the command that produced it. The docs'
// tables are rendered from these files (scripts/bench/render.ts), never typed.
import fs from 'fs';
import os from 'os';
import path from 'path';

import { ROOT } from '../n8n/paths';

export const RESULTS_DIR = path.join(ROOT, 'docs', 'results');

/** What the figures were measured on (a transcribed result has what its report stated). */
export interface Machine {
	cores: number;
	cpuModel: string;
	memoryGb?: number;
	platform?: string;
	/** The Node.js of the process that measured (the benchmark's parent, the check's runner). */
	node?: string;
}

/** One stored result: where it came from, and its figures in the shape its kind renders. */
export interface StoredResult<Figures = unknown> {
	/** Which run made it, and its file name in docs/results/ (`<kind>.json`). */
	kind: ResultKind;
	/** When the run ended, ISO 8601 UTC. */
	date: string;
	/** The command as it was run. */
	command: string;
	machine: Machine;
	/** The versions the figures belong to (n8n, n8n-core, Node.js of the engine, ...). */
	versions: Record<string, string>;
	/** The settings of the run (latency, sizes, concurrency, ...). */
	settings: Record<string, unknown>;
	/** What a reader must know to weigh the figures (a busy machine, a skipped route). */
	notes: string[];
	/**
	 * Set when the figures were copied from an earlier report rather than written by the run: what
	 * they were copied from. The docs then say so beside the table.
	 */
	transcribedFrom?: string;
	figures: Figures;
}

export const RESULT_KINDS = ['bench', 'bench-n8n', 'bench-batch', 'queue-sheet'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

export const resultFile = (kind: ResultKind, dir = RESULTS_DIR) => path.join(dir, `${kind}.json`);

/** This machine, as a stored result records it. */
export function thisMachine(): Machine {
	const cpus = os.cpus();
	return {
		cores: cpus.length,
		cpuModel: cpus[0]?.model || 'unknown',
		memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
		platform: `${os.platform()} ${os.release()}`,
		node: process.version,
	};
}

/** The command as typed: `script` and its arguments, those with spaces or quotes quoted. */
export function commandLine(script: string, argv: string[]): string {
	const quoted = argv.map((arg) => (/[\s"'`$]/.test(arg) ? JSON.stringify(arg) : arg));
	return `${script}${argv.length ? ` -- ${quoted.join(' ')}` : ''}`;
}

/** The date as stored results write it: ISO 8601 UTC to the second. */
export const nowUtc = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export function writeResult(result: StoredResult, file = resultFile(result.kind)): string {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(result, null, '\t')}\n`);
	return file;
}

/** The stored result of `kind`, or undefined when there is none. */
export function readResult<Figures>(
	kind: ResultKind,
	dir = RESULTS_DIR,
): StoredResult<Figures> | undefined {
	const file = resultFile(kind, dir);
	if (!fs.existsSync(file)) return undefined;
	const result = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredResult<Figures>;
	if (result.kind !== kind) throw new Error(`${file} holds a result of kind ${result.kind}`);
	return result;
}
