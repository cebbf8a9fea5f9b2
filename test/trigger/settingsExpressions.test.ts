/**
 * A parameter set by an expression can yield anything. A setting the trigger cannot read is an
 * error (activation fails; a callback is answered 500, so the sender retries), never a guess:
 * the text "false" must not switch on Accept Unsigned Callbacks.
 */
import type { INodeParameters } from 'n8n-workflow';

import { COLLECTION, callbackBody, trigger, setUpPerFile } from '../harness/triggerRuns';

const s = setUpPerFile();

describe('an unreadable setting: 500 for each callback, and activation fails, naming it', () => {
	test.each<[string, INodeParameters, string]>([
		[
			'Accept Unsigned Callbacks as the text "false"',
			{ acceptUnsignedCallbacks: '={{ "false" }}' },
			'Accept Unsigned Callbacks (Unsafe) must be true or false, not text: set it without an expression',
		],
		[
			'Confirm With Service as the text "false"',
			{ confirmWithService: '={{ "false" }}' },
			'Confirm With Service must be true or false, not text: set it without an expression',
		],
		[
			'Statuses as the text "completed"',
			{ statuses: '={{ "completed" }}' },
			'Statuses must be a list of pending, completed or cancelled: set it without an expression',
		],
		[
			'Statuses holding an unknown status',
			{ statuses: '={{ ["completed", "paid"] }}' },
			'Statuses must be a list of pending, completed or cancelled: set it without an expression',
		],
		[
			'Interface as "Both"',
			{ interface: '={{ "Both" }}' },
			'Interface must be collection, disbursement or both: set it without an expression',
		],
		[
			'Allowed IP Addresses as a list',
			{ allowedIpAddresses: '={{ ["127.0.0.1"] }}' },
			'Allowed IP Addresses must be text: set it without an expression',
		],
	])('%s', async (_name, parameters, message) => {
		const credentials = { [COLLECTION]: s.unsignedCollection };
		const h = await trigger(s, parameters, { credentials });
		const call = await h.post(callbackBody('SE-1', 100, 'completed', { signature: null }));
		expect(call.statusCode).toBe(500);
		expect(call.executionStarted).toBe(false);
		expect(call.error?.message).toBe(message);
		const activation = await h.lifecycle('checkExists');
		expect(activation.result).toBeUndefined();
		expect(activation.error?.message).toBe(message);
	});
});

test('expressions that yield what the parameter holds work as the plain values', async () => {
	const h = await trigger(s, {
		interface: '={{ "collection" }}',
		statuses: '={{ ["completed"] }}',
		confirmWithService: '={{ false }}',
		acceptUnsignedCallbacks: '={{ false }}',
		allowedIpAddresses: '={{ "127.0.0.1" }}',
	});
	const call = await h.post(callbackBody('SE-2', 100, 'completed'));
	expect(call.statusCode).toBe(200);
	expect(call.result?.workflowData?.[0][0].json).toMatchObject({
		statusConfirmed: false,
		verified: { signature: true, sourceAddress: true, confirmedWithService: null },
	});
	expect((await h.post(callbackBody('SE-3', 100, 'pending'))).body).toEqual({
		message: 'Ignored: status pending',
	});
});
