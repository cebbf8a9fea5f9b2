/**
 * One spreadsheet, one reference on several rows: in manual and automatic mapping, one at a time and
 * eight at once. The reference is sent once; a later row with it sends nothing and is answered from
 * a look-up (a replay when it asks for the same thing, a conflict otherwise). References that
 * differ only in case or in spaces around them are the same payment to a person: never sent twice.
 */
import {
	MAPPINGS,
	mappedParameters,
	mappedRow,
	moneyOperationsPerFile,
} from '../../harness/moneyOperations';

const ops = moneyOperationsPerFile('repeated references');
const NAMES = ['Generate', 'Payout Create'] as const;

let counter = 0;
const ref = (prefix: string) => `${prefix}-${++counter}`;

const cases = NAMES.flatMap((name) =>
	MAPPINGS.flatMap((mode) => [1, 8].map((concurrency) => [name, mode, concurrency] as const)),
);

describe.each(cases)('%s, %s mapping, concurrency %d', (name, mode, concurrency) => {
	const op = () => ops[name];
	const run = async (rows: Array<[string, number]>) =>
		await op().run(
			mappedParameters(op(), mode, { concurrency }),
			rows.map(([reference, amount]) => mappedRow(op(), mode, reference, amount)),
			'continueRegularOutput',
		);
	const attempts = (reference: string) => op().setup.gw.stats().attemptsByReference[reference];

	test('the same reference and amount twice: sent once, the second row is its replay', async () => {
		const reference = ref('TWICE');
		const other = ref('OTHER');
		const result = await run([
			[reference, 25],
			[other, 30],
			[reference, 25],
		]);
		expect(
			result.outputs[0].map((item) => [
				item.json.reference_no,
				item.json.replayed,
				item.json.error,
			]),
		).toEqual([
			[reference, false, undefined],
			[other, false, undefined],
			[reference, true, undefined],
		]);
		expect(attempts(reference)).toBe(1);
		expect(op().setup.gw.stats().creationsByReference[reference]).toBe(1);
	});

	test('the same reference with another amount: sent once, the second row is a conflict naming both amounts', async () => {
		const reference = ref('CLASH');
		const result = await run([
			[reference, 25],
			[reference, 40],
		]);
		expect(result.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: false });
		expect(result.outputs[0][1].json.error).toBe(
			`reference_no "${reference}" is already used for a different ${op().noun}: the existing ${op().noun} is for 25, this item asks for 40 (row 2)`,
		);
		expect(attempts(reference)).toBe(1);
	});

	test('spaces and a no-break space around a reference: the same reference, sent once', async () => {
		const reference = ref('SPACED');
		const result = await run([
			[` ${reference}\u00a0`, 25],
			[reference, 25],
		]);
		expect(result.outputs[0].map((item) => [item.json.reference_no, item.json.replayed])).toEqual([
			[reference, false],
			[reference, true],
		]);
		expect(attempts(reference)).toBe(1);
	});

	test("a reference that differs from an earlier row's only in case is refused, naming that row", async () => {
		const reference = ref('case');
		const upper = reference.toUpperCase();
		const result = await run([
			[reference, 25],
			[upper, 25],
		]);
		expect(result.outputs[0][0].json).toMatchObject({ reference_no: reference, replayed: false });
		expect(result.outputs[0][1].json).toMatchObject({
			error: `Reference No "${upper}" differs from row 1's "${reference}" only in case (row 2)`,
			errorDetails:
				'Two rows with one reference in different case are most likely one payment: give each row its own reference_no, or remove the repeated row.',
		});
		expect(attempts(upper)).toBeUndefined();
	});
});

/** The service refuses (422) the next create request of `op`, before creating anything. */
function refuseNextCreate(op: (typeof ops)[keyof typeof ops]): void {
	op.setup.gw.faults.add({
		method: 'POST',
		path: op.createPath,
		mode: 'error-before',
		status: 422,
		body: { message: 'Refused.', errors: { amount: ['Refused.'] } },
		times: 1,
	});
}

