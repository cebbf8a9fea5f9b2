import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeToOperation, type OperationTable } from '../../shared/router';
import * as authorization from './authorization/Authorization.resource';
import * as bank from './bank/Bank.resource';
import { explainChannelRefusals } from './payout/channels';
import * as payout from './payout/Payout.resource';
import * as wallet from './wallet/Wallet.resource';

const operations: OperationTable = {
	payout: {
		create: explainChannelRefusals(payout.create.execute),
		get: payout.get.execute,
		repost: payout.repost.execute,
	},
	wallet: { getMany: wallet.getMany.execute, getTransactions: wallet.getTransactions.execute },
	bank: { getMany: bank.getMany.execute },
	authorization: { get: authorization.get.execute },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeToOperation(this, operations);
}
