/** Transaction > Get: look-up by reference_no, and what happens when nothing matches. */
import type { INodeParameters } from 'n8n-workflow';

import {
	expectErrorItem,
	gatewayPerSuite,
	generateParameters,
	run,
	setUp,
} from '../harness/collectionRuns';

const s = gatewayPerSuite(setUp);
const refs = ['GET-1', 'GET-2'];
beforeAll(async () => {
	await run(s, generateParameters(), {
		items: refs.map((ref, index) => ({ ref, amount: 100 * (index + 1) })),
	});
});

const get = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'transaction',
	operation: 'get',
	referenceNo: '={{ $json.ref }}',
	options,
});
const NOT_FOUND_HINT =
	'Check the reference (it is case-sensitive) and that the credential belongs to the account that created the transaction, or set Options > On Not Found to "Output Nothing" to carry on without an item';

it('outputs the transaction of each reference, as the service holds it, paired with its item', async () => {
	const result = await run(s, get(), { items: [{ ref: refs[1] }, { ref: refs[0] }] });
	expect(result.outputs).toEqual([
		[
			{ json: s.gw.getTransaction(refs[1]), pairedItem: { item: 0 } },
			{ json: s.gw.getTransaction(refs[0]), pairedItem: { item: 1 } },
		],
	]);
	expect(result.outputs[0][0].json).toMatchObject({
		reference_no: refs[1],
		subtotal_amount: 200,
		status: 'pending',
	});
	expect(s.gw.lastRequest('/v1/biller/transactions')?.query).toEqual({ reference_no: refs[0] });
});

it('shows the final status once the payment is settled', async () => {
	await s.gw.settle(refs[0], 'completed');
	const result = await run(s, get(), { items: [{ ref: refs[0] }] });
	expect(result.outputs[0][0].json.status).toBe('completed');
	expect(result.outputs[0][0].json).toEqual(s.gw.getTransaction(refs[0]));
});

it('fails with a clear "not found" by default', async () => {
	const result = await run(s, get(), { items: [{ ref: 'NOPE-1' }] });
	expect(result.outputs).toEqual([]);
	expect(result.error?.message).toBe('No transaction has reference_no "NOPE-1" (row 1)');
	expect(result.error?.description).toBe(NOT_FOUND_HINT);
	expect(result.error?.context?.itemIndex).toBe(0);
});

it('with continue-on-fail, "not found" becomes that item\'s error item', async () => {
	const result = await run(s, get(), {
		items: [{ ref: refs[1] }, { ref: 'NOPE-2' }],
		onError: 'continueRegularOutput',
	});
	expect(result.outputs[0]).toHaveLength(2);
	expect(result.outputs[0][0]).toEqual({
		json: s.gw.getTransaction(refs[1]),
		pairedItem: { item: 0 },
	});
	expectErrorItem(result.outputs[0][1], 1, {
		message: 'No transaction has reference_no "NOPE-2" (row 2)',
		description: NOT_FOUND_HINT,
	});
});

it('On Not Found: Output Nothing drops only the missing references', async () => {
	const result = await run(s, get({ onNotFound: 'outputNothing' }), {
		items: [{ ref: refs[0] }, { ref: 'NOPE-3' }, { ref: refs[1] }],
	});
	expect(result.error).toBeUndefined();
	expect(result.outputs).toEqual([
		[
			{ json: s.gw.getTransaction(refs[0]), pairedItem: { item: 0 } },
			{ json: s.gw.getTransaction(refs[1]), pairedItem: { item: 2 } },
		],
	]);
});

it('an empty reference is an input error and sends nothing', async () => {
	const before = s.gw.stats().requestsByPath['GET /v1/biller/transactions'] ?? 0;
	const result = await run(s, get(), { items: [{ ref: '  ' }], onError: 'continueRegularOutput' });
	expectErrorItem(result.outputs[0][0], 0, { message: 'Reference No is required (row 1)' });
	expect(s.gw.stats().requestsByPath['GET /v1/biller/transactions'] ?? 0).toBe(before);
});
