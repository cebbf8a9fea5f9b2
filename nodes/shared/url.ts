/** Joins a base URL typed by a user (with or without a trailing slash) and an absolute path. */
export function joinUrl(baseUrl: string, path: string): string {
	return baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}
