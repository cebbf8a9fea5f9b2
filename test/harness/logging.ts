/**
 * Captures every line n8n logs while tests run: n8n-core logs through two channels, the
 * `LoggerProxy` of n8n-workflow and the DI `Logger` that node contexts expose as `this.logger`.
 * Both are pointed at one capturing logger so the secret guard can scan what n8n would write.
 */
import { Logger as BackendLogger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { LogMetadata, Logger } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

export interface LogLine {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	/** The metadata rendered as text (errors by their message and stack). */
	metadata: string;
}

const lines: LogLine[] = [];
/** Lines printed to the console as well, e.g. HARNESS_LOG=debug while debugging a test. */
const echoLevel = process.env.HARNESS_LOG;
const ORDER = ['error', 'warn', 'info', 'debug'];

function renderMetadata(metadata: LogMetadata | undefined): string {
	if (metadata === undefined) return '';
	const seen = new WeakSet<object>();
	try {
		return JSON.stringify(metadata, (_key, value: unknown) => {
			if (value instanceof Error) {
				return { ...value, name: value.name, message: value.message, stack: value.stack };
			}
			if (value && typeof value === 'object') {
				if (seen.has(value)) return '[circular]';
				seen.add(value);
			}
			return value;
		});
	} catch {
		return String(metadata);
	}
}

function record(level: LogLine['level']) {
	return (message: string, metadata?: LogMetadata) => {
		const line = { level, message: String(message), metadata: renderMetadata(metadata) };
		lines.push(line);
		if (echoLevel && ORDER.indexOf(level) <= ORDER.indexOf(echoLevel)) {
			console.log(`[n8n ${level}] ${line.message} ${line.metadata}`);
		}
	};
}

const capturingLogger = {
	error: record('error'),
	warn: record('warn'),
	info: record('info'),
	debug: record('debug'),
	scoped() {
		return capturingLogger;
	},
};

let installed = false;

/** Idempotent; must run before n8n-core first asks the container for its Logger. */
export function installCapturingLogger(): void {
	if (installed) return;
	installed = true;
	LoggerProxy.init(capturingLogger as Logger);
	Container.set(BackendLogger, capturingLogger as unknown as BackendLogger);
}

/** A position in the log, to read the lines written after it. */
export function logMark(): number {
	return lines.length;
}

export function logLinesSince(mark: number): LogLine[] {
	return lines.slice(mark);
}

/** Every line captured so far in this test file. */
export function capturedLogs(): readonly LogLine[] {
	return lines;
}
