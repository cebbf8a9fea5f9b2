import { sleep } from 'n8n-workflow';

/**
 * Paces the sends over event-loop turns. A request's connection is only handled in a later turn,
 * after everything already waiting, so requests started back to back leave together, come back
 * together, and the run moves in bursts (measured at 16 in flight, 20 ms latency, 10,000 payouts:
 * 432 items/s unpaced, about 680 paced).
 *
 * One item starts per turn, except when at least a quarter of the slots are waiting (the run is
 * short of CPU, not waiting on the service): then more start, until 1 ms has passed since the
 * turn's first start. A few sends together cost less CPU per item than one per turn (measured at
 * 64 in flight: 0.8 against 1.2 ms). An item that settles within its turn does not count.
 */
export class StartGate {
	private static readonly BATCH_WINDOW_MS = 1;

	private startsThisTurn = 0;
	private turnStartedAt = 0;
	private waiting = 0;
	private turn = 0;
	private turnEnd: Promise<void> | undefined;

	constructor(private readonly slots: number) {}

	/** Waits until this turn may start one more item; returns what to call once the item has settled. */
	async enter(): Promise<() => void> {
		this.waiting++;
		while (!this.mayStart()) await this.nextTurn();
		this.waiting--;
		if (this.startsThisTurn++ === 0) this.turnStartedAt = performance.now();
		const turn = this.turn;
		void this.nextTurn();
		return () => {
			if (this.turn === turn) this.startsThisTurn--;
		};
	}

	private mayStart(): boolean {
		if (this.startsThisTurn === 0) return true;
		return (
			this.waiting * 4 >= this.slots &&
			performance.now() - this.turnStartedAt < StartGate.BATCH_WINDOW_MS
		);
	}

	nextTurn(): Promise<void> {
		this.turnEnd ??= sleep(0).then(() => {
			this.turnEnd = undefined;
			this.turn++;
			this.startsThisTurn = 0;
		});
		return this.turnEnd;
	}
}
