/** Simplify on Payout Create and Payout Get, against the sandbox gateway's real payouts. */
import { Disbursement } from '../../nodes/Disbursement/Disbursement.node';
import { simplifyRecord } from '../../nodes/shared/runner/simplifyOutput';
import { runNode } from '../harness';
import {
	bankRow,
	bankTransferParameters,
	eWalletParameters,
	gatewayPerSuite,
	jsonOf,
	run,
	setUp,
} from '../harness/disbursementRuns';

const s = gatewayPerSuite(setUp);

test('Payout Create with Simplify: reference_no, status, amount, channel and replayed, on a first run and a rerun', async () => {
	const items = [
		bankRow('SIMPLE-P-1', { amount: '2,500.75' }),
		bankRow('SIMPLE-P-2', { channel: 'PESONET' }),
	];
	const first = await run(s, bankTransferParameters({ simplify: true }), { items });
	expect(first.error).toBeUndefined();
	expect(jsonOf(first)).toEqual([
		{
			reference_no: 'SIMPLE-P-1',
			status: 'pending',
			amount: 2500.75,
			channel: 'INSTAPAY',
			replayed: false,
		},
		{
			reference_no: 'SIMPLE-P-2',
			status: 'pending',
			amount: 1500,
			channel: 'PESONET',
			replayed: false,
		},
	]);
	// The full record the service answered is much larger: fields, fee, total, created_at...
	const full = s.gw.getPayout('SIMPLE-P-1')!;
	expect(Object.keys(full)).toEqual(
		expect.arrayContaining(['fields', 'fee', 'total_amount', 'created_at']),
	);
	const again = await run(s, bankTransferParameters({ simplify: true }), { items });
	expect(jsonOf(again).map((payout) => payout.replayed)).toEqual([true, true]);
});

test('Payout Get with Simplify: the current status; without it, the full payout', async () => {
	await run(s, eWalletParameters(), {
		items: [{ ref: 'SIMPLE-P-3', amount: 99.5, mobile: '09171234567' }],
	});
	await s.gw.settle('SIMPLE-P-3', 'completed');
	const get = { resource: 'payout', operation: 'get', referenceNo: 'SIMPLE-P-3' };
	const short = await run(s, { ...get, simplify: true });
	expect(jsonOf(short)).toEqual([
		{ reference_no: 'SIMPLE-P-3', status: 'completed', amount: 99.5, channel: 'GCASH' },
	]);
	const full = await run(s, get);
	expect(jsonOf(full)).toEqual([s.gw.getPayout('SIMPLE-P-3')]);
	expect(simplifyRecord(jsonOf(full)[0])).toEqual(jsonOf(short)[0]);
});

test('as an AI tool Payout Create answers with the short record by default', async () => {
	const tool = new Disbursement();
	tool.description = { ...tool.description, name: `${tool.description.name}Tool` };
	const result = await runNode({
		type: tool,
		store: s.store,
		// As a tool, Create refuses without its cap (test/shared/runner/toolMode.engine.test.ts).
		parameters: eWalletParameters({ options: { maxAmountPerPayout: 100 } }),
		items: [{ ref: 'SIMPLE-P-4', amount: 10, mobile: '09171234567' }],
	});
	expect(result.error).toBeUndefined();
	expect(jsonOf(result)).toEqual([
		{
			reference_no: 'SIMPLE-P-4',
			status: 'pending',
			amount: 10,
			channel: 'GCASH',
			replayed: false,
		},
	]);
});

test('other operations are never simplified, whatever the parameter holds', async () => {
	const banks = await run(s, {
		resource: 'bank',
		operation: 'getMany',
		returnAll: true,
		simplify: true,
	});
	expect(jsonOf(banks)[0]).toEqual({ code: expect.any(String), name: expect.any(String) });
});
