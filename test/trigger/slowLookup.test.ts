/**
 * Confirm With Service against a look-up that never finishes: the trigger answers 503 within its
 * stated bound (a 10-second deadline per look-up, connect to last byte), so the sender retries
 * instead of giving up on a connection the trigger holds open.
 */
import { paidTransaction, serviceCallback, trigger, setUpPerFile } from '../harness/triggerRuns';

const s = setUpPerFile();

test('a look-up trickled a byte at a time: 503 within 10 seconds plus slack, and a retry is accepted', async () => {
	await paidTransaction(s.gw, 'SLOW-CF-1', 150);
	const h = await trigger(s, { confirmWithService: true });
	s.gw.faults.add({
		method: 'GET',
		path: '/v1/biller/transactions',
		mode: 'trickle',
		intervalMs: 500,
		forever: true,
		times: 1,
	});
	const started = Date.now();
	const slow = await h.post(serviceCallback(s.gw, 'SLOW-CF-1', 150, 'completed'));
	expect(Date.now() - started).toBeLessThan(10_000 + 3_000);
	expect(slow.statusCode).toBe(503);
	expect(slow.executionStarted).toBe(false);
	expect(slow.logs.find((line) => line.level === 'warn')?.message).toBe(
		'Payment Gateway Trigger refused a callback (HTTP 503): the service could not be asked: the Payment Collection service did not answer (DEADLINE_PASSED)',
	);
	const retried = await h.post(serviceCallback(s.gw, 'SLOW-CF-1', 150, 'completed'));
	expect(retried.statusCode).toBe(200);
}, 60_000);
