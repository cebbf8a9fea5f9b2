/**
 * What the harness starts and must stop when a test file ends. jest gives every test file a module
 * registry of its own, so n8n-core's services are built anew in each file, and on 2 cores jest runs
 * all files in one process: whatever a file's services leave running (an interval) would outlive
 * the file and keep its modules in memory. test/harness/setup/afterEnv.ts stops them after each
 * file's last test; scripts that use the harness outside jest rely on their timers being unref'd.
 */
const stops: Array<() => void> = [];

export function onTeardown(stop: () => void): void {
	stops.push(stop);
}

export function runTeardowns(): void {
	for (const stop of stops.splice(0)) stop();
}
