/** Wallet > Get Transactions (interface document 4.9, status filter). */
import { listOperation } from '../../../shared/operations/listing';

export const { description, prepare } = listOperation({
	show: { resource: ['wallet'], operation: ['getTransactions'] },
	endpoint: 'getWalletTransactions',
	key: 'transactions',
	statusFilterFor: 'wallet transaction',
});
