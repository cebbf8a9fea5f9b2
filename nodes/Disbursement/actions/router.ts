/** Picks the operation's per-item handler and hands it to the one shared item loop. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readExecutionOptions } from '../../shared/executionOptions';
import { runItems, type ItemHandler } from '../../shared/itemRunner';
import * as authorization from './authorization/Authorization.resource';
import * as bank from './bank/Bank.resource';
import * as payout from './payout/Payout.resource';
import * as wallet from './wallet/Wallet.resource';

const handlers: Record<string, Record<string, ItemHandler>> = {
	payout: { create: payout.create.execute, get: payout.get.execute, repost: payout.repost.execute },
	wallet: { getMany: wallet.getMany.execute, getTransactions: wallet.getTransactions.execute },
	bank: { getMany: bank.getMany.execute },
	authorization: { get: authorization.get.execute },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = handlers[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for "${resource}"`);
	}
	// Concurrency is one setting for the whole run, so it is read from the first item.
	const { concurrency } = readExecutionOptions(this, 0);
	return await runItems(this, handler, concurrency);
}
