/**
 * The Simplify option on Generate and Transaction Get: the few fields people use, taken from the
 * sandbox gateway's real answers; off by default in a workflow, on by default for an AI agent.
 */
import type { IDataObject } from 'n8n-workflow';

import { PaymentCollection } from '../../nodes/PaymentCollection/PaymentCollection.node';
import { simplifyRecord } from '../../nodes/shared/runner/simplifyOutput';
import { runNode } from '../harness';
import { gatewayPerSuite, generateParameters, run, setUp } from '../harness/collectionRuns';

const s = gatewayPerSuite(setUp);
let counter = 0;
const ref = () => `SIMPLE-${++counter}`;

/** The node as n8n offers it to an AI agent: the same node under the type name `<name>Tool`. */
function asTool(): PaymentCollection {
	const node = new PaymentCollection();
	node.description = { ...node.description, name: `${node.description.name}Tool` };
	return node;
}

test('simplifyRecord keeps reference, status, amount, channel code, link, expiry and replayed of a generated transaction', async () => {
	const reference = ref();
	const full = await run(s, generateParameters(), {
		items: [{ ref: reference, amount: '1,250.50' }],
	});
	const record = full.outputs[0][0].json;
	expect(Object.keys(record).length).toBeGreaterThan(15);
	expect(simplifyRecord(record)).toEqual({
		reference_no: reference,
		status: 'pending',
		amount: 1250.5,
		channel: 'GCASH_TRN',
		web_payment_url: `${s.gw.url}/pay/${reference}`,
		expires_at: record.expires_at,
		replayed: false,
	});
	expect(record.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
});

test('simplifyRecord leaves out what a record lacks and never adds empty fields', () => {
	expect(
		simplifyRecord({
			reference_no: 'P-1',
			status: 'completed',
			channel: 'GCASH',
			fields: { mobile_number: '09171234567' },
		}),
	).toEqual({
		reference_no: 'P-1',
		status: 'completed',
		channel: 'GCASH',
	});
	expect(simplifyRecord({ id: 42, reference_no: 'P-2', amount: 10, total_amount: 20 })).toEqual({
		id: 42,
		reference_no: 'P-2',
		amount: 10,
	});
});

describe('Generate', () => {
	test('Simplify on: each item is the short record, in input order, paired with its item', async () => {
		const refs = [ref(), ref()];
		const result = await run(s, generateParameters({ simplify: true }), {
			items: [
				{ ref: refs[0], amount: 100 },
				{ ref: refs[1], amount: 200, channel: 'BAYAD' },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const out = result.outputs[0].map((item) => item.json);
		expect(out.map((json) => Object.keys(json))).toEqual([
			['reference_no', 'status', 'amount', 'channel', 'web_payment_url', 'expires_at', 'replayed'],
			['reference_no', 'status', 'amount', 'channel', 'web_payment_url', 'expires_at', 'replayed'],
		]);
		expect(out.map((json) => [json.reference_no, json.amount, json.channel])).toEqual([
			[refs[0], 100, 'GCASH_TRN'],
			[refs[1], 200, 'BAYAD'],
		]);
		expect(out[1].web_payment_url).toBe(
			(s.gw.getTransaction(refs[1]) as IDataObject).web_payment_url,
		);
	});

	test('Simplify off (the default in a workflow): the full record', async () => {
		const reference = ref();
		const result = await run(s, generateParameters(), { items: [{ ref: reference, amount: 100 }] });
		expect(result.outputs[0][0].json).toEqual({
			...s.gw.getTransaction(reference),
			replayed: false,
		});
	});

	test('as an AI tool the short record is the default, and Simplify off still gives the full record', async () => {
		const [short, full] = [ref(), ref()];
		const tool = await runNode({
			type: asTool(),
			store: s.store,
			// As a tool, Generate refuses without its cap (test/shared/runner/toolMode.engine.test.ts).
			parameters: generateParameters({ options: { maxTotalPerRun: 1000 } }),
			items: [{ ref: short, amount: 100 }],
		});
		expect(tool.error).toBeUndefined();
		expect(tool.outputs[0][0].json).toEqual(
			simplifyRecord({ ...s.gw.getTransaction(short), replayed: false }),
		);
		const toolOff = await runNode({
			type: asTool(),
			store: s.store,
			parameters: generateParameters({ simplify: false, options: { maxTotalPerRun: 1000 } }),
			items: [{ ref: full, amount: 100 }],
		});
		expect(toolOff.outputs[0][0].json).toEqual({ ...s.gw.getTransaction(full), replayed: false });
	});

	test('failed items are left as errors, not cut down', async () => {
		const good = ref();
		const result = await run(s, generateParameters({ simplify: true }), {
			items: [
				{ ref: good, amount: 100 },
				{ ref: ref(), amount: 'lots' },
			],
			onError: 'continueRegularOutput',
		});
		const out = result.outputs[0].map((item) => item.json);
		expect(out[0]).toMatchObject({ reference_no: good, status: 'pending' });
		expect(out[1]).toMatchObject({
			error: expect.stringContaining('Amount "lots" is not a number'),
			itemIndex: 1,
		});
	});

	test('a Simplify expression is read for each item', async () => {
		const refs = [ref(), ref()];
		const result = await run(s, generateParameters({ simplify: '={{ $json.short }}' }), {
			items: [
				{ ref: refs[0], amount: 100, short: true },
				{ ref: refs[1], amount: 100, short: false },
			],
		});
		const out = result.outputs[0].map((item) => item.json as IDataObject);
		expect(out[0]).toEqual(simplifyRecord(out[0]));
		expect(out[1]).toEqual({ ...s.gw.getTransaction(refs[1]), replayed: false });
	});
});

test('Transaction Get with Simplify: the short record with the current status', async () => {
	const reference = ref();
	await run(s, generateParameters(), { items: [{ ref: reference, amount: 300 }] });
	await s.gw.settle(reference, 'completed');
	const result = await run(s, {
		resource: 'transaction',
		operation: 'get',
		referenceNo: reference,
		simplify: true,
	});
	expect(result.error).toBeUndefined();
	const transaction = s.gw.getTransaction(reference) as IDataObject;
	expect(result.outputs[0][0].json).toEqual({
		reference_no: reference,
		status: 'completed',
		amount: 300,
		channel: 'GCASH_TRN',
		web_payment_url: transaction.web_payment_url,
		expires_at: transaction.expires_at,
	});
});
