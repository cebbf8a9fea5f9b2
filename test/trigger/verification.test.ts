/**
 * The trigger's checks, each through n8n's webhook path (WebhookContext with a real request and
 * response): the exact HTTP answer, whether an execution starts, and the logged reason.
 */
import { signCallback } from '../../nodes/shared/validation/signature';
import {
	COLLECTION,
	SECRET,
	callbackBody,
	collectionTransaction,
	trigger,
	setUpPerFile,
} from '../harness/triggerRuns';
import type { WebhookCall } from '../harness/webhookHarness';

const s = setUpPerFile();

/** The single warn line the refusal logged. */
function refusalLog(call: WebhookCall): string {
	const lines = call.logs.filter(
		(line) => line.level === 'warn' && line.message.includes('refused'),
	);
	expect(lines).toHaveLength(1);
	return lines[0].message;
}

function expectNoExecution(call: WebhookCall): void {
	expect(call.executionStarted).toBe(false);
	expect(call.result?.workflowData).toBeUndefined();
	expect(call.run).toBeUndefined();
	expect(call.error).toBeUndefined();
}

describe('a valid signed callback', () => {
	test('answers 200, starts one execution and emits the normalised item plus the raw body', async () => {
		const h = await trigger(s);
		const body = callbackBody('INV-1001', 1250.5, 'completed');
		const before = Date.now();
		const call = await h.post(body);
		const after = Date.now();

		expect(call.statusCode).toBe(200);
		expect(call.body).toEqual({ message: 'Workflow was started' });
		expect(call.executionStarted).toBe(true);
		expect(call.error).toBeUndefined();
		expect(call.run?.data.resultData.error).toBeUndefined();
		expect(call.result?.workflowData).toHaveLength(1);
		expect(call.result?.workflowData?.[0]).toHaveLength(1);
		const json = call.result!.workflowData![0][0].json;
		expect(json).toEqual({
			interface: 'collection',
			reference_no: 'INV-1001',
			status: 'completed',
			statusConfirmed: false,
			amount: 1250.5,
			total_amount: 1260.5,
			channel: 'GCASH_TRN',
			verified: {
				signature: true,
				sourceAddress: null,
				confirmedWithService: null,
			},
			sourceAddress: '127.0.0.1',
			receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
			transaction: collectionTransaction('INV-1001', 1250.5, 'completed'),
			raw: body,
		});
		const received = Date.parse(json.receivedAt as string);
		expect(received).toBeGreaterThanOrEqual(before);
		expect(received).toBeLessThanOrEqual(after);
		// The node after the trigger ran on exactly that item.
		expect(call.nextStepItems).toEqual([{ json, pairedItem: { item: 0 } }]);
	});

	test('a flat body (no "data" wrapper) is accepted as well', async () => {
		const h = await trigger(s);
		const flat = callbackBody('INV-1002', 100, 'cancelled').data;
		const call = await h.post(flat);
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
		expect(call.result!.workflowData![0][0].json).toMatchObject({
			interface: 'collection',
			reference_no: 'INV-1002',
			status: 'cancelled',
			amount: 100,
			raw: flat,
		});
	});

	test('the amount is verified exactly as written in the JSON text (100.50 stays 100.50)', async () => {
		const h = await trigger(s);
		// JSON.parse turns 100.50 into 100.5: the service signed the text "100.50".
		const signature = signCallback(SECRET, '100.50', 'INV-1003');
		expect(signature).not.toBe(signCallback(SECRET, 100.5, 'INV-1003'));
		const text = `{"data":{"reference_no":"INV-1003","amount":100.50,"status":"completed","signature":"${signature}","total_amount":110.50}}`;
		const call = await h.post(text);
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
		expect(call.result!.workflowData![0][0].json).toMatchObject({
			amount: 100.5,
			total_amount: 110.5,
		});
	});

	test('an amount sent as a JSON string is verified as that string', async () => {
		const h = await trigger(s);
		const body = callbackBody('INV-1004', 75, 'completed');
		body.data.amount = '75.00';
		body.data.signature = signCallback(SECRET, '75.00', 'INV-1004');
		const call = await h.post(body);
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
		expect(call.result!.workflowData![0][0].json).toMatchObject({ amount: 75 });
	});
});

