import { readOnly } from '../../../nodes/shared/runner/itemErrors';
import type { ServiceRequest, ServiceResponse } from '../../../nodes/shared/transport/endpoints';
import { testNode } from '../../harness/handMadeContext';

const node = testNode();

describe('the call a refusal explanation gets', () => {
	const answer: ServiceResponse = { data: [], message: 'ok' };

	it.each(['createPayout', 'generateTransaction', 'repostPayout', 'disbursementToken'] as const)(
		'refuses %s without sending it',
		async (endpoint) => {
			const sent: ServiceRequest[] = [];
			const call = readOnly(node, async (request) => {
				sent.push(request);
				return answer;
			});
			await expect(call({ endpoint, body: { amount: 100 } })).rejects.toThrow(
				`may only read from the service, not call ${endpoint}`,
			);
			expect(sent).toEqual([]);
		},
	);

	it('passes a look-up through', async () => {
		const sent: ServiceRequest[] = [];
		const call = readOnly(node, async (request) => {
			sent.push(request);
			return answer;
		});
		await expect(call({ endpoint: 'getPayoutChannels' })).resolves.toBe(answer);
		expect(sent).toEqual([{ endpoint: 'getPayoutChannels' }]);
	});
});
