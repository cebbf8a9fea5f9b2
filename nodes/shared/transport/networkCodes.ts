/**
 * Network error codes in plain words. Messages carry the words, never the code: n8n replaces any
 * error message that names a code (ECONNRESET...) with a generic text inviting an immediate retry.
 */
import { ANSWER_TOO_LARGE, DEADLINE_PASSED, MAX_ANSWER_TEXT } from './limits';

const NETWORK_PROBLEMS: Record<string, string> = {
	[DEADLINE_PASSED]: 'no complete answer within the Timeout',
	[ANSWER_TOO_LARGE]: `the answer was larger than ${MAX_ANSWER_TEXT}, the most this node reads, so it was not read`,
	ECONNRESET: 'the connection was closed before an answer arrived',
	// The answer's status and headers arrived, then its body broke off.
	ERR_BAD_RESPONSE: 'the answer broke off before it was complete',
	ECONNABORTED: 'no answer within the time-out',
	ETIMEDOUT: 'no answer within the time-out',
	ESOCKETTIMEDOUT: 'no answer within the time-out',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
	EHOSTUNREACH: 'the host is unreachable',
};

/** The words for a code; any other code, one named like what every object inherits (toString) too, is a failed request. */
export function describeNetworkCode(code: string | undefined): string {
	const known = code !== undefined && Object.prototype.hasOwnProperty.call(NETWORK_PROBLEMS, code);
	return (known && NETWORK_PROBLEMS[code]) || 'the request failed';
}
