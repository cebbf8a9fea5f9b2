// What the checks run with the n8n CLI in a user folder: a workflow (`n8n execute`), and the list of
// node types n8n loaded (`n8n export:nodes`).
import fs from 'fs';
import path from 'path';
import type { IRun } from 'n8n-workflow';
import { readExportedJson, type N8nInstance } from '../../scripts/n8n/instance';

/** `n8n execute --rawOutput`: resolves with the exit code, the parsed run (or undefined) and the log. */
export async function executeWorkflow(
	instance: N8nInstance,
	id: string,
	{ timeoutMs = 120000 }: { timeoutMs?: number } = {},
): Promise<{ code: number; output: string; logFile: string; run: IRun | undefined }> {
	const result = await instance.run(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs });
	return { ...result, run: parseRawOutput(result.output) };
}

/** Node types n8n loaded, from `n8n export:nodes`. */
export async function exportNodeTypes(instance: N8nInstance): Promise<Array<{ name: string }>> {
	const file = path.join(instance.userFolder, 'import', 'node-types.json');
	fs.rmSync(file, { force: true });
	await instance.runChecked(['export:nodes', `--output=${file}`], /Successfully exported/);
	return (await readExportedJson(file)) as Array<{ name: string }>;
}

/** The run JSON of `n8n execute --rawOutput` starts at a line `{`, after n8n's start-up lines. */
function parseRawOutput(output: string): IRun | undefined {
	const lines = output.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		// Shutdown lines may follow the JSON: try each closing `}` line, last first.
		for (let end = lines.length - 1; end > i; end--) {
			if (lines[end] !== '}') continue;
			try {
				return JSON.parse(lines.slice(i, end + 1).join('\n')) as IRun;
			} catch {
				// not the end of the run JSON
			}
		}
	}
	return undefined;
}
