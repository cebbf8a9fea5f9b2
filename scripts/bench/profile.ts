// Where a run's CPU went: the samples of a .cpuprofile put into a few buckets, each sample into
// the first bucket (in the order below) that any frame of its stack belongs to; and the functions
// with the most samples of their own (self time).
import fs from 'fs';
import path from 'path';

interface CallFrame {
	functionName: string;
	url: string;
}
type FrameTest = (frame: CallFrame) => boolean;

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

/** "functionName (package or file)": where a sample's own time was spent. */
function frameName({ functionName, url }: CallFrame): string {
	const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
	const where = pkg ? pkg[1] : url.startsWith('node:') ? url : url ? path.basename(url) : 'native';
	return `${functionName || '(anonymous)'} (${where})`;
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

/** Shares of the busy samples, largest first. */
const shares = (counts: Map<string, number>, busy: number, top = Infinity) =>
	[...counts]
		.sort((a, b) => b[1] - a[1])
		.slice(0, top)
		.map(([name, count]) => ({ name, share: busy ? count / busy : 0 }));

export function summarise(file: string) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
		nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
		samples: number[];
	};
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map<number, number>();
	for (const node of profile.nodes) {
		for (const child of node.children || []) parentOf.set(child, node.id);
	}
	const buckets = new Map<string, number>();
	const selfTime = new Map<string, number>();
	const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) || 0) + 1);
	let busy = 0;
	for (const sample of profile.samples) {
		const frames: CallFrame[] = [];
		for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) {
			frames.push(byId.get(id)!.callFrame);
		}
		if (frames[0].functionName === '(idle)' || frames[0].functionName === '(program)') continue;
		busy++;
		add(selfTime, frameName(frames[0]));
		add(buckets, classify(frames));
	}
	return { cpuBreakdown: shares(buckets, busy), topFunctions: shares(selfTime, busy, 8) };
}
