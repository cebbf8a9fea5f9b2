/** Dropdown contents loaded from the service while the user edits the node. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bankSchema, pickList } from '../../shared/schemas';
import { callService } from '../../shared/transport';

export async function getBanks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { data } = await callService(this, { endpoint: 'getBanks' });
	const list = pickList(data, 'banks');
	if (!list) {
		throw new NodeOperationError(
			this.getNode(),
			'The bank list answer holds no "banks" list: type the bank code, or map it with an expression',
		);
	}
	return list
		.map((entry) => bankSchema.safeParse(entry))
		.filter((parsed) => parsed.success)
		.map(({ data: bank }) => ({ name: bank!.name, value: bank!.code, description: `Bank code ${bank!.code}` }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
