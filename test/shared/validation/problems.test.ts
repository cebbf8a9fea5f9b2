/**
 * Every problem of one item collected before it fails, so a row with three bad cells is fixed in
 * one go (nodes/shared/validation/problems.ts).
 */
import { NodeOperationError } from 'n8n-workflow';

import { ItemProblems } from '../../../nodes/shared/validation/problems';
import { nodeErrorOf, testNode } from '../../harness/handMadeContext';

const node = testNode();

describe('ItemProblems', () => {
	test('an item without problems passes', () => {
		const problems = new ItemProblems(node, 0);
		expect(problems.check(() => 42)).toBe(42);
		expect(() => problems.throwIfAny()).not.toThrow();
	});

	test('one problem is thrown as it is, with its hint and the row', () => {
		const problems = new ItemProblems(node, 3);
		problems.add('amount is empty', 'Give the amount in pesos');
		const error = nodeErrorOf(() => problems.throwIfAny());
		expect(error.message).toBe('amount is empty');
		expect(error.description).toBe('Give the amount in pesos');
		expect(error.context.itemIndex).toBe(3);
	});

	test('several problems make one error listing all of them, hints beside their problem', () => {
		const problems = new ItemProblems(node, 1);
		expect(
			problems.check(() => {
				throw new NodeOperationError(node, 'amount is "abc", not a number', {
					description: 'Write it as 1250.50',
				});
			}),
		).toBeUndefined();
		problems.add('channel is empty');
		problems.check(() => {
			throw new NodeOperationError(node, 'reference_no is too long');
		});
		const error = nodeErrorOf(() => problems.throwIfAny());
		expect(error.message).toBe(
			'3 fields to fix: amount is "abc", not a number; channel is empty; reference_no is too long',
		);
		expect(error.description).toBe(
			'- amount is "abc", not a number (Write it as 1250.50)\n- channel is empty\n- reference_no is too long',
		);
		expect(error.context.itemIndex).toBe(1);
	});

	test('a parser failing with anything but a node error is no problem of the row: it is thrown at once, for the row', () => {
		const problems = new ItemProblems(node, 2);
		let thrown: unknown;
		try {
			problems.check(() => {
				throw new TypeError('cannot read x of undefined');
			});
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeOperationError);
		expect((thrown as NodeOperationError).message).toBe('cannot read x of undefined');
		expect((thrown as NodeOperationError).context.itemIndex).toBe(2);
		expect(() => problems.throwIfAny()).not.toThrow();
	});
});
