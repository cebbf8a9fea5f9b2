/**
 * A run's items taken together in waves, in the order they were planned: one call decides a
 * whole wave, wave n only after wave n-1, and the next wave is decided while one is in use. A
 * wave is opened when its first item asks, and closed at the end of the run. Used by the daily
 * maximum (dailyCap.ts) so the ledger is asked once per wave, not once per payout.
 */
export interface WaveSteps<Entry, Decided> {
	/** Decides the wave's entries together. */
	decide(entries: Entry[]): Promise<Decided>;
	/** Runs once, when the wave's first item asks for it. */
	open(decided: Decided): Promise<void>;
	/** Runs once per decided wave at the end of the run, opened or not. */
	close(decided: Decided, opened: boolean): Promise<void>;
}

interface Wave<Decided> {
	decided: Promise<Decided>;
	opened?: Promise<Decided>;
}

export class Waves<Entry, Decided> {
	private readonly position = new Map<number, number>();
	private readonly waves: Array<Wave<Decided>> = [];
	private finishing = false;

	constructor(
		private readonly entries: Array<{ key: number; entry: Entry }>,
		private readonly size: number,
		private readonly steps: WaveSteps<Entry, Decided>,
	) {
		entries.forEach(({ key }, index) => this.position.set(key, index));
	}

	/** Whether the entry of this key was planned. */
	has(key: number): boolean {
		return this.position.has(key);
	}

	/** The opened wave of a planned entry; the wave after it is decided meanwhile. */
	async waveOf(key: number): Promise<Decided> {
		if (this.finishing) throw new Error('the run is finished: no wave is decided now');
		const index = Math.floor(this.position.get(key)! / this.size);
		const wave = this.wave(index);
		if ((index + 1) * this.size < this.entries.length) this.wave(index + 1);
		wave.opened ??= wave.decided.then(async (decided) => {
			await this.steps.open(decided);
			return decided;
		});
		return await wave.opened;
	}

	private wave(index: number): Wave<Decided> {
		const existing = this.waves[index];
		if (existing) return existing;
		const before =
			index > 0
				? this.wave(index - 1).decided.then(
						() => undefined,
						() => undefined,
					)
				: Promise.resolve();
		const entries = this.entries
			.slice(index * this.size, (index + 1) * this.size)
			.map(({ entry }) => entry);
		const wave: Wave<Decided> = {
			decided: before.then(async () => await this.steps.decide(entries)),
		};
		// A wave decided ahead that no item asks for still settles; its failure is its items'.
		wave.decided.catch(() => undefined);
		this.waves[index] = wave;
		return wave;
	}

	/** Closes every decided wave, once every item is done; no wave is decided after this. */
	async finish(): Promise<void> {
		this.finishing = true;
		for (const wave of this.waves) {
			if (!wave) continue;
			const decided = await wave.decided.then(
				(value) => ({ value }),
				() => undefined,
			);
			if (!decided) continue;
			const opened = wave.opened
				? await wave.opened.then(
						() => true,
						() => true,
					)
				: false;
			await this.steps.close(decided.value, opened);
		}
	}
}
