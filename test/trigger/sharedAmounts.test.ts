/**
 * The trigger reads amounts as the action nodes do (validation.ts `readAmount`, records.ts
 * `recordAmount` and `sameAmount`): the same texts are amounts, the same ones are not, and an
 * amount that cannot be read is never a match.
 */
import type { IDataObject } from 'n8n-workflow';

import { readCallback } from '../../nodes/shared/callbacks/payload';
import { copyContradiction } from '../../nodes/shared/callbacks/signedCopy';
import { paidTransaction, serviceCallback, setUpPerFile, trigger } from '../harness/triggerRuns';

const s = setUpPerFile();

const read = (data: IDataObject) => {
	const body = { data };
	return readCallback({ headers: {}, body, rawBody: Buffer.from(JSON.stringify(body)) });
};
const callback = (data: IDataObject) => {
	const outcome = read(data);
	if (!outcome.ok) throw new Error(outcome.reason);
	return outcome.callback;
};

describe('a callback amount', () => {
	test.each([
		['1,250.50', 1250.5],
		[' 100 ', 100],
		['PHP 20', 20],
		[100.5, 100.5],
	])('%p is the amount %p', (amount, expected) => {
		expect(callback({ reference_no: 'R', amount, status: 'completed' }).amount).toBe(expected);
	});

	test.each([['-5'], ['1.000,50'], [null], ['1e2'], ['']])('%p is not an amount: 400', (amount) => {
		expect(read({ reference_no: 'R', amount, status: 'completed' })).toEqual({
			ok: false,
			reason: 'amount is missing or not a number',
		});
	});

	test('a total_amount it cannot read is none', () => {
		const data = { reference_no: 'R', amount: 1, status: 'completed', total_amount: 'ten' };
		expect(callback(data).totalAmount).toBeNull();
	});
});

describe('the transaction copy against the signed amount', () => {
	const withCopy = (transaction: IDataObject) =>
		copyContradiction(
			callback({ reference_no: 'R', amount: '1250.50', status: 'completed', transaction }),
		);

	test('the same amount written as spreadsheets write it agrees', () => {
		expect(withCopy({ subtotal_amount: '1,250.50', channel: { code: 'GCASH' } })).toBeUndefined();
	});

	test.each([['1250.51'], ['twelve'], ['1.250,50']])('%p contradicts it', (amount) => {
		expect(withCopy({ amount, channel: 'GCASH' })).toContain('the transaction copy says amount');
	});
});

describe('Confirm With Service: total_amount against the record, to the centavo', () => {
	const post = async (referenceNo: string, total: (recorded: number) => unknown) => {
		const record = await paidTransaction(s.gw, referenceNo, 500);
		const h = await trigger(s, { confirmWithService: true });
		const body = serviceCallback(s.gw, referenceNo, 500, 'completed');
		body.data.total_amount = total(Number(record.total_amount));
		return h.post(body);
	};

	test('the same total written as text agrees', async () => {
		const call = await post('SA-1', (recorded) => `PHP ${recorded.toFixed(2)}`);
		expect(call.statusCode).toBe(200);
	});

	test.each([
		['one centavo off', 'SA-2', (recorded: number) => recorded + 0.01],
		['that it cannot read', 'SA-3', () => 'five hundred'],
	])('a total %s is refused', async (_name, referenceNo, total) => {
		const call = await post(referenceNo, total);
		expect(call.statusCode).toBe(401);
		expect(call.executionStarted).toBe(false);
	});
});