describe('forged or broken signatures get 401 and start nothing', () => {
	test('wrong signature (signed with another secret)', async () => {
		const h = await trigger(s);
		const call = await h.post(
			callbackBody('INV-2001', 100, 'completed', { secret: 'not-the-signing-secret' }),
		);
		expect(call.statusCode).toBe(401);
		expect(call.body).toEqual({ message: 'Unauthorized' });
		expectNoExecution(call);
		expect(call.result).toEqual({ noWebhookResponse: true });
		expect(refusalLog(call)).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 401): the signature does not match amount@reference_no signed with the Signing Secret of the Payment Collection credential',
		);
		// The reference of a request that failed verification is not logged.
		expect(call.logs.find((line) => line.message.includes('refused'))?.metadata).toBe(
			JSON.stringify({
				node: 'Payment Gateway Trigger',
				workflowId: h.workflowId,
				sourceAddress: '127.0.0.1',
			}),
		);
	});

	test('missing signature', async () => {
		const h = await trigger(s);
		const call = await h.post(callbackBody('INV-2002', 100, 'completed', { signature: null }));
		expect(call.statusCode).toBe(401);
		expect(call.body).toEqual({ message: 'Unauthorized' });
		expectNoExecution(call);
		expect(refusalLog(call)).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 401): the callback carries no signature',
		);
	});

	test('a signature that is not hex is refused, not thrown on', async () => {
		const h = await trigger(s);
		const call = await h.post(
			callbackBody('INV-2003', 100, 'completed', { signature: 'zz-not-hex' }),
		);
		expect(call.statusCode).toBe(401);
		expectNoExecution(call);
	});

	test('tampered amount (signed for 100, body says 10000)', async () => {
		const h = await trigger(s);
		const call = await h.post(callbackBody('INV-2004', 100, 'completed', { bodyAmount: 10000 }));
		expect(call.statusCode).toBe(401);
		expectNoExecution(call);
		expect(refusalLog(call)).toContain('the signature does not match');
	});

	test('tampered amount hidden behind a duplicate "data" key (JSON.parse keeps the last)', async () => {
		const h = await trigger(s);
		const genuine = JSON.stringify(callbackBody('INV-2006', 100, 'completed').data);
		const signature = signCallback(SECRET, 100, 'INV-2006');
		const text = `{"data":${genuine},"data":{"reference_no":"INV-2006","amount":5000,"status":"completed","signature":"${signature}"}}`;
		const call = await h.post(text);
		expect(call.statusCode).toBe(401);
		expectNoExecution(call);
	});

	test('tampered reference (a valid signature of another reference)', async () => {
		const h = await trigger(s);
		const body = callbackBody('INV-2005', 100, 'completed');
		body.data.reference_no = 'INV-2005-X';
		const call = await h.post(body);
		expect(call.statusCode).toBe(401);
		expectNoExecution(call);
	});
});

describe('source address allow-list', () => {
	test('a caller not on the list gets 403 and starts nothing', async () => {
		const h = await trigger(s, { allowedIpAddresses: '43.198.4.7, 18.166.179.109' });
		const call = await h.post(callbackBody('INV-3001', 100, 'completed'));
		expect(call.statusCode).toBe(403);
		expect(call.body).toEqual({ message: 'Forbidden' });
		expectNoExecution(call);
		expect(refusalLog(call)).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 403): the source address is not in Allowed IP Addresses',
		);
	});

	test('a caller on the list is accepted and the check is reported', async () => {
		const h = await trigger(s, { allowedIpAddresses: '43.198.4.7,127.0.0.2' });
		const call = await h.post(callbackBody('INV-3002', 100, 'completed'), {
			localAddress: '127.0.0.2',
		});
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
		expect(call.result!.workflowData![0][0].json).toMatchObject({
			sourceAddress: '127.0.0.2',
			verified: { signature: true, sourceAddress: true, confirmedWithService: null },
		});
	});

	test('an IPv4 range (CIDR) matches', async () => {
		const h = await trigger(s, { allowedIpAddresses: '127.0.0.0/30' });
		const inside = await h.post(callbackBody('INV-3003', 100, 'completed'), {
			localAddress: '127.0.0.3',
		});
		expect(inside.statusCode).toBe(200);
		const outside = await h.post(callbackBody('INV-3004', 100, 'completed'), {
			localAddress: '127.0.0.4',
		});
		expect(outside.statusCode).toBe(403);
		expectNoExecution(outside);
	});

	test('X-Forwarded-For cannot fake the address unless n8n trusts a proxy (N8N_PROXY_HOPS)', async () => {
		const direct = await trigger(s, { allowedIpAddresses: '18.166.179.109' });
		const spoofed = await direct.post(callbackBody('INV-3005', 100, 'completed'), {
			headers: { 'x-forwarded-for': '18.166.179.109' },
		});
		expect(spoofed.statusCode).toBe(403);
		expectNoExecution(spoofed);

		const behindProxy = await trigger(
			s,
			{ allowedIpAddresses: '18.166.179.109' },
			{ proxyHops: 1 },
		);
		const forwarded = await behindProxy.post(callbackBody('INV-3006', 100, 'completed'), {
			headers: { 'x-forwarded-for': '18.166.179.109' },
		});
		expect(forwarded.statusCode).toBe(200);
		expect(forwarded.result!.workflowData![0][0].json.sourceAddress).toBe('18.166.179.109');
	});

	test('an entry that is not an address refuses every callback (fails closed) and says which', async () => {
		const h = await trigger(s, { allowedIpAddresses: '127.0.0.1, sandbox.example.com' });
		const call = await h.post(callbackBody('INV-3007', 100, 'completed'));
		expect(call.statusCode).toBe(403);
		expectNoExecution(call);
		expect(refusalLog(call)).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 403): Allowed IP Addresses holds an entry that is not an IP address or CIDR range: sandbox.example.com',
		);
	});

	test('the address is checked before the body: a stranger learns nothing about the body rules', async () => {
		const h = await trigger(s, { allowedIpAddresses: '43.198.4.7' });
		const call = await h.post('not json', { contentType: 'text/plain' });
		expect(call.statusCode).toBe(403);
		expectNoExecution(call);
	});
});

