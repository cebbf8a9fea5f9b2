/**
 * What is checked is what is sent. A URL goes out in its normal form (WHATWG `href`), and what a
 * parser would silently drop or read differently (a user name and password, line breaks, tabs,
 * backslashes, spaces) is refused before anything is sent. A path parameter or an Endpoint Path
 * can never leave the service's path. Each case runs through n8n's engine against the sandbox,
 * and what the sandbox received is asserted.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../sandbox';
import * as disbursement from '../harness/disbursementRuns';
import {
	MAPPINGS,
	mappedParameters,
	mappedRow,
	moneyOperationsPerFile,
	type Mapping,
	type MoneyOperation,
} from '../harness/moneyOperations';

const ops = moneyOperationsPerFile('send what you validated');
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const nextRef = () => `URL-${++counter}`;
const requests = (op: MoneyOperation) => op.setup.gw.stats().requestsByPath;

/** The URL fields of each operation: node parameter, body field, label. */
const URL_FIELDS: Record<MoneyOperation['name'], Array<[string, string, string]>> = {
	Generate: [
		['callbackWebhookUrl', 'callback_webhook_url', 'Callback Webhook URL'],
		['successRedirectUrl', 'success_redirect_url', 'Success Redirect URL'],
		['failureRedirectUrl', 'failure_redirect_url', 'Failure Redirect URL'],
	],
	'Payout Create': [['callbackWebhookUrl', 'callback_webhook_url', 'Callback Webhook URL']],
};

/**
 * One row whose `param` is `url`: mapped from the row by an expression (manual), or typed into the
 * node's field (automatic mapping reads the URLs from the node's fields).
 */
async function runWithUrl(op: MoneyOperation, mapping: Mapping, param: string, url: string) {
	const reference = nextRef();
	let parameters: INodeParameters = mappedParameters(op, mapping);
	let row: IDataObject = mappedRow(op, mapping, reference, 10);
	if (mapping === 'manual') {
		parameters = { ...parameters, [param]: '={{ $json.url }}' };
		row = { ...row, url };
	} else {
		parameters = { ...parameters, [param]: url };
	}
	return { reference, result: await op.run(parameters, [row]) };
}

const REFUSED: Array<[string, string, string, string]> = [
	[
		'a user name and password',
		'https://someone:secret-in-url@example.com/hook',
		'must not contain a user name or password ("user:pass@")',
		'Remove the user name and password from the URL',
	],
	[
		'CR LF',
		'https://example.com/hook\r\nX-Injected: 1',
		'contains a line break',
		'Remove the line break (a spreadsheet cell or an expression may end with one)',
	],
	[
		'a trailing line feed',
		'https://example.com/hook\n',
		'contains a line break',
		'Remove the line break (a spreadsheet cell or an expression may end with one)',
	],
	[
		'a TAB',
		'https://exa\tmple.com/hook',
		'contains a tab or another control character',
		'Remove the tab or control character (most editors do not show it)',
	],
	[
		'a backslash',
		'https://example.com\\@evil.example/hook',
		'contains a backslash ("\\")',
		'Use "/" between the parts of a URL',
	],
	[
		'an unescaped space in the path',
		'https://example.com/my hook',
		'contains a space',
		'Remove the space, or write it as %20',
	],
];

const NORMALISED: Array<[string, string, string]> = [
	[
		'surrounding spaces and no-break spaces',
		' \u00a0https://example.com/hook\u00a0 ',
		'https://example.com/hook',
	],
	['an upper-case scheme and host, no path', 'HTTPS://Example.COM', 'https://example.com/'],
	['dot segments in the path', 'https://example.com/a/./b/../hook', 'https://example.com/a/hook'],
	['the default port', 'https://example.com:443/hook?x=1', 'https://example.com/hook?x=1'],
];

