/**
 * Every failure of a request, classified for the money-safe path and said in words that tell the
 * user what to fix (nodes/shared/transport/errors.ts). `rejected`: a definite refusal, nothing was
 * done. `unclear`: the request may have been carried out. Anything that cannot be read as a
 * refusal is unclear.
 */
import { NodeApiError } from 'n8n-workflow';

import {
	ServiceError,
	TOKEN_STEP_FAILED,
	TokenStepError,
	classifyFailure,
	describeFailure,
	safeJson,
	stopsTheRun,
	type ServiceFailure,
} from '../../../nodes/shared/transport/errors';
import { ANSWER_TOO_LARGE, DEADLINE_PASSED } from '../../../nodes/shared/transport/limits';
import { testNode } from '../../harness/handMadeContext';

/** An axios error as n8n's request helpers throw it, or as a NodeApiError keeps it in `cause`. */
const axiosError = (status: number, data?: unknown) => ({
	message: `Request failed with status code ${status}`,
	response: { status, data },
});

describe('classifyFailure', () => {
	test.each([
		[400, 'rejected'],
		[401, 'rejected'],
		[404, 'rejected'],
		[409, 'rejected'],
		[422, 'rejected'],
		[429, 'rejected'],
		[500, 'unclear'],
		[502, 'unclear'],
		[503, 'unclear'],
		[504, 'unclear'],
	])('HTTP %p is %s', (status, kind) => {
		expect(classifyFailure(axiosError(status))).toEqual({
			kind,
			status,
			serviceMessage: undefined,
			fieldErrors: undefined,
		});
	});

	test('the status and body are read wherever n8n left them: the cause, the error, or httpCode and context', () => {
		const body = { message: 'Duplicate reference_no' };
		const expected = { kind: 'rejected', status: 409, serviceMessage: 'Duplicate reference_no' };
		expect(classifyFailure({ cause: axiosError(409, body) })).toMatchObject(expected);
		expect(classifyFailure(axiosError(409, body))).toMatchObject(expected);
		expect(classifyFailure({ httpCode: '409', context: { data: body } })).toMatchObject(expected);
	});

	test("a body given as text is read as JSON: the service's message and 422 field errors", () => {
		const text = JSON.stringify({
			message: 'The given data was invalid.',
			errors: { amount: ['The amount must be at least 1.'], channel: ['Unknown.', 'Inactive.'] },
		});
		expect(classifyFailure(axiosError(422, text))).toEqual({
			kind: 'rejected',
			status: 422,
			serviceMessage: 'The given data was invalid.',
			fieldErrors: {
				amount: ['The amount must be at least 1.'],
				channel: ['Unknown.', 'Inactive.'],
			},
		});
	});

	test.each([
		['<html>Bad Gateway</html>'],
		[''],
		[{ message: 42 }],
		[{ errors: { amount: 'not a list' } }],
		[null],
	])('a body that is not the envelope (%j) gives no message, the status still counts', (data) => {
		expect(classifyFailure(axiosError(502, data))).toEqual({
			kind: 'unclear',
			status: 502,
			serviceMessage: undefined,
			fieldErrors: undefined,
		});
	});

	test('an empty message from the service is no message', () => {
		expect(classifyFailure(axiosError(400, { message: '' })).serviceMessage).toBeUndefined();
	});

	test.each([
		[{ code: 'ECONNRESET', message: 'socket hang up' }, 'ECONNRESET'],
		[{ cause: { code: 'ETIMEDOUT' } }, 'ETIMEDOUT'],
		[{ cause: { code: 'ECONNREFUSED' }, code: 'OUTER' }, 'ECONNREFUSED'],
		[{ httpCode: 'ECONNRESET', message: 'The connection to the server was closed' }, 'ECONNRESET'],
		[{ httpCode: DEADLINE_PASSED }, DEADLINE_PASSED],
		[{ message: 'something broke' }, 'NO_RESPONSE'],
		[{ httpCode: null }, 'NO_RESPONSE'],
		[new Error('plain'), 'NO_RESPONSE'],
		[undefined, 'NO_RESPONSE'],
		['a string', 'NO_RESPONSE'],
	])('no status: %j is unclear, network code %s', (error, networkCode) => {
		expect(classifyFailure(error)).toEqual({ kind: 'unclear', networkCode });
	});

	test('a failed token step is a refusal: the request itself was never sent', () => {
		expect(
			classifyFailure({
				httpCode: TOKEN_STEP_FAILED,
				message: 'The token endpoint answered HTTP 503',
			}),
		).toEqual({ kind: 'rejected', tokenFailure: 'The token endpoint answered HTTP 503' });
		expect(
			classifyFailure(new TokenStepError('The credential was refused: check its Password')),
		).toEqual({
			kind: 'rejected',
			tokenFailure: 'The credential was refused: check its Password',
			credentialUnusable: true,
		});
		expect(
			classifyFailure(new TokenStepError('The token endpoint timed out', TOKEN_STEP_FAILED)),
		).toEqual({ kind: 'rejected', tokenFailure: 'The token endpoint timed out' });
	});

	test("n8n's Engine 2.0 refusing the credential says how to run the workflow", () => {
		const failure = classifyFailure(
			new Error('Engine 2.0 does not support credentials with an expirable field yet'),
		);
		expect(failure).toMatchObject({ kind: 'rejected', credentialUnusable: true });
		expect(failure.tokenFailure).toMatch(/run this workflow on engine v1/);
	});
});