describe('bad bodies get 400 and start nothing', () => {
	test('malformed JSON sent as text/plain reaches the node and gets 400', async () => {
		const h = await trigger(s);
		const call = await h.post('{"data": {"reference_no": "INV-4001", "amount": 1', {
			contentType: 'text/plain',
		});
		expect(call.statusCode).toBe(400);
		expect(call.body).toEqual({ message: 'Bad request: the body is not valid JSON' });
		expectNoExecution(call);
		expect(refusalLog(call)).toBe(
			'Payment Gateway Trigger refused a callback (HTTP 400): the body is not valid JSON',
		);
	});

	test('malformed JSON sent as application/json is refused by n8n itself (422) before the node runs', async () => {
		const h = await trigger(s);
		const call = await h.post('{"data": ', { contentType: 'application/json' });
		expect(call.statusCode).toBe(422);
		expect(call.result).toBeUndefined();
		expect(call.executionStarted).toBe(false);
	});

	test('JSON without a content type is still read from the raw body', async () => {
		const h = await trigger(s);
		const call = await h.post(callbackBody('INV-4002', 100, 'completed'), { contentType: null });
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
	});

	test.each([
		['an empty body', '', 'the body is empty'],
		['an empty object', '{}', 'the body is empty'],
		['a JSON array', '[1,2]', 'the body is not a JSON object'],
		[
			'no reference_no',
			JSON.stringify({ data: { amount: 100, status: 'completed', signature: 'ab' } }),
			'reference_no is missing',
		],
		[
			'no amount',
			JSON.stringify({ data: { reference_no: 'INV-4003', status: 'completed', signature: 'ab' } }),
			'amount is missing or not a number',
		],
		[
			'an amount that is not a number',
			JSON.stringify({ data: { reference_no: 'INV-4004', amount: 'ten', status: 'completed' } }),
			'amount is missing or not a number',
		],
		[
			'an unknown status',
			JSON.stringify({ data: { reference_no: 'INV-4005', amount: 1, status: 'success' } }),
			'status "success" is not one of pending, completed, cancelled',
		],
	])('%s', async (_name, text, reason) => {
		const h = await trigger(s);
		const call = await h.post(text);
		expect(call.statusCode).toBe(400);
		expect(call.body).toEqual({ message: `Bad request: ${reason}` });
		expectNoExecution(call);
		expect(refusalLog(call)).toBe(
			`Payment Gateway Trigger refused a callback (HTTP 400): ${reason}`,
		);
	});

	test('a body over 1 MB is refused', async () => {
		const h = await trigger(s);
		const body = callbackBody('INV-4006', 100, 'completed');
		body.data.padding = 'x'.repeat(1024 * 1024);
		const call = await h.post(body);
		expect(call.statusCode).toBe(400);
		expect(call.body).toEqual({ message: 'Bad request: the body is larger than 1048576 bytes' });
		expectNoExecution(call);
	});
});

describe('no signing secret configured, unsigned callbacks accepted (the unsafe opt-in)', () => {
	test('callbacks are accepted unverified, marked so in the item and warned about in the log', async () => {
		const h = await trigger(
			s,
			{ acceptUnsignedCallbacks: true },
			{ credentials: { [COLLECTION]: s.unsignedCollection } },
		);
		const call = await h.post(callbackBody('INV-5001', 100, 'completed', { signature: null }));
		expect(call.statusCode).toBe(200);
		expect(call.executionStarted).toBe(true);
		expect(call.result!.workflowData![0][0].json.verified).toEqual({
			signature: null,
			sourceAddress: null,
			confirmedWithService: null,
		});
		expect(call.result!.workflowData![0][0].json.statusConfirmed).toBe(false);
		expect(call.logs.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
			'Payment Gateway Trigger accepted a callback WITHOUT verification: Accept Unsigned Callbacks (Unsafe) is on',
		]);
	});
});

describe('misconfiguration', () => {
	test('a missing credential makes webhook() throw, which n8n answers with 500', async () => {
		const h = await trigger(
			s,
			{ interface: 'both' },
			{ credentials: { [COLLECTION]: s.collection } },
		);
		const call = await h.post(callbackBody('INV-6001', 100, 'completed'));
		expect(call.statusCode).toBe(500);
		expect(call.executionStarted).toBe(false);
		expect(call.error?.message).toBe(
			'Select a Payment Gateway Disbursement API credential: this trigger listens to disbursement callbacks and verifies them with it',
		);
	});
});
