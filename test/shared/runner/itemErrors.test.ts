import type { INode } from 'n8n-workflow';

import { readOnly } from '../../../nodes/shared/runner/itemErrors';
import type { ServiceRequest, ServiceResponse } from '../../../nodes/shared/transport/endpoints';

const node: INode = {
	id: 'n1',
	name: 'Payment Gateway Disbursement',
	type: 'n8n-nodes-payment-gateway.disbursement',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

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
