import { StartGate } from '../../nodes/shared/runner/startGate';

/** Asks the gate for `count` starts at once; `started()` says how many have been let through so far. */
function enterAll(gate: StartGate, count: number) {
	let started = 0;
	const entries = Array.from({ length: count }, async () => {
		const leave = await gate.enter();
		started++;
		return leave;
	});
	return { started: () => started, entries };
}

/** Lets pending promise callbacks run without ending the gate's turn. */
const settleMicrotasks = async () => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('StartGate (pacing of sends over event-loop turns)', () => {
	let now = 0;
	beforeEach(() => {
		now = 1000;
		jest.spyOn(performance, 'now').mockImplementation(() => now);
	});
	afterEach(() => jest.restoreAllMocks());

	it('starts one item per turn while fewer than a quarter of the slots are waiting', async () => {
		const gate = new StartGate(16);
		const { started, entries } = enterAll(gate, 3);
		await settleMicrotasks();
		expect(started()).toBe(1);
		await gate.nextTurn();
		await settleMicrotasks();
		expect(started()).toBe(2);
		await gate.nextTurn();
		await Promise.all(entries);
		expect(started()).toBe(3);
	});

	it('starts several in one turn when a quarter of the slots are waiting, within the batch window', async () => {
		const gate = new StartGate(4);
		const { started } = enterAll(gate, 4);
		await settleMicrotasks();
		expect(started()).toBe(4);
	});

	it('closes the batch once 1 ms has passed since the turn first started', async () => {
		const gate = new StartGate(4);
		await gate.enter();
		now += 2;
		const { started, entries } = enterAll(gate, 1);
		await settleMicrotasks();
		expect(started()).toBe(0);
		await gate.nextTurn();
		await Promise.all(entries);
		expect(started()).toBe(1);
	});

	it('does not count an item that settled within its turn', async () => {
		const gate = new StartGate(8);
		const leave = await gate.enter();
		leave();
		const { started } = enterAll(gate, 1);
		await settleMicrotasks();
		expect(started()).toBe(1);
	});

	it('an item settling after its turn ended does not free a start in the new turn', async () => {
		const gate = new StartGate(8);
		const leaveFirst = await gate.enter();
		await gate.nextTurn();
		await gate.enter();
		leaveFirst();
		const { started, entries } = enterAll(gate, 1);
		await settleMicrotasks();
		expect(started()).toBe(0);
		await gate.nextTurn();
		await Promise.all(entries);
		expect(started()).toBe(1);
	});

	it('gives every caller in a turn the same turn end', () => {
		const gate = new StartGate(8);
		expect(gate.nextTurn()).toBe(gate.nextTurn());
	});
});