describe.each(NAMES)('%s: URLs', (name) => {
	const op = () => ops[name];

	describe.each(MAPPINGS)('%s mapping', (mapping) => {
		const fields = () => URL_FIELDS[name];

		test.each(REFUSED)(
			'%s is refused with the fix, and nothing is sent',
			async (_case, url, problem, fix) => {
				for (const [param, , label] of fields()) {
					const { result } = await runWithUrl(op(), mapping, param, url);
					expect([result.error?.message, result.error?.description]).toEqual([
						`${label} ${problem} (row 1)`,
						fix,
					]);
					expect(result.error?.message).not.toContain('secret-in-url');
				}
				expect(requests(op())[`POST ${op().createPath}`]).toBeUndefined();
			},
		);

		test.each(NORMALISED)('%s: sent in its normal form', async (_case, url, sent) => {
			for (const [param, field] of fields()) {
				const { reference, result } = await runWithUrl(op(), mapping, param, url);
				expect(result.error).toBeUndefined();
				const body = op().setup.gw.lastRequest(op().createPath)?.body as IDataObject;
				expect([body.reference_no, body[field]]).toEqual([reference, sent]);
			}
		});
	});

	describe("the credential's Base URL", () => {
		const login = () => SANDBOX_CREDENTIALS[name === 'Generate' ? 'collection' : 'disbursement'];
		const runWithBaseUrl = async (baseUrl: string) => {
			const credentialId = op().setup.store.add(op().credentialType, {
				environment: 'sandbox',
				baseUrl,
				...login(),
			}).id;
			const runner =
				name === 'Generate' ? (await import('../harness/collectionRuns')).run : disbursement.run;
			return await runner(op().setup as never, op().parameters(), {
				items: [op().row(nextRef(), 10)],
				credentialId,
			});
		};
		const refused: Array<[string, (url: string) => string, string]> = [
			[
				'a query',
				(url) => `${url}/?tenant=1`,
				'must not contain a query ("?...") or a fragment ("#..."): remove it',
			],
			[
				'a fragment',
				(url) => `${url}#top`,
				'must not contain a query ("?...") or a fragment ("#..."): remove it',
			],
			[
				'a line break',
				(url) => `${url}\n`,
				'contains a line break: remove the line break (a spreadsheet cell or an expression may end with one)',
			],
			[
				'a tab',
				(url) => url.replace('127.0.0.1', '127.0.\t0.1'),
				'contains a tab or another control character: remove the tab or control character (most editors do not show it)',
			],
			[
				'a backslash',
				(url) => `${url}\\`,
				'contains a backslash ("\\"): use "/" between the parts of a URL',
			],
		];

		test.each(refused)('with %s is refused before any request', async (_case, make, problem) => {
			const result = await runWithBaseUrl(make(op().setup.gw.url));
			expect(result.error?.message).toBe(
				`The ${op().label} credential's Base URL ${problem} (row 1)`,
			);
			expect(requests(op())).toEqual({});
		});

		test('with surrounding spaces and an upper-case host is used in its normal form', async () => {
			const result = await runWithBaseUrl(`  ${op().setup.gw.url.replace('http://', 'HTTP://')}/ `);
			expect(result.error).toBeUndefined();
			expect(requests(op())[`POST ${op().createPath}`]).toBe(1);
		});
	});
});

describe('Disbursement: path parameters and the Endpoint Path', () => {
	const op = () => ops['Payout Create'];
	const posts = () =>
		Object.keys(requests(op())).filter(
			(key) => key.startsWith('POST /v1/api/') && !key.endsWith('/v1/auth/token'),
		);

	const authorization = async (code: string) =>
		await disbursement.run(op().setup as never, {
			resource: 'authorization',
			operation: 'get',
			code,
			jsonBody: '{}',
		});

	test.each(['.', '..', 'a/../b', '%2e%2e', '%2E.', 'a/b', 'a\\b', 'AUTH\n1001'])(
		'Authorization > Get with code %j is refused before sending',
		async (code) => {
			const result = await authorization(code);
			expect(result.error?.message).toMatch(/^Code .+ \(row 1\)$/);
			expect(result.error?.description).toBe(
				'Give the code as the service issued it: letters, digits and signs, without "/", "\\" or control characters, and not "." or ".."',
			);
			expect(posts()).toEqual([]);
		},
	);

	test('Authorization > Get with a normal code still works', async () => {
		const result = await authorization('AUTH-1001');
		expect(result.error).toBeUndefined();
		expect(posts()).toEqual(['POST /v1/api/authorization/AUTH-1001']);
	});

	test.each([
		'/v1/api/../banks',
		'..',
		'//evil.example/x',
		'http://evil.example/x',
		'/v1/api/%2e%2e/x',
		'/v1/api/pay\r\nouts',
		'/v1/api\\payouts',
		'/v1/api/payouts?x=1',
	])('Payout > Create with Endpoint Path %j is refused before sending', async (endpointPath) => {
		const result = await op().run(op().parameters({ endpointPath }), [op().row(nextRef(), 10)]);
		expect(result.error?.message).toMatch(/^Endpoint Path .+ \(row 1\)$/);
		expect(result.error?.description).toBe(
			'Give a path on the service such as /v1/api/payouts: it starts with "/", and has no "." or ".." part, "//", scheme, host, query, "\\" or control characters',
		);
		expect(requests(op())).toEqual({});
	});
});
