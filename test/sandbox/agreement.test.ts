/**
 * The node and the sandbox are written apart (the sandbox imports nothing from nodes/), so a wrong
 * path or signature in either shows up here: every endpoint of the node's table is a route the
 * sandbox answers with that interface's token, and the node's signature check accepts the
 * sandbox's signed callbacks and refuses any change to them.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import * as path from 'path';
import { ENDPOINTS, resolvePath, type Endpoint } from '../../nodes/shared/transport/endpoints';
import { verifySignature } from '../../nodes/shared/validation/signature';
import { SANDBOX_CREDENTIALS, startSandboxGateway, type SandboxGateway } from '../../sandbox';
import { bankPayoutBody, call, startReceiver, txBody } from '../harness/sandboxCalls';

const SANDBOX_DIR = path.resolve(__dirname, '../../sandbox');
const SECRET = SANDBOX_CREDENTIALS.signingSecret;
/** Values for the `:name` placeholders of the node's paths: fixtures the sandbox knows. */
const PATH_PARAMS = { code: 'AUTH-1001' };

let gw: SandboxGateway;
beforeAll(async () => {
	gw = await startSandboxGateway({ callbackRetries: 0 });
});
afterAll(() => gw.close());

/** A token through the node's own token endpoint, sent the way the interface document says. */
async function tokenFor(api: Endpoint['api']): Promise<{ status: number; token?: string }> {
	const res =
		api === 'collection'
			? await call(
					gw,
					ENDPOINTS.collectionToken.method,
					withCredentialsQuery(ENDPOINTS.collectionToken.path),
					{
						headers: { 'X-Server': '1' },
					},
				)
			: await call(gw, ENDPOINTS.disbursementToken.method, ENDPOINTS.disbursementToken.path, {
					body: SANDBOX_CREDENTIALS.disbursement,
				});
	return { status: res.status, token: res.body?.data?.token };
}

function withCredentialsQuery(tokenPath: string): string {
	const { username, password } = SANDBOX_CREDENTIALS.collection;
	return `${tokenPath}?${new URLSearchParams({ username, password }).toString()}`;
}

describe("every endpoint of the node's table is a route of the sandbox", () => {
	const tokenEndpoints: readonly Endpoint[] = [
		ENDPOINTS.collectionToken,
		ENDPOINTS.disbursementToken,
	];

	test('both token endpoints issue a token for the sandbox credentials', async () => {
		for (const api of ['collection', 'disbursement'] as const) {
			const { status, token } = await tokenFor(api);
			expect({ api, status }).toEqual({ api, status: 200 });
			expect(token).toEqual(expect.any(String));
		}
	});

	test('each other endpoint answers its interface token with neither 404, 405 nor 401', async () => {
		const tokens = {
			collection: (await tokenFor('collection')).token,
			disbursement: (await tokenFor('disbursement')).token,
		};
		const answers: string[] = [];
		const disagreements: string[] = [];
		for (const [name, endpoint] of Object.entries(ENDPOINTS) as Array<[string, Endpoint]>) {
			if (tokenEndpoints.includes(endpoint)) continue;
			const target = resolvePath(endpoint.path, PATH_PARAMS);
			const res = await call(gw, endpoint.method, target, {
				token: tokens[endpoint.api],
				body: endpoint.method === 'POST' ? {} : undefined,
			});
			answers.push(`${name} ${endpoint.method} ${target} -> ${res.status}`);
			if ([401, 404, 405].includes(res.status))
				disagreements.push(`${name}: ${res.status} ${res.text}`);
		}
		expect(disagreements).toEqual([]);
		expect(answers).toHaveLength(Object.keys(ENDPOINTS).length - tokenEndpoints.length);
	});

	test('a path outside the table is refused, so the check above can fail', async () => {
		const { token } = await tokenFor('disbursement');
		const res = await call(gw, 'POST', `${ENDPOINTS.createPayout.path}-typo`, { token, body: {} });
		expect(res.status).toBe(404);
		const wrongMethod = await call(gw, 'GET', ENDPOINTS.createPayout.path, { token });
		expect(wrongMethod.status).toBe(405);
		const otherInterface = await call(gw, ENDPOINTS.getBanks.method, ENDPOINTS.getBanks.path, {
			token: (await tokenFor('collection')).token,
		});
		expect(otherInterface.status).toBe(401);
	});
});

