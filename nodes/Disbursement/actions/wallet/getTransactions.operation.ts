/** Wallet > Get Transactions (assumed path, docs/endpoints.md; status filter). */
import { listOperation } from '../../../shared/operations/listing';

export const { description, prepare } = listOperation({
	show: { resource: ['wallet'], operation: ['getTransactions'] },
	endpoint: 'getWalletTransactions',
	key: 'transactions',
	statusFilterFor: 'wallet transaction',
});
