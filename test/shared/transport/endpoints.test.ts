/**
 * The service's table of paths and the checks that keep a request on it
 * (nodes/shared/transport/endpoints.ts): a path parameter stays one segment, a user's Endpoint
 * Path stays a path on the service.
 */
import {
	ENDPOINTS,
	INTERFACE_LABEL,
	endpointPathProblem,
	pathParameterProblem,
	resolvePath,
} from '../../../nodes/shared/transport/endpoints';

describe('the path table', () => {
	const entries = Object.entries(ENDPOINTS);

	test.each(entries)(
		'%s: a path of the service under /v1/, its method and source',
		(_, endpoint) => {
			expect(endpoint.path).toMatch(/^\/v1\/[a-z/:]+$/);
			expect(endpointPathProblem(endpoint.path)).toBeUndefined();
			expect(['GET', 'POST']).toContain(endpoint.method);
			expect(['documented', 'public', 'assumed']).toContain(endpoint.source);
			expect(Object.keys(INTERFACE_LABEL)).toContain(endpoint.api);
		},
	);

	test('only assumed paths offer an override: a documented path is not a guess', () => {
		const overridable = entries.filter(([, endpoint]) => 'overridable' in endpoint);
		expect(overridable.map(([, endpoint]) => endpoint.source)).toEqual(
			overridable.map(() => 'assumed'),
		);
		expect(overridable.map(([name]) => name).sort()).toEqual([
			'createPayout',
			'getBanks',
			'getWalletTransactions',
			'getWallets',
		]);
	});

	test('no two endpoints share a method and path', () => {
		const keys = entries.map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`);
		expect(new Set(keys).size).toBe(keys.length);
	});

	test('each interface gets its token with a POST', () => {
		expect(ENDPOINTS.collectionToken).toMatchObject({ api: 'collection', method: 'POST' });
		expect(ENDPOINTS.disbursementToken).toMatchObject({ api: 'disbursement', method: 'POST' });
	});
});

describe('pathParameterProblem', () => {
	test.each([['TX-123'], ['abc_DEF.1'], ['AUTH 42'], ['..a'], ['a..'], ['%41']])(
		'%j stays one segment',
		(value) => {
			expect(pathParameterProblem(value)).toBeUndefined();
		},
	);

	test.each([
		['a/b', 'contains "/" or "\\" (also written %2F or %5C)'],
		['a%2Fb', 'contains "/" or "\\" (also written %2F or %5C)'],
		['a%2fb', 'contains "/" or "\\" (also written %2F or %5C)'],
		['a\\b', 'contains "/" or "\\" (also written %2F or %5C)'],
		['a%5Cb', 'contains "/" or "\\" (also written %2F or %5C)'],
		['.', 'is "." or "..", which would send the request to another path'],
		['..', 'is "." or "..", which would send the request to another path'],
		['%2E%2E', 'is "." or "..", which would send the request to another path'],
		['a\nb', 'contains a control character or a line break'],
		['a%0Db', 'contains a control character or a line break'],
		['a\tb', 'contains a control character or a line break'],
		['a\u0085b', 'contains a control character or a line break'],
		['a\u007fb', 'contains a control character or a line break'],
	])('%j %s', (value, problem) => {
		expect(pathParameterProblem(value)).toBe(problem);
	});

	test('a broken percent-escape is read as the text itself', () => {
		expect(pathParameterProblem('100%')).toBeUndefined();
		expect(pathParameterProblem('100%/x')).toBe('contains "/" or "\\" (also written %2F or %5C)');
	});
});

describe('endpointPathProblem', () => {
	test.each([
		['/v1/api/payouts'],
		['/v1/api/disbursement/transactions/process'],
		['/x'],
		['/a.b/c'],
	])('%j is a path on the service', (path) => {
		expect(endpointPathProblem(path)).toBeUndefined();
	});

	test.each([
		['v1/api/payouts', 'must start with a single "/": it is a path on the service, not an address'],
		[
			'https://evil.example/v1',
			'must start with a single "/": it is a path on the service, not an address',
		],
		[
			'//evil.example/v1',
			'must start with a single "/": it is a path on the service, not an address',
		],
		['', 'must start with a single "/": it is a path on the service, not an address'],
		['/v1//api', 'contains "\\", "//", a query or a fragment'],
		['/v1/api?x=1', 'contains "\\", "//", a query or a fragment'],
		['/v1/api#top', 'contains "\\", "//", a query or a fragment'],
		['/v1\\api', 'contains "\\", "//", a query or a fragment'],
		['/v1/../admin', 'has a "." or ".." part, which would leave the path'],
		['/v1/./api', 'has a "." or ".." part, which would leave the path'],
		['/v1/%2e%2e/admin', 'has a "." or ".." part, which would leave the path'],
		['/v1/api\r\nX-Header: 1', 'contains a control character or a line break'],
		['/v1/%0Aapi', 'contains a control character or a line break'],
	])('%j %s', (path, problem) => {
		expect(endpointPathProblem(path)).toBe(problem);
	});
});

describe('resolvePath', () => {
	test('fills each placeholder, encoded', () => {
		expect(resolvePath('/v1/api/authorization/:code', { code: 'AUTH 42' })).toBe(
			'/v1/api/authorization/AUTH%2042',
		);
		expect(resolvePath('/v1/:a/x/:b_c', { a: 'one', b_c: 'two' })).toBe('/v1/one/x/two');
	});

	test('a path without placeholders is kept as it is', () => {
		expect(resolvePath('/v1/api/banks')).toBe('/v1/api/banks');
	});

	test.each([[{}], [{ code: '' }]])('a missing value (%j) sends nothing', (params) => {
		expect(() => resolvePath('/v1/api/authorization/:code', params)).toThrow(
			'Missing path parameter "code"',
		);
	});

	test.each([
		['../token', 'contains "/" or "\\" (also written %2F or %5C)'],
		['..', 'is "." or "..", which would send the request to another path'],
		['A%2FB', 'contains "/" or "\\" (also written %2F or %5C)'],
		['A\nB', 'contains a control character or a line break'],
	])('a value %j that would leave its segment sends nothing', (code, problem) => {
		expect(() => resolvePath('/v1/api/authorization/:code', { code })).toThrow(
			`Path parameter "code" ${problem}: nothing was sent; give the value the service issued`,
		);
	});
});
