/** A Base URL holding a path is the likeliest cause of a 404: the message says so, and what to set. */
import { baseUrlPathHint } from '../../../nodes/shared/transport/url';

test.each([
	['https://api.example.com/v1', '/v1', 'https://api.example.com'],
	['https://api.example.com/v1/', '/v1', 'https://api.example.com'],
	['http://127.0.0.1:8080/api/v1', '/api/v1', 'http://127.0.0.1:8080'],
])('%s: names %s and the host to set', (baseUrl, path, host) => {
	expect(baseUrlPathHint(baseUrl)).toBe(
		`the credential's Base URL ends in "${path}", but the nodes add the service's paths (/v1/...) themselves: set Base URL to the host only (${host})`,
	);
});

test.each([['https://api.example.com'], ['https://api.example.com/'], ['not a url']])(
	'%s: no hint',
	(baseUrl) => {
		expect(baseUrlPathHint(baseUrl)).toBeUndefined();
	},
);
