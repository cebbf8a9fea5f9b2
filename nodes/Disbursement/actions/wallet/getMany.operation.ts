/** Wallet > Get Many (assumed path, docs/endpoints.md; `data.wallets`, status filter). */
import { listOperation } from '../../../shared/operations/listing';

export const { description, prepare } = listOperation({
	show: { resource: ['wallet'], operation: ['getMany'] },
	endpoint: 'getWallets',
	key: 'wallets',
	statusFilterFor: 'wallet',
});
