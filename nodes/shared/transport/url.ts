/** Joins a base URL typed by a user (with or without a trailing slash) and an absolute path. */
export function joinUrl(baseUrl: string, path: string): string {
	return baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

/**
 * What is wrong with a credential's Base URL, or undefined. A `user:pass@` part would be sent as
 * Basic authentication in place of the bearer token, and the user would be told the credential is wrong.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return 'is not a valid URL: use a full address such as https://api.example.com';
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// or http://';
	if (url.username || url.password) {
		return 'must not contain a user name or password ("user:pass@"): put them in the Username and Password fields instead';
	}
	return undefined;
}
