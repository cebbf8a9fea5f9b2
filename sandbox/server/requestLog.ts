/** The last request per path, for tests that check what a node really sent. */
import type { RecordedRequest } from '../types';

export class RequestLog {
	private readonly byPath = new Map<string, { seq: number; request: RecordedRequest }>();
	private seq = 0;

	record(request: RecordedRequest): void {
		this.byPath.set(request.path, { seq: ++this.seq, request });
	}

	/** The newest request whose path starts with `pathPrefix`. */
	last(pathPrefix: string): RecordedRequest | undefined {
		let best: { seq: number; request: RecordedRequest } | undefined;
		for (const [path, entry] of this.byPath) {
			if (path.startsWith(pathPrefix) && (!best || entry.seq > best.seq)) best = entry;
		}
		return best && structuredClone(best.request);
	}

	clear(): void {
		this.byPath.clear();
	}
}
