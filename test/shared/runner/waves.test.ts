import { Waves, type WaveSteps } from '../../../nodes/shared/runner/waves';

/** Steps that record what happened, in order. */
function recorder(failWave?: number) {
	const events: string[] = [];
	let decided = 0;
	const steps: WaveSteps<number, number[]> = {
		async decide(entries) {
			const wave = decided++;
			events.push(`decide ${entries.join(',')}`);
			await new Promise((resolve) => setImmediate(resolve));
			if (wave === failWave) throw new Error(`wave ${wave} failed`);
			return entries;
		},
		async open(decided) {
			events.push(`open ${decided.join(',')}`);
		},
		async close(decided, opened) {
			events.push(`close ${decided.join(',')} ${opened ? 'opened' : 'not opened'}`);
		},
	};
	return { events, steps };
}

const planned = (keys: number[]) => keys.map((key) => ({ key, entry: key }));

describe('waves', () => {
	test('wave n is decided after wave n-1 and the next one ahead of its items, each opened once when first asked; every decided wave closed', async () => {
		const { events, steps } = recorder();
		const waves = new Waves(planned([0, 1, 2, 3, 4]), 2, steps);
		expect(await Promise.all([waves.waveOf(1), waves.waveOf(0)])).toEqual([
			[0, 1],
			[0, 1],
		]);
		expect(await waves.waveOf(2)).toEqual([2, 3]);
		await waves.finish();
		expect(events).toEqual([
			'decide 0,1',
			'open 0,1',
			'decide 2,3',
			'open 2,3',
			'decide 4',
			'close 0,1 opened',
			'close 2,3 opened',
			'close 4 not opened',
		]);
	});

	test('an entry not planned is not had; a failed wave fails its items, and the next is still decided', async () => {
		const { events, steps } = recorder(0);
		const waves = new Waves(planned([5, 6]), 1, steps);
		expect(waves.has(7)).toBe(false);
		await expect(waves.waveOf(5)).rejects.toThrow('wave 0 failed');
		expect(await waves.waveOf(6)).toEqual([6]);
		await waves.finish();
		expect(events).toEqual(['decide 5', 'decide 6', 'open 6', 'close 6 opened']);
	});

	test('no wave is decided once finished', async () => {
		const { events, steps } = recorder();
		const waves = new Waves(planned([0, 1]), 1, steps);
		await waves.finish();
		await expect(waves.waveOf(0)).rejects.toThrow();
		expect(events).toEqual([]);
	});
});
