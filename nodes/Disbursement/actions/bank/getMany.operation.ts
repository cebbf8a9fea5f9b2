/** Bank > Get Many (assumed path, docs/endpoints.md; `data.banks`): the banks a bank transfer can go to. */
import { listOperation } from '../../../shared/operations/listing';

export const { description, prepare } = listOperation({
	show: { resource: ['bank'], operation: ['getMany'] },
	endpoint: 'getBanks',
	key: 'banks',
});
