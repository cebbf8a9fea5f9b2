/**
 * What a look-up by reference_no may conclude. "Not found" lets the money-safe path send the
 * reference again, so only the documented "nothing matches" (an empty list) means not found; an
 * answer that shows neither the record nor an empty list (`data: null`, `data: {}`, a list of other
 * records: a filter the service ignored) is an unclear failure: the row says so, nothing is resent.
 */
import {
	failOnce,
	moneyOperationsPerFile,
	type MoneyOperation,
} from '../../harness/moneyOperations';

const ops = moneyOperationsPerFile('look-up shapes');
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;
const stats = (op: MoneyOperation) => op.setup.gw.stats();

const UNREADABLE: Array<[string, unknown]> = [
	['data: null', { message: '', data: null }],
	['data: {}', { message: '', data: {} }],
	[
		'a list of other records only',
		{
			message: '',
			data: { transactions: [{ reference_no: 'SOMEONE-ELSE', amount: 10, status: 'pending' }] },
		},
	],
	[
		'a record for another reference',
		{ message: '', data: { reference_no: 'SOMEONE-ELSE', amount: 10, status: 'pending' } },
	],
	['transactions that are not a list', { message: '', data: { transactions: 'none' } }],
];

describe.each(NAMES)('%s', (name) => {
	const op = () => ops[name];

	test.each(UNREADABLE)(
		'after a 502, a look-up answering %s: the row cannot confirm, nothing is resent',
		async (_label, body) => {
			const reference = ref('SHAPE');
			failOnce(op(), 'create', {
				mode: 'error-before',
				status: 502,
			});
			failOnce(op(), 'lookUp', {
				mode: 'error-before',
				status: 200,
				body,
			});
			const result = await op().run(
				op().parameters(),
				[op().row(reference, 10)],
				'continueRegularOutput',
			);
			expect(String(result.outputs[0][0].json.error)).toMatch(
				new RegExp(
					`^Could not confirm whether the ${op().noun} "${reference}" was created: .*; the look-up failed too \\(Looking reference_no "${reference}" up gave an answer that neither holds it nor says it does not exist\\) \\(row 1\\)$`,
				),
			);
			expect(stats(op()).attemptsByReference[reference]).toBe(1);
		},
	);

	test('after a 502, an empty list: not found, sent again once with the same reference', async () => {
		const reference = ref('EMPTY');
		failOnce(op(), 'create', {
			mode: 'error-before',
			status: 502,
		});
		const result = await op().run(
			op().parameters(),
			[op().row(reference, 10)],
			'continueRegularOutput',
		);
		expect(result.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: false });
		expect(stats(op()).attemptsByReference[reference]).toBe(2);
		expect(stats(op()).creationsByReference[reference]).toBe(1);
	});
});
