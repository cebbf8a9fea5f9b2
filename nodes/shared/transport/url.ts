import { readUrl } from '../validation/validation';

/**
 * A credential's Base URL joined with an absolute path, parsed once: the Base URL in the normal
 * form it was checked in (with or without a trailing slash), or `problem`, what is wrong with it.
 */
export function serviceUrl(baseUrl: string, path: string): { url: string } | { problem: string } {
	const base = readUrl(baseUrl);
	const problem = baseUrlProblem(base);
	if (problem) return { problem };
	const normal = (base as URL).href.replace(/\/+$/, '');
	return { url: normal + (path.startsWith('/') ? path : `/${path}`) };
}

/**
 * What is wrong with a credential's Base URL, or undefined. A `user:pass@` part would be sent as
 * Basic authentication in place of the bearer token, and the user would be told the credential is
 * wrong; a query or fragment would swallow the path joined after it.
 */
function baseUrlProblem(url: ReturnType<typeof readUrl>): string | undefined {
	if (url instanceof URL) {
		return /[?#]/.test(url.href)
			? 'must not contain a query ("?...") or a fragment ("#..."): remove it'
			: undefined;
	}
	if (url.kind === 'invalid')
		return 'is not a valid URL: use a full address such as https://api.example.com';
	if (url.kind === 'userinfo')
		return `${url.problem}: put them in the Username and Password fields instead`;
	return url.fix
		? `${url.problem}: ${url.fix.charAt(0).toLowerCase()}${url.fix.slice(1)}`
		: url.problem;
}

/**
 * Why a 404 may be the Base URL's fault: it holds a path (`https://api.example.com/v1`) while the
 * nodes add the service's paths (`/v1/...`) themselves. Undefined when the Base URL is a bare host.
 */
export function baseUrlPathHint(baseUrl: string): string | undefined {
	const base = readUrl(baseUrl);
	if (!(base instanceof URL) || base.pathname === '/' || base.pathname === '') return undefined;
	return `the credential's Base URL ends in "${base.pathname.replace(/\/+$/, '')}", but the nodes add the service's paths (/v1/...) themselves: set Base URL to the host only (${base.origin})`;
}
