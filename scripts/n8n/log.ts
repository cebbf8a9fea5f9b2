// One-line progress messages with the seconds elapsed since the script started.
const started = Date.now();

function elapsed(): string {
	return ((Date.now() - started) / 1000).toFixed(1).padStart(6);
}

export function log(message: string): void {
	process.stdout.write(`[${elapsed()}s] ${message}\n`);
}

export function seconds(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
