import { StartGate } from '../../../nodes/shared/runner/startGate';

/** Lets pending promise callbacks run without ending the gate's turn (a turn ends on a timer). */
const settleMicrotasks = async () => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
};

/**
 * Asks the gate for `count` starts at once, then lets `turns` turns pass; returns how many had
 * started by the end of each turn.
 */
async function startedByTurn(gate: StartGate, count: number, turns: number): Promise<number[]> {
	let started = 0;
	for (let i = 0; i < count; i++) void gate.enter().then(() => started++);
	const seen: number[] = [];
	for (let turn = 0; turn < turns; turn++) {
		if (turn > 0) await gate.nextTurn();
		await settleMicrotasks();
		seen.push(started);
	}
	return seen;
}

describe('StartGate (pacing of sends over event-loop turns)', () => {
	let now = 0;
	beforeEach(() => {
		now = 1000;
		jest.spyOn(performance, 'now').mockImplementation(() => now);
	});
	afterEach(() => jest.restoreAllMocks());

	it('starts one item per turn while fewer than a quarter of the slots are waiting', async () => {
		expect(await startedByTurn(new StartGate(16), 3, 3)).toEqual([1, 2, 3]);
	});

	it('starts several in one turn when a quarter of the slots are waiting, within the batch window', async () => {
		expect(await startedByTurn(new StartGate(4), 4, 1)).toEqual([4]);
	});

	it('closes the batch once 1 ms has passed since the turn first started', async () => {
		const gate = new StartGate(4);
		await gate.enter();
		now += 2;
		expect(await startedByTurn(gate, 1, 2)).toEqual([0, 1]);
	});

	it('does not count an item that settled within its turn', async () => {
		const gate = new StartGate(8);
		const leave = await gate.enter();
		leave();
		expect(await startedByTurn(gate, 1, 1)).toEqual([1]);
	});

	it('an item settling after its turn ended does not free a start in the new turn', async () => {
		const gate = new StartGate(8);
		const leaveFirst = await gate.enter();
		await gate.nextTurn();
		await gate.enter();
		leaveFirst();
		expect(await startedByTurn(gate, 1, 2)).toEqual([0, 1]);
	});

	it('gives every caller in a turn the same turn end', () => {
		const gate = new StartGate(8);
		expect(gate.nextTurn()).toBe(gate.nextTurn());
	});
});

describe('StartGate: how many start per turn, by slots and callers', () => {
	beforeEach(() => {
		jest.spyOn(performance, 'now').mockImplementation(() => 1000);
	});
	afterEach(() => jest.restoreAllMocks());

	test.each([
		[1, 3, 1, [3]],
		[2, 3, 1, [3]],
		[4, 6, 1, [6]],
		[8, 4, 2, [3, 4]],
		[12, 4, 3, [2, 3, 4]],
		[16, 4, 4, [1, 2, 3, 4]],
		[64, 3, 3, [1, 2, 3]],
	])(
		'%p slots, %p callers at once: started by the end of each turn %j',
		async (slots, count, turns, seen) => {
			expect(await startedByTurn(new StartGate(slots), count, turns)).toEqual(seen);
		},
	);
});