describe.each(NAMES)('%s: a repeated row after its first row failed', (name) => {
	test('the first row was refused by the service: the repeat sends nothing and says so', async () => {
		const op = ops[name];
		const reference = ref('REFUSED');
		refuseNextCreate(op);
		const result = await op.run(
			op.parameters({ concurrency: 8 }),
			[op.row(reference, 25), op.row(reference, 25)],
			'continueRegularOutput',
		);
		expect(result.outputs[0][0].json.error).toMatch(/Refused/);
		expect(result.outputs[0][1].json.error).toBe(
			`Not sent: row 1 has the same reference_no "${reference}", and a look-up found no ${op.noun} with it (row 2)`,
		);
		expect(op.setup.gw.stats().attemptsByReference[reference]).toBe(1);
	});

	test('without continue-on-fail, the run stops at the first row and the repeat is not sent', async () => {
		const op = ops[name];
		const reference = ref('STOPPED');
		refuseNextCreate(op);
		const result = await op.run(op.parameters({ concurrency: 8 }), [
			op.row(reference, 25),
			op.row(reference, 25),
		]);
		expect(result.error?.message).toMatch(/Refused/);
		expect(op.setup.gw.stats().attemptsByReference[reference]).toBe(1);
	});
});

test('Dry Run shows a case-variant repeat as a row that would fail', async () => {
	const op = ops['Payout Create'];
	const reference = ref('dry');
	const result = await op.run(op.parameters({ dryRun: true }), [
		op.row(reference, 25),
		op.row(reference.toUpperCase(), 25),
	]);
	const [first, second] = result.outputs[0].map((item) => item.json);
	expect(first).toMatchObject({ row: 1, wouldSend: true });
	expect(second).toMatchObject({
		row: 2,
		wouldSend: false,
		problem: `Reference No "${reference.toUpperCase()}" differs from row 1's "${reference}" only in case`,
	});
});

describe.each(NAMES)('%s: what a repeated reference adds up to', (name) => {
	test('Dry Run: a repeat sends nothing and is not counted; one with another amount would fail', async () => {
		const op = ops[name];
		const [a, b] = [ref('DRY-A'), ref('DRY-B')];
		const result = await op.run(op.parameters({ dryRun: true, maxTotalPerRun: 60 }), [
			op.row(a, 25),
			op.row(b, 30),
			op.row(a, 25),
			op.row(a, 40),
		]);
		const out = result.outputs[0].map((item) => item.json);
		const channel = String(out[0].channel);
		expect(out.slice(0, 4)).toEqual([
			expect.objectContaining({ row: 1, wouldSend: true, reference_no: a, amount: 25 }),
			expect.objectContaining({ row: 2, wouldSend: true, reference_no: b, amount: 30 }),
			{
				dryRun: true,
				row: 3,
				wouldSend: false,
				sameAsRow: 1,
				reference_no: a,
				channel,
				amount: 25,
			},
			{
				dryRun: true,
				row: 4,
				wouldSend: false,
				problem: `reference_no "${a}" is also on row 1, for 25 on ${channel}: this row asks for 40 on ${channel}`,
			},
		]);
		expect(out[4]).toMatchObject({
			summary: true,
			rows: 4,
			wouldSend: 2,
			sameAsEarlierRow: 1,
			wouldFail: 1,
			totalAmount: 55,
			overMaximumTotal: false,
		});
		expect(op.setup.gw.stats().requestsByPath).toEqual({});
	});

	test('Maximum Total per Run counts a repeated row once: the rows are sent', async () => {
		const op = ops[name];
		const [a, b] = [ref('MAX-A'), ref('MAX-B')];
		const result = await op.run(op.parameters({ maxTotalPerRun: 60 }), [
			op.row(a, 25),
			op.row(b, 30),
			op.row(a, 25),
		]);
		expect(result.error).toBeUndefined();
		expect(result.outputs[0].map((item) => [item.json.reference_no, item.json.replayed])).toEqual([
			[a, false],
			[b, false],
			[a, true],
		]);
		expect(op.setup.gw.stats().attemptsByReference[a]).toBe(1);
	});
});
