/** A request's answer or failure as a value (nodes/shared/transport/outcome.ts). */
import { outcomeOf } from '../../../nodes/shared/transport/outcome';

describe('outcomeOf', () => {
	test('an answer comes back as { answer }', async () => {
		const answer = { message: 'ok', data: [] };
		const outcome = await outcomeOf(Promise.resolve(answer));
		expect(outcome).toEqual({ answer });
		expect('answer' in outcome && outcome.answer).toBe(answer);
	});

	test.each([
		[new Error('socket hang up')],
		['a string'],
		[undefined],
		[null],
		[{ code: 'ECONNRESET' }],
	])('a rejection with %p comes back as { failure }, never thrown', async (failure) => {
		const outcome = await outcomeOf(Promise.reject(failure));
		expect(outcome).toEqual({ failure });
		expect('failure' in outcome && outcome.failure).toBe(failure);
	});

	test('an answer that is itself undefined is still an answer', async () => {
		expect(await outcomeOf(Promise.resolve(undefined))).toEqual({ answer: undefined });
	});
});
