/**
 * The source-address allow-list takes IPv4-mapped IPv6 entries and CIDR ranges of both families,
 * and an entry that is not an address stops the activation with a message naming it.
 */
import { callbackBody, trigger, setUpPerFile } from '../harness/triggerRuns';

const s = setUpPerFile();

test('an IPv4-mapped IPv6 entry (::ffff:127.0.0.2) lets that IPv4 caller in', async () => {
	const h = await trigger(s, { allowedIpAddresses: '::ffff:127.0.0.2' });
	const allowed = await h.post(callbackBody('AL-1', 100, 'completed'), {
		localAddress: '127.0.0.2',
	});
	expect(allowed.statusCode).toBe(200);
	expect(allowed.executionStarted).toBe(true);
	expect(allowed.result!.workflowData![0][0].json.verified).toMatchObject({ sourceAddress: true });
	const other = await h.post(callbackBody('AL-2', 100, 'completed'), { localAddress: '127.0.0.3' });
	expect(other.statusCode).toBe(403);
	expect(other.executionStarted).toBe(false);
});

test('CIDR ranges: an IPv4-mapped IPv6 range and an IPv4 one', async () => {
	// ::ffff:127.0.0.4/127 is 127.0.0.4 and 127.0.0.5.
	const h = await trigger(s, { allowedIpAddresses: '::ffff:127.0.0.4/127, 127.0.0.8/31' });
	const answers = [];
	for (const [index, address] of [
		'127.0.0.4',
		'127.0.0.5',
		'127.0.0.6',
		'127.0.0.9',
		'127.0.0.10',
	].entries()) {
		answers.push(
			(await h.post(callbackBody(`AL-3-${index}`, 100, 'completed'), { localAddress: address }))
				.statusCode,
		);
	}
	expect(answers).toEqual([200, 200, 403, 200, 403]);
});

test('a malformed entry fails the activation and names the entry', async () => {
	const h = await trigger(s, {
		allowedIpAddresses: '43.198.4.7, 43.198.4.0/33, gateway.example.com',
	});
	const outcome = await h.lifecycle('checkExists');
	expect(outcome.result).toBeUndefined();
	expect(outcome.error?.message).toBe(
		'Allowed IP Addresses holds entries that are not an IP address or CIDR range: 43.198.4.0/33, gateway.example.com',
	);
	// Were it active anyway, every callback would be refused (fails closed).
	expect((await h.post(callbackBody('AL-4', 100, 'completed'))).statusCode).toBe(403);
});

test('a well-formed list activates', async () => {
	const h = await trigger(s, {
		allowedIpAddresses: '43.198.4.7, ::ffff:18.166.179.109, 10.0.0.0/8, 2001:db8::/32',
	});
	expect(await h.lifecycle('checkExists')).toEqual({ result: true, logs: [] });
});
