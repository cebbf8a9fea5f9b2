/** Network failures in plain words (nodes/shared/transport/networkCodes.ts). */
import { ANSWER_TOO_LARGE, DEADLINE_PASSED } from '../../../nodes/shared/transport/limits';
import { describeNetworkCode } from '../../../nodes/shared/transport/networkCodes';

describe('describeNetworkCode', () => {
	test.each([
		[DEADLINE_PASSED, 'no complete answer within the Timeout'],
		[
			ANSWER_TOO_LARGE,
			'the answer was larger than 1 MiB, the most this node reads, so it was not read',
		],
		['ECONNRESET', 'the connection was closed before an answer arrived'],
		['ERR_BAD_RESPONSE', 'the answer broke off before it was complete'],
		['ECONNABORTED', 'no answer within the time-out'],
		['ETIMEDOUT', 'no answer within the time-out'],
		['ESOCKETTIMEDOUT', 'no answer within the time-out'],
		['ECONNREFUSED', 'the connection was refused'],
		['ENOTFOUND', 'the host name was not found'],
		['EAI_AGAIN', 'the host name could not be looked up'],
		['EHOSTUNREACH', 'the host is unreachable'],
	])('%s reads "%s"', (code, words) => {
		expect(describeNetworkCode(code)).toBe(words);
	});

	test.each([['EPIPE'], ['NO_RESPONSE'], [''], [undefined], ['toString'], ['constructor']])(
		'%j, a code without words, reads as a failed request',
		(code) => {
			expect(describeNetworkCode(code)).toBe('the request failed');
		},
	);

	test('the words never name the code: n8n would swap such a message for a generic one', () => {
		for (const code of ['ECONNRESET', 'ETIMEDOUT', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])
			expect(describeNetworkCode(code)).not.toMatch(/\bE[A-Z_]{3,}\b/);
	});
});
