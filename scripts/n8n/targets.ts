// The n8n versions the project supports, each with the Node.js version that n8n requires. `ci`
// marks the ones .ci/run proves on every run (the newest 2.x and the oldest supported); the README's
// compatibility table and package.json's "n8n.testedVersions" say the same.
export interface Target {
	n8n: string;
	node: string;
	ci: boolean;
	role: string;
}

export const TARGETS: readonly Target[] = [
	{ n8n: '2.41.1', node: '24.21.0', ci: true, role: 'newest 2.x that installs from the registry' },
	{ n8n: '1.123.81', node: '22.23.3', ci: true, role: 'oldest supported' },
	{ n8n: '2.8.4', node: '20.20.2', ci: false, role: 'newest on Node 20' },
];

export const major = (version: string): number =>
	Number(String(version).replace(/^v/, '').split('.')[0]);

/** The target for an n8n version ("2.41.1", or a major like "1"); throws naming the choices. */
export function targetFor(version: string): Target {
	const found =
		TARGETS.find((t) => t.n8n === version) ??
		TARGETS.find((t) => String(major(t.n8n)) === String(version));
	if (!found)
		throw new Error(
			`n8n ${version} is not a tested target; choose one of ${TARGETS.map((t) => t.n8n).join(', ')}`,
		);
	return found;
}

/** The newest n8n overall (the demo fetches its Node when the machine's is older). */
export function newestTarget(): Target {
	return TARGETS[0];
}
