// One-line progress messages with the seconds elapsed since the script started.
const started = Date.now();

function elapsed(): string {
	return ((Date.now() - started) / 1000).toFixed(1).padStart(6);
}

export function log(message: string): void {
	process.stdout.write(`[${elapsed()}s] ${message}\n`);
}

/** The last `n` lines of a log, for an error message. */
export function lastLines(text: string, n = 25): string {
	return text.split('\n').slice(-n).join('\n');
}

export function seconds(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
