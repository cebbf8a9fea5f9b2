/**
 * Display conditions by node version (nodes/shared/descriptions/versions.ts), as n8n-workflow's own
 * `displayParameter` resolves them: the package's n8n-workflow, no engine.
 */
import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FROM_VERSION_2, IN_VERSION_1 } from '../../../nodes/shared/descriptions/versions';

const shownOn = (show: INodeProperties['displayOptions'], typeVersion: number) =>
	NodeHelpers.displayParameter(
		{},
		{ displayName: 'X', name: 'x', type: 'string', default: '', displayOptions: show },
		{ typeVersion },
		null,
	);

describe('display conditions by version', () => {
	// The nodes' versions are 1 and 2; a later 2.x or 3 keeps what 2 shows.
	test.each([
		[1, true, false],
		[2, false, true],
		[2.1, false, true],
		[3, false, true],
	])('on version %p: IN_VERSION_1 shows %p, FROM_VERSION_2 shows %p', (version, one, two) => {
		expect(shownOn({ show: IN_VERSION_1 }, version)).toBe(one);
		expect(shownOn({ show: FROM_VERSION_2 }, version)).toBe(two);
	});

	test('as a hide condition each hides what the other shows', () => {
		for (const version of [1, 2, 3]) {
			expect(shownOn({ hide: IN_VERSION_1 }, version)).toBe(
				shownOn({ show: FROM_VERSION_2 }, version),
			);
		}
	});
});
