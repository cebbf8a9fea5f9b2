// When an n8n process counts as started: asked over HTTP, never read from a log an earlier run
// could have written. Shared by the demo, the e2e checks and the queue-mode check.

/** The REST routes of a started n8n: 1.x serves /rest/settings before it registers sign-in. */
export function restRoutes(baseUrl: string): string[] {
	return [`${baseUrl}/rest/settings`, `${baseUrl}/rest/login`];
}

/**
 * True once `url` is served: a REST route answers JSON, 200 (the sign-in route, 401 to a
 * stranger); a webhook answers its CORS preflight with 204 (asked with an Origin, n8n looks the
 * webhook up and answers 404 until it is registered). While n8n migrates its database it answers
 * every request 200 with a line of text, which is not ready.
 */
export async function isServed(url: string): Promise<boolean> {
	try {
		if (url.includes('/webhook/')) {
			const res = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1' } });
			await res.arrayBuffer();
			return res.status === 204;
		}
		const res = await fetch(url);
		await res.arrayBuffer();
		const isJson = res.headers.get('content-type')?.includes('application/json') ?? false;
		const signInRoute = url.endsWith('/rest/login') && res.status === 401;
		return isJson && (res.status < 300 || signInRoute);
	} catch {
		return false;
	}
}
