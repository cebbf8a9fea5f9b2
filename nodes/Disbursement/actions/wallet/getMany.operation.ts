/** Wallet > Get Many (interface document 4.9, `data.wallets`, status filter). */
import { listOperation } from '../../../shared/operations/listing';

export const { description, prepare } = listOperation({
	show: { resource: ['wallet'], operation: ['getMany'] },
	endpoint: 'getWallets',
	key: 'wallets',
	statusFilterFor: 'wallet',
});
