// When an n8n process counts as started: asked over HTTP, never read from a log an earlier run
// could have written. Shared by the demo, the e2e checks and the queue-mode check.

/** The REST routes of a started n8n: 1.x serves /rest/settings before it registers sign-in. */
export function restRoutes(baseUrl: string): string[] {
	return [`${baseUrl}/rest/settings`, `${baseUrl}/rest/login`];
}

/**
 * True once `url` is served: a REST route answers JSON, 200 (the sign-in route, 401 to a
 * stranger); a webhook's CORS preflight (asked with an Origin) lists a method besides OPTIONS.
 * n8n answers every webhook preflight 204, registered or not (1.x and 2.x alike), and lists in
 * Access-Control-Allow-Methods the methods stored for that path: only "OPTIONS" until its
 * workflow is active. While n8n migrates its database it answers every request 200 with a line of
 * text, which is not ready.
 */
export async function isServed(url: string): Promise<boolean> {
	try {
		if (url.includes('/webhook/')) {
			const res = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1' } });
			await res.arrayBuffer();
			const methods = (res.headers.get('access-control-allow-methods') ?? '').split(',');
			const registered = methods.some((m) => m.trim() !== '' && m.trim() !== 'OPTIONS');
			return res.status === 204 && registered;
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
