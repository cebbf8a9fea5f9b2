/** What the transport keeps for one run (nodes/shared/transport/runState.ts): made fresh, never shared. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { serviceRun } from '../../../nodes/shared/transport/runState';
import { handMadeContext } from '../../harness/handMadeContext';

describe('serviceRun', () => {
	test('holds the context it is given and no credential read yet', () => {
		const { ctx } = handMadeContext();
		const run = serviceRun<IExecuteFunctions>(ctx);
		expect(run.ctx).toBe(ctx);
		expect(run.credentials.size).toBe(0);
	});

	test('each run of the same context gets its own credentials: nothing read in one is seen by the next', () => {
		const { ctx } = handMadeContext();
		const first = serviceRun<IExecuteFunctions>(ctx);
		first.credentials.set(
			'collection',
			Promise.resolve({ id: '1', name: 'c', type: 't', data: {} }),
		);
		const second = serviceRun<IExecuteFunctions>(ctx);
		expect(second.credentials).not.toBe(first.credentials);
		expect(second.credentials.size).toBe(0);
	});
});
