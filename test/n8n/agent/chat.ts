// n8n's hosted chat driven as its chat page drives it, with no browser: a message is POSTed to the
// Chat Trigger's webhook (`/webhook/<id>/chat`), which answers with the execution and a resume
// token at once; replies arrive on the chat socket (`/chat?sessionId=…&executionId=…&token=…`):
// plain text from Respond to Chat, and a human review as JSON with Approve / Disapprove links. The
// socket must answer n8n's heartbeats, or n8n cancels the execution after a minute.
import WebSocket from 'ws';

export interface Review {
	text: string;
	approve: string;
	deny: string;
}

export interface ChatTurn {
	executionId: string;
	/** The next human review on the socket. */
	review(timeoutMs?: number): Promise<Review>;
	/** The next plain message (Respond to Chat). */
	message(timeoutMs?: number): Promise<string>;
	/** Resolves when n8n closes the socket: the execution finished. */
	finished: Promise<void>;
	close(): void;
}

// n8n's approve link ignores requests whose User-Agent looks like a program (isbot): a browser's.
const BROWSER =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** Sends one chat message and listens to its execution. */
export async function chat(
	n8nUrl: string,
	webhookId: string,
	sessionId: string,
	chatInput: string,
): Promise<ChatTurn> {
	const post = () =>
		fetch(`${n8nUrl}/webhook/${webhookId}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput }),
		});
	// Just after its start, n8n may not have registered the published chat yet (404).
	let res = await post();
	for (let waited = 0; res.status === 404 && waited < 60_000; waited += 1000) {
		await res.arrayBuffer();
		await new Promise((wake) => setTimeout(wake, 1000));
		res = await post();
	}
	const started = (await res.json()) as { executionId?: string; resumeToken?: string };
	if (!res.ok || !started.executionId)
		throw new Error(`the chat webhook answered ${res.status}: ${JSON.stringify(started)}`);
	const query = new URLSearchParams({
		sessionId,
		executionId: started.executionId,
		isPublic: 'true',
		...(started.resumeToken ? { token: started.resumeToken } : {}),
	});
	const socket = new WebSocket(`${n8nUrl.replace(/^http/, 'ws')}/chat?${query}`);
	const frames: string[] = [];
	const waiting: Array<() => void> = [];
	socket.on('message', (data) => {
		const text = String(data);
		if (text === 'n8n|heartbeat') socket.send('n8n|heartbeat-ack');
		else if (!text.startsWith('n8n|')) frames.push(text);
		waiting.splice(0).forEach((wake) => wake());
	});
	const finished = new Promise<void>((resolve) => socket.on('close', () => resolve()));
	await new Promise<void>((resolve, reject) => {
		socket.once('open', () => resolve());
		socket.once('error', reject);
	});

	/** The next frame `pick` accepts, taken off the list. */
	async function next<T>(what: string, pick: (frame: string) => T | undefined, timeoutMs: number) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			for (const [i, frame] of frames.entries()) {
				const picked = pick(frame);
				if (picked !== undefined) {
					frames.splice(i, 1);
					return picked;
				}
			}
			if (Date.now() > deadline)
				throw new Error(`no ${what} within ${timeoutMs / 1000} s; frames: ${frames.join(' | ')}`);
			await Promise.race([
				new Promise<void>((wake) => waiting.push(wake)),
				new Promise((wake) => setTimeout(wake, 500)),
			]);
		}
	}

	const asReview = (frame: string): Review | undefined => {
		try {
			const parsed = JSON.parse(frame) as {
				type?: string;
				text?: string;
				buttons?: Array<{ link: string }>;
			};
			if (parsed.type !== 'with-buttons') return undefined;
			const link = (approved: boolean) =>
				parsed.buttons?.find((b) => b.link.includes(`approved=${approved}`))?.link ?? '';
			return { text: String(parsed.text), approve: link(true), deny: link(false) };
		} catch {
			return undefined;
		}
	};

	return {
		executionId: started.executionId,
		review: (timeoutMs = 120_000) => next('human review', asReview, timeoutMs),
		message: (timeoutMs = 120_000) =>
			next('chat message', (frame) => (asReview(frame) ? undefined : frame), timeoutMs),
		finished,
		close: () => socket.close(),
	};
}

/** Presses a review button as a person's browser does; n8n's link names its own host, the check's n8n is `n8nUrl`. */
export async function press(link: string, n8nUrl: string): Promise<number> {
	const url = new URL(link);
	const res = await fetch(`${n8nUrl}${url.pathname}${url.search}`, {
		headers: { 'user-agent': BROWSER },
	});
	await res.arrayBuffer();
	return res.status;
}
