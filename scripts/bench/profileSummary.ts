// Where a run's CPU went: the samples of a .cpuprofile put into a few buckets, each sample into
// the first bucket (in the order below) that any frame of its stack belongs to.
import fs from 'fs';
import path from 'path';

interface CallFrame {
	functionName: string;
	url: string;
}
type FrameTest = (frame: CallFrame) => boolean;

interface CpuProfile {
	nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
	samples: number[];
}

// Work n8n does for every request or parameter, whoever calls it: any frame of the stack decides.
const CALLED: Array<[string, FrameTest]> = [
	[
		'n8n: credential read + authenticate per request',
		(f) =>
			/^(getCredentials|_getCredentials|getDecrypted|authenticate|preAuthentication)$/.test(
				f.functionName,
			),
	],
	[
		'n8n: parameters and expressions',
		(f) => /getNodeParameter|resolveSimpleParameterValue|getParameterValue/.test(f.functionName),
	],
	[
		'n8n/axios: HTTP request (new connection per request)',
		(f) =>
			/axios|follow-redirects|proxy-from-env|http-proxy|request-helper-functions|node:_http|node:net|stream_base_commons|node:internal\/streams|node:dns/.test(
				f.url,
			) || ['connect', 'writev', 'writeUtf8String', 'writeBuffer'].includes(f.functionName),
	],
	['response parsing (zod)', (f) => /node_modules\/zod|shared\/schemas/.test(f.url)],
];
// The rest belongs to the nearest frame (from the leaf) of our code or of n8n.
const OWNERS: Array<[string, FrameTest]> = [
	['item runner', (f) => /shared\/runner\//.test(f.url)],
	[
		'node operation, transport, validation',
		(f) => /\/(nodes|credentials)\//.test(f.url) && !/node_modules/.test(f.url),
	],
	[
		'n8n engine (WorkflowExecute, run data)',
		(f) => /n8n-core|n8n-workflow|n8n-nodes-base/.test(f.url),
	],
];

const TOP_FUNCTIONS = 8;

/** "functionName (package or file)": where a sample's own time (self time) was spent. */
function frameName(frame: CallFrame): string {
	const url = frame.url || '';
	const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
	const where = pkg ? pkg[1] : url.startsWith('node:') ? url : url ? path.basename(url) : 'native';
	return `${frame.functionName || '(anonymous)'} (${where})`;
}

function classify(frames: CallFrame[]): string {
	if (frames[0].functionName === '(garbage collector)') return 'garbage collection';
	const called = CALLED.find(([, test]) => frames.some(test));
	if (called) return called[0];
	for (const frame of frames) {
		const owner = OWNERS.find(([, test]) => test(frame));
		if (owner) return owner[0];
	}
	return 'other (Node.js internals, microtasks)';
}

export interface ProfileSummary {
	/** Shares of busy samples. */
	busyShare: number;
	buckets: Array<{ name: string; share: number }>;
	topFunctions: Array<{ name: string; share: number }>;
}

export function summarise(file: string): ProfileSummary {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children || []) parentOf.set(child, node.id);
	const counts = new Map<number, number>();
	for (const sample of profile.samples) counts.set(sample, (counts.get(sample) || 0) + 1);

	const totals = new Map<string, number>();
	const selfTime = new Map<string, number>();
	let busy = 0;
	let all = 0;
	for (const [id, count] of counts) {
		all += count;
		const frames: CallFrame[] = [];
		for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur))
			frames.push(byId.get(cur)!.callFrame);
		if (frames[0].functionName === '(idle)' || frames[0].functionName === '(program)') continue;
		busy += count;
		const key = frameName(frames[0]);
		selfTime.set(key, (selfTime.get(key) || 0) + count);
		const name = classify(frames);
		totals.set(name, (totals.get(name) || 0) + count);
	}
	return {
		busyShare: all ? busy / all : 0,
		buckets: [...totals]
			.sort((a, b) => b[1] - a[1])
			.map(([name, count]) => ({ name, share: busy ? count / busy : 0 })),
		topFunctions: [...selfTime]
			.sort((a, b) => b[1] - a[1])
			.slice(0, TOP_FUNCTIONS)
			.map(([name, count]) => ({ name, share: busy ? count / busy : 0 })),
	};
}

if (require.main === module) {
	for (const file of process.argv.slice(2)) {
		const { busyShare, buckets } = summarise(file);
		process.stdout.write(`${file} (busy ${(busyShare * 100).toFixed(0)}% of samples)\n`);
		for (const { name, share } of buckets)
			process.stdout.write(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}\n`);
		process.stdout.write('  top functions by self time:\n');
		for (const { name, share } of summarise(file).topFunctions)
			process.stdout.write(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}\n`);
	}
}
