// The calls of n8n's internal REST API (/rest) the demo needs: owner set-up and sign-in, keeping the
// auth cookie as a browser does. The checks extend it (test/n8n/editorApi.ts).
import type { IDataObject } from 'n8n-workflow';

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

export interface RestResponse {
	status: number;
	json: unknown;
	text: string;
}

export class N8nRest {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	async request(method: string, urlPath: string, body?: unknown): Promise<RestResponse> {
		const res = await fetch(`${this.baseUrl}/rest${urlPath}`, {
			method,
			headers: {
				'content-type': 'application/json',
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		return await answerOf(res);
	}

	/** The answer's `data` (or the whole JSON), typed by the caller after what the route returns. */
	async expectOk<T = IDataObject>(method: string, urlPath: string, body?: unknown): Promise<T> {
		return this.dataOf<T>(method, urlPath, await this.request(method, urlPath, body));
	}

	/**
	 * The `data` (or the whole JSON) of a 2xx answer. While n8n migrates its database at start-up
	 * it answers every request 200 with the text "n8n is starting up. Please wait": a 2xx without
	 * JSON is an error too, naming the route and the answer.
	 */
	protected dataOf<T>(method: string, urlPath: string, res: RestResponse): T {
		if (res.status >= 300 || typeof res.json !== 'object' || res.json === null)
			throw new Error(
				`${method} /rest${urlPath} answered ${res.status}: ${res.text.slice(0, 300)}`,
			);
		const json = res.json as { data?: unknown };
		return (json.data ?? json) as T;
	}

	/** Creates the owner account on a fresh instance, or logs in when it already exists. */
	async setupOwnerOrLogin(owner: Owner): Promise<'created' | 'existing'> {
		const res = await this.request('POST', '/owner/setup', owner);
		if (res.status === 200) {
			this.dataOf('POST', '/owner/setup', res);
			this.expectSignedIn('/owner/setup');
			return 'created';
		}
		await this.login(owner);
		return 'existing';
	}

	async login({ email, password }: { email: string; password: string }): Promise<void> {
		await this.expectOk('POST', '/login', { emailOrLdapLoginId: email, password });
		this.expectSignedIn('/login');
	}

	private expectSignedIn(urlPath: string): void {
		if (!this.cookie)
			throw new Error(`POST /rest${urlPath} answered 200 without the n8n-auth cookie`);
	}
}

/** An HTTP answer's status, its text, and its JSON when the text is JSON. */
export async function answerOf(
	res: Response,
): Promise<{ status: number; json: unknown; text: string }> {
	const text = await res.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, json, text };
}