describe("the node's signature check and the sandbox's signed callbacks agree", () => {
	/** The amount text as it stands in the body: what the service signs (docs/endpoints.md, Callbacks). */
	function amountText(raw: string): string {
		const match = /"data":\{"reference_no":"[^"]*","amount":([^,}]+)/.exec(raw);
		if (!match) throw new Error(`no amount in ${raw}`);
		return match[1];
	}

	test.each([
		['a collection transaction', 'AGR-COL-1', 1500.75, 'completed'],
		['a collection transaction, whole pesos', 'AGR-COL-2', 100, 'cancelled'],
		['a payout', 'AGR-PAY-1', 19.99, 'completed'],
		['a payout, one decimal', 'AGR-PAY-2', 1234.5, 'cancelled'],
	] as const)('%s (%s, %d, %s)', async (_label, referenceNo, amount, status) => {
		const receiver = await startReceiver();
		try {
			const collection = referenceNo.startsWith('AGR-COL');
			const { token } = await tokenFor(collection ? 'collection' : 'disbursement');
			const create = collection ? ENDPOINTS.generateTransaction : ENDPOINTS.createPayout;
			const body = (collection ? txBody : bankPayoutBody)(referenceNo, {
				amount,
				callback_webhook_url: receiver.url,
			});
			expect((await call(gw, create.method, create.path, { token, body })).status).toBe(200);
			await gw.settle(referenceNo, status);
			await receiver.waitFor(1);

			const [sent] = gw.callbacks().filter((c) => c.referenceNo === referenceNo);
			const raw = JSON.stringify(sent.body);
			const data = receiver.received[0].body.data;
			expect(data).toMatchObject({ reference_no: referenceNo, amount, status });
			const signedAmount = amountText(raw);
			expect(Number(signedAmount)).toBe(amount);

			expect(verifySignature(SECRET, signedAmount, referenceNo, data.signature)).toBe(true);
			expect(verifySignature(SECRET, data.amount, referenceNo, data.signature)).toBe(true);

			const lastDigit = data.signature.at(-1) === '0' ? '1' : '0';
			const changedSignature = `${data.signature.slice(0, -1)}${lastDigit}`;
			expect(verifySignature(SECRET, signedAmount, referenceNo, changedSignature)).toBe(false);
			expect(verifySignature(SECRET, String(amount + 0.01), referenceNo, data.signature)).toBe(
				false,
			);
			expect(verifySignature(SECRET, signedAmount, `${referenceNo}X`, data.signature)).toBe(false);
			expect(verifySignature(`${SECRET}x`, signedAmount, referenceNo, data.signature)).toBe(false);
		} finally {
			await receiver.close();
		}
	});
});

describe('the sandbox stands on its own', () => {
	function sourceFiles(dir: string): string[] {
		return readdirSync(dir).flatMap((entry) => {
			const full = path.join(dir, entry);
			if (statSync(full).isDirectory()) return sourceFiles(full);
			return full.endsWith('.ts') ? [full] : [];
		});
	}

	test('no file under sandbox/ imports anything outside sandbox/ but Node built-ins', () => {
		const files = sourceFiles(SANDBOX_DIR);
		expect(files.length).toBeGreaterThan(10);
		const outside: string[] = [];
		for (const file of files) {
			const text = readFileSync(file, 'utf8');
			for (const match of text.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)) {
				const specifier = match[1];
				const inside =
					specifier.startsWith('.') &&
					path.resolve(path.dirname(file), specifier).startsWith(SANDBOX_DIR + path.sep);
				const builtin = ['http', 'https', 'net', 'crypto', 'fs', 'path'].includes(specifier);
				if (!inside && !builtin) outside.push(`${path.relative(SANDBOX_DIR, file)}: ${specifier}`);
			}
		}
		expect(outside).toEqual([]);
	});
});