describe('stopsTheRun', () => {
	test.each<[ServiceFailure, boolean]>([
		[{ kind: 'rejected', tokenFailure: 'refused' }, true],
		[{ kind: 'rejected', tokenFailure: '' }, true],
		[{ kind: 'rejected', credentialUnusable: true }, true],
		[{ kind: 'rejected', status: 401 }, true],
		[{ kind: 'rejected', status: 403 }, false],
		[{ kind: 'rejected', status: 422 }, false],
		[{ kind: 'unclear', status: 500 }, false],
		[{ kind: 'unclear', networkCode: 'ECONNRESET' }, false],
	])('%j: %p', (failure, stops) => {
		expect(stopsTheRun(failure)).toBe(stops);
	});
});

describe('describeFailure', () => {
	test.each<[ServiceFailure, 'collection' | 'disbursement', string, string | undefined]>([
		[
			{ kind: 'rejected', tokenFailure: 'The credential was refused' },
			'collection',
			'The credential was refused',
			undefined,
		],
		[
			{ kind: 'rejected', status: 401, serviceMessage: 'Unauthenticated.' },
			'disbursement',
			'The Disbursement credential was refused even after fetching a new token: check its Username, Password and Base URL',
			'HTTP 401. The service said: "Unauthenticated."',
		],
		[
			{
				kind: 'rejected',
				status: 422,
				fieldErrors: { amount: ['Too small.', 'Not a number.'], channel: ['Unknown.'] },
			},
			'collection',
			'The service rejected the request: amount: Too small. Not a number.; channel: Unknown.',
			'amount: Too small. Not a number.\nchannel: Unknown.',
		],
		[
			{ kind: 'rejected', status: 404, baseUrlHint: 'the Base URL holds the path /api' },
			'collection',
			'Not found (HTTP 404): the Base URL holds the path /api.',
			undefined,
		],
		[
			{ kind: 'rejected', status: 404 },
			'disbursement',
			'Not found (HTTP 404). Check the Endpoint Path option if this operation uses an assumed path.',
			undefined,
		],
		[
			{ kind: 'rejected', status: 404, serviceMessage: 'Transaction not found' },
			'disbursement',
			'Not found (HTTP 404). The service said: "Transaction not found"',
			undefined,
		],
		[
			{ kind: 'rejected', status: 302, redirectHost: 'evil.example' },
			'collection',
			'The Payment Collection service redirected the request (HTTP 302 to evil.example) instead of answering it: check the Base URL in the credential (https, host and no extra path)',
			'Redirects are not followed, so a payment request is never sent a second time or to another address.',
		],
		[
			{ kind: 'rejected', status: 301 },
			'disbursement',
			'The Disbursement service redirected the request (HTTP 301) instead of answering it: check the Base URL in the credential (https, host and no extra path)',
			'Redirects are not followed, so a payment request is never sent a second time or to another address.',
		],
		[
			{ kind: 'rejected', status: 429 },
			'collection',
			'The service is rate-limiting this operation (HTTP 429): wait a little and try again.',
			undefined,
		],
		[
			{ kind: 'unclear', status: 503, serviceMessage: 'Maintenance' },
			'collection',
			'The Payment Collection service answered HTTP 503. The service said: "Maintenance"',
			undefined,
		],
		[
			{ kind: 'rejected', status: 422 },
			'collection',
			'The Payment Collection service answered HTTP 422.',
			undefined,
		],
		[
			{ kind: 'unclear', networkCode: ANSWER_TOO_LARGE },
			'disbursement',
			"The Disbursement service's answer was larger than 1 MiB, the most this node reads, so it was not read: check the Base URL points at the service",
			'Network error code: ANSWER_TOO_LARGE',
		],
		[
			{ kind: 'unclear', networkCode: 'ECONNRESET' },
			'collection',
			'No answer from the Payment Collection service (the connection was closed before an answer arrived): check the Base URL and your network, or raise the Timeout option',
			'Network error code: ECONNRESET',
		],
		[
			{ kind: 'unclear' },
			'disbursement',
			'No answer from the Disbursement service (the request failed): check the Base URL and your network, or raise the Timeout option',
			'Network error code: NO_RESPONSE',
		],
	])('%j on %s', (failure, api, message, description) => {
		expect(describeFailure(failure, api)).toEqual(
			description === undefined ? { message } : { message, description },
		);
	});
});

describe('ServiceError', () => {
	const node = testNode();

	test('keeps the classification and the message as written, even one naming a network code', () => {
		const failure: ServiceFailure = { kind: 'unclear', networkCode: 'ECONNRESET' };
		const error = new ServiceError(
			node,
			failure,
			'No answer (ECONNRESET)',
			'Network error code: ECONNRESET',
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.failure).toBe(failure);
		expect(error.message).toBe('No answer (ECONNRESET)');
		expect(error.description).toBe('Network error code: ECONNRESET');
	});

	test('carries the status and field errors, and nothing of the request', () => {
		const failure: ServiceFailure = {
			kind: 'rejected',
			status: 422,
			fieldErrors: { amount: ['Too small.'] },
		};
		const error = new ServiceError(node, failure, 'The service rejected the request');
		expect(error.httpCode).toBe('422');
		expect(error.errorResponse).toEqual({
			message: 'The service rejected the request',
			httpCode: '422',
			errors: { amount: ['Too small.'] },
		});
	});
});

describe('safeJson', () => {
	test.each([
		['{"a":1}', { a: 1 }],
		['[1,2]', [1, 2]],
		['"text"', 'text'],
		['not json', undefined],
		['', undefined],
		['{"a":', undefined],
	])('%j reads as %j', (text, value) => {
		expect(safeJson(text)).toEqual(value);
	});
});
